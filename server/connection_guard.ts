/**
 * A listener that no slow client can hold: Deno.serve has no read or idle timeouts (a partial
 * header block, a body stalled at one byte or an idle keep-alive connection stay open for ever),
 * so every public socket is accepted here and relayed to the service's Deno.serve on a loopback
 * port, with three deadlines on the client's side of the connection:
 *
 * - header: the whole header block of a request must arrive within `headerMs` of its first byte
 *   (408 and close, like a server that times out reading a request);
 * - body: a request body may not stall for more than `bodyIdleMs` between bytes (close);
 * - idle: a connection with no request under way and no bytes either way for `idleMs` is closed.
 *
 * A header block over `maxHeaderBytes` gets 431. The handler sees the client's own address as
 * `info.remoteAddr`. Bytes are relayed unchanged; `RequestReader` and `ResponseReader` only
 * follow the framing both ways. A connection leaves the header and body deadlines (keeping the
 * idle one) only once the service has switched protocols (its 101 to an `Upgrade`, e.g. a
 * WebSocket): a request that merely carries `Upgrade:` changes nothing (issue 18).
 */
import { RequestFramingError, type RequestPhase, RequestReader } from "./request_reader.ts";
import { ResponseReader } from "./response_reader.ts";

/** The deadlines of every listener (set in one place: `readConfig`, server/config.ts). */
export interface ConnectionLimits {
  headerMs: number;
  bodyIdleMs: number;
  idleMs: number;
  maxHeaderBytes: number;
}

/** Defaults: generous for people and programs, short for a connection that does nothing. */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headerMs: 10_000,
  bodyIdleMs: 30_000,
  idleMs: 120_000,
  maxHeaderBytes: 64 * 1024,
};

/** Where and how a guarded server listens. */
export interface GuardedServeOptions {
  hostname: string;
  port: number;
  limits: ConnectionLimits;
  onListen?: (address: Deno.NetAddr) => void;
  /** How often deadlines are checked, ms (default 250). */
  sweepMs?: number;
}

/** A running guarded server. */
export interface GuardedServer {
  readonly addr: Deno.NetAddr;
  /** Open client connections. */
  readonly connections: number;
  /**
   * Stops accepting, lets open requests finish (the inner server's graceful shutdown), then
   * closes every client connection.
   */
  shutdown(): Promise<void>;
}

type Handler = (request: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) =>
  | Response
  | Promise<Response>;

const encoder = new TextEncoder();

