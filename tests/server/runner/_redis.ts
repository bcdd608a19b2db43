/**
 * A real `redis-server` for the queue tests: a free port on 127.0.0.1, its own temporary
 * directory, no RDB snapshots and an append-only file (as the README asks of operators), so that
 * a SHUTDOWN and a start on the same port and directory keep every key. Also worker processes
 * (`server/runner/worker_main.ts`) started against it.
 */

/** A running redis-server. */
export interface TestRedis {
  readonly port: number;
  readonly url: string;
  /** SHUTDOWN (the append-only file is written), and waits until the process is gone. */
  shutdown(): Promise<void>;
  /** Starts it again on the same port and directory; resolves once it answers PING. */
  restart(): Promise<void>;
  /** Stops it for good and removes its directory. */
  dispose(): Promise<void>;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** One command over a fresh connection (inline protocol); the first reply line, or null. */
async function command(port: number, line: string): Promise<string | null> {
  let connection: Deno.TcpConn | undefined;
  try {
    connection = await Deno.connect({ hostname: "127.0.0.1", port });
    await connection.write(new TextEncoder().encode(`${line}\r\n`));
    const buffer = new Uint8Array(256);
    const n = await connection.read(buffer);
    return n === null ? null : new TextDecoder().decode(buffer.subarray(0, n)).trim();
  } catch {
    return null;
  } finally {
    try {
      connection?.close();
    } catch {
      // closed by the server (SHUTDOWN)
    }
  }
}

/** Starts a redis-server. */
export async function startRedis(): Promise<TestRedis> {
  const dir = await Deno.makeTempDir({ prefix: "runner_redis_" });
  const port = freePort();
  let child: Deno.ChildProcess | undefined;
  const start = async () => {
    child = new Deno.Command("redis-server", {
      args: [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        dir,
        "--save",
        "",
        "--appendonly",
        "yes",
      ],
      stdout: "null",
      stderr: "null",
    }).spawn();
    for (let i = 0; i < 200; i++) {
      if (await command(port, "PING") === "+PONG") return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error("redis-server did not answer PING");
  };
  await start();
  const shutdown = async () => {
    await command(port, "SHUTDOWN");
    await child?.status;
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    shutdown,
    restart: start,
    async dispose() {
      try {
        child?.kill("SIGKILL");
      } catch {
        // gone already
      }
      await child?.status;
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** A worker process of the queue. */
export interface TestWorker {
  readonly pid: number;
  /** `host:pid`, as `GET /run/{id}` names it. */
  readonly name: string;
  /** Everything it wrote, stdout and stderr. */
  readonly output: string[];
  kill(signal: Deno.Signal): void;
  readonly status: Promise<Deno.CommandStatus>;
}

/** Starts `deno run -A server/runner/worker_main.ts`; resolves after its start line. */
export async function startWorker(
  url: string,
  env: Record<string, string> = {},
): Promise<TestWorker> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "server/runner/worker_main.ts"],
    env: { RUNNER_QUEUE_URL: url, RUNNER_WORKERS: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output: string[] = [];
  const started = Promise.withResolvers<string>();
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) {
      output.push(text);
      const match = /runner-worker (\S+): taking jobs/.exec(output.join(""));
      if (match) started.resolve(match[1]!);
    }
  };
  void drain(child.stdout);
  void drain(child.stderr);
  const status = child.status;
  void status.then(() => started.reject(new Error(`the worker exited: ${output.join("")}`)));
  const name = await started.promise;
  return { pid: child.pid, name, output, kill: (signal) => child.kill(signal), status };
}