/** A complete HTTP/1.1 answer that closes the connection, for errors found before the service. */
function closingAnswer(status: number, reason: string, message: string): Uint8Array {
  const body = JSON.stringify({ error: message });
  return encoder.encode(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${encoder.encode(body).length}\r\nConnection: close\r\n\r\n${body}`,
  );
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await conn.write(bytes.subarray(offset));
}

/** One client connection and its relay to the inner server. */
class Relay {
  readonly reader: RequestReader;
  readonly responses: ResponseReader;
  lastActivity = Date.now();
  headerStarted = 0;
  /** Whether the service has sent bytes since the current request began. */
  answered = false;
  closed = false;
  expiring = false;

  constructor(
    readonly client: Deno.Conn,
    readonly upstream: Deno.Conn,
    readonly limits: ConnectionLimits,
  ) {
    this.reader = new RequestReader(limits.maxHeaderBytes);
    this.responses = new ResponseReader(() => this.reader.nextUnanswered());
  }

  /** The deadline in force, and what happens when it passes. */
  deadline(): { at: number; phase: RequestPhase } {
    const phase = this.reader.phase;
    switch (phase) {
      case "headers":
        return { at: this.headerStarted + this.limits.headerMs, phase };
      case "body":
        return { at: this.lastActivity + this.limits.bodyIdleMs, phase };
      default:
        return { at: this.lastActivity + this.limits.idleMs, phase };
    }
  }

  async expire(phase: RequestPhase): Promise<void> {
    // Once: the next sweep may come while the 408 is still being written.
    if (this.expiring || this.closed) return;
    this.expiring = true;
    if (phase === "headers" && !this.answered) {
      await this.answer(408, "Request Timeout", "Request header not received in time");
    }
    this.close();
  }

  async answer(status: number, reason: string, message: string): Promise<void> {
    try {
      await writeAll(this.client, closingAnswer(status, reason, message));
    } catch {
      // the client is gone already
    }
  }

  /** Client to service: every chunk is followed for the deadlines, then passed on. */
  async inbound(): Promise<void> {
    const buffer = new Uint8Array(64 * 1024);
    try {
      for (;;) {
        const n = await this.client.read(buffer);
        if (n === null) break;
        const chunk = buffer.subarray(0, n);
        this.lastActivity = Date.now();
        const before = this.reader.phase;
        try {
          this.reader.feed(chunk);
        } catch (error) {
          if (!(error instanceof RequestFramingError)) throw error;
          const reason = error.status === 431 ? "Request Header Fields Too Large" : "Bad Request";
          await this.answer(error.status, reason, error.message);
          break;
        }
        if (before === "idle" && this.reader.phase !== "idle") {
          this.headerStarted = this.lastActivity;
          this.answered = false;
        }
        // HTTP/2: no more HTTP/1.1 answers to follow either.
        if (this.reader.phase === "opaque") this.responses.stop();
        await writeAll(this.upstream, chunk);
      }
      // The client has finished sending; answers may still be on their way.
      await this.upstream.closeWrite().catch(() => undefined);
    } catch {
      this.close();
    }
  }

  /** Service to client. */
  async outbound(): Promise<void> {
    const buffer = new Uint8Array(64 * 1024);
    try {
      for (;;) {
        const n = await this.upstream.read(buffer);
        if (n === null) break;
        this.lastActivity = Date.now();
        this.answered = true;
        const chunk = buffer.subarray(0, n);
        // Before the client sees a 101, and so before it can send anything in the new protocol.
        this.responses.feed(chunk);
        if (this.responses.switched) this.reader.upgrade();
        await writeAll(this.client, chunk);
      }
    } catch {
      // either side closed; close both below
    }
    this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const conn of [this.client, this.upstream]) {
      try {
        conn.close();
      } catch {
        // already closed
      }
    }
  }
}

/** Serves `handler` behind the connection guard; it listens when this returns. */
export function serveGuarded(
  { hostname, port, limits, onListen, sweepMs = 250 }: GuardedServeOptions,
  handler: Handler,
): GuardedServer {
  const clients = new Map<number, Deno.NetAddr>();
  // The public socket first: a port in use fails here, before anything else is started.
  const listener = Deno.listen({ hostname, port, transport: "tcp" });
  // Deno.serve binds before it returns; the relays connect to it on loopback.
  const inner: Deno.HttpServer<Deno.NetAddr> = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request, info) =>
      handler(request, {
        ...info,
        remoteAddr: clients.get(info.remoteAddr.port) ?? info.remoteAddr,
      }),
  );
  const relays = new Set<Relay>();
  const relaying = new Set<Promise<void>>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const relay of relays) {
      const { at, phase } = relay.deadline();
      if (now >= at) void relay.expire(phase);
    }
  }, sweepMs);

  const serveConnection = async (client: Deno.Conn) => {
    let upstream: Deno.Conn;
    try {
      upstream = await Deno.connect({ hostname: "127.0.0.1", port: inner.addr.port });
    } catch {
      client.close();
      return;
    }
    const upstreamPort = (upstream.localAddr as Deno.NetAddr).port;
    clients.set(upstreamPort, client.remoteAddr as Deno.NetAddr);
    const relay = new Relay(client, upstream, limits);
    relays.add(relay);
    try {
      await Promise.all([relay.inbound(), relay.outbound()]);
    } finally {
      relay.close();
      relays.delete(relay);
      clients.delete(upstreamPort);
    }
  };
  const accepting = (async () => {
    try {
      for await (const client of listener) {
        const done = serveConnection(client);
        relaying.add(done);
        void done.finally(() => relaying.delete(done));
      }
    } catch {
      // the listener was closed
    }
  })();

  onListen?.(listener.addr as Deno.NetAddr);
  let stopping: Promise<void> | undefined;
  return {
    addr: listener.addr as Deno.NetAddr,
    get connections() {
      return relays.size;
    },
    shutdown() {
      stopping ??= (async () => {
        listener.close();
        await accepting;
        // Open requests finish; the inner server then closes its connections, which ends
        // every relay once its last answer has been passed on (bounded: a client that does
        // not read its answer is not waited for).
        await inner.shutdown();
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          Promise.all(relaying),
          new Promise((resolve) => timer = setTimeout(resolve, limits.bodyIdleMs)),
        ]);
        clearTimeout(timer);
        for (const relay of relays) relay.close();
        await Promise.all(relaying);
        clearInterval(sweep);
      })();
      return stopping;
    },
  };
}
