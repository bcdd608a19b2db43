import assert from "node:assert/strict";
import { signToken } from "../../lib/auth/jwt.ts";

const ROOT = new URL("../../", import.meta.url);

/**
 * The data store of this file's starts: the first start builds it (and says so), the later ones
 * find it up to date (a build takes about 3 s).
 */
const storeDir = await Deno.makeTempDir();
const sharedStorePath = `${storeDir}/store.duckdb`;
globalThis.addEventListener("unload", () => Deno.removeSync(storeDir, { recursive: true }));

/** The catalogue's state and secret file in `dir`, so a test start touches nothing else. */
function catalogueEnv(dir: string): Record<string, string> {
  return {
    CATALOGUE_PORT: "0",
    STATE_PATH: `${dir}/state.duckdb`,
    JWT_SECRET_FILE: `${dir}/jwt_secret`,
    JWT_SECRET_KEY: "",
    BACKEND_STATE_PATH: `${dir}/backend.duckdb`,
    EXTRACTION_STATE_PATH: `${dir}/extraction.duckdb`,
    OSM_STORE_PATH: `${dir}/osm.duckdb`,
    OSM_SEED: "",
  };
}

/** Every child server's listeners on loopback (heat) and free ports. */
const CHILD_LISTENERS = {
  HEAT_HOST: "127.0.0.1",
  HEAT_PORT: "0",
  RUNNER_PORT: "0",
  BACKEND_PORT: "0",
  EXTRACTION_PORT: "0",
  HYDROGEN_PORT: "0",
  CCS_PORT: "0",
};

/** How a child server is started: `deno <args>` and the services whose listening lines to await. */
interface Launch {
  args: string[];
  names: string[];
}

const MAIN: Launch = {
  args: ["run", "-A", "server/main.ts"],
  names: ["heat", "catalogue", "runner", "backend", "extraction", "hydrogen", "ccs"],
};

/**
 * Starts a server child process and waits for the listening line of every named service; gives
 * the ports by name (and as `port`, `cataloguePort` for the two services), the stderr so far,
 * `stop()` (SIGTERM, then the exit status) and the rest of stderr once stopped.
 */
async function start(env: Record<string, string>, launch: Launch = MAIN) {
  const child = new Deno.Command(Deno.execPath(), {
    args: launch.args,
    cwd: ROOT,
    env: { ...CHILD_LISTENERS, ...env },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let log = "";
  const deadline = Date.now() + 120_000;
  const ports: Record<string, number> = {};
  while (launch.names.some((n) => ports[n] === undefined) && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    log += value;
    for (const name of launch.names) {
      const match = new RegExp(`${name}: listening on http://127\\.0\\.0\\.1:(\\d+)`).exec(log);
      if (match) ports[name] = Number(match[1]);
    }
  }
  let rest = "";
  const stop = async () => {
    child.kill("SIGTERM");
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      rest += value;
    }
    return await child.status;
  };
  if (launch.names.some((n) => ports[n] === undefined)) {
    await stop();
    throw new Error(`${launch.args.join(" ")} did not start:\n${log}${rest}`);
  }
  return {
    ports,
    port: ports["heat"],
    cataloguePort: ports["catalogue"],
    log,
    stop,
    rest: () => rest,
  };
}

/** Runs server/main.ts expecting it to refuse to start; gives its exit code and stderr. */
async function refused(env: Record<string, string>) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "server/main.ts"],
    cwd: ROOT,
    env: { ...CHILD_LISTENERS, ...env },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code: output.code, log: new TextDecoder().decode(output.stderr) };
}

Deno.test("server/main.ts builds the store and serves the gateway only", async (t) => {
  const dir = await Deno.makeTempDir();
  const storePath = sharedStorePath;
  try {
    await t.step("without HEAT_API_KEY it generates a key and prints it once", async () => {
      const server = await start({
        STORE_PATH: storePath,
        HEAT_API_KEY: "",
        ...catalogueEnv(dir),
      });
      try {
        const key = /accepts the generated key ([A-Za-z0-9_-]{43})/.exec(server.log)?.[1];
        assert.ok(key, server.log);
        assert.match(server.log, /store: built /);
        const base = `http://127.0.0.1:${server.port}`;
        const refused = await fetch(`${base}/heat/health`);
        assert.equal(refused.status, 403);
        assert.match(refused.headers.get("content-type") ?? "", /^text\/plain/);
        await refused.body?.cancel();
        const health = await fetch(`${base}/heat/health`, { headers: { "X-Api-Key": key } });
        assert.deepEqual(await health.json(), { status: "ok" });
      } finally {
        await server.stop();
      }
    });
    await t.step("with HEAT_API_KEY it uses that key and the built store", async () => {
      const server = await start({
        STORE_PATH: storePath,
        HEAT_API_KEY: "configured-key",
        HEAT_ALLOWED_ORIGINS: "http://localhost:5173",
        ...catalogueEnv(dir),
      });
      try {
        assert.doesNotMatch(server.log, /generated key|store: built/);
        const res = await fetch(`http://127.0.0.1:${server.port}/api/v1/variants/DE`, {
          headers: { "X-Api-Key": "configured-key", Origin: "http://localhost:5173" },
        });
        assert.equal(res.headers.get("access-control-allow-origin"), "http://localhost:5173");
        assert.equal((await res.json()).country, "germany");
      } finally {
        await server.stop();
      }
    });
    await t.step(
      "the catalogue creates a JWT secret once and keeps it across restarts",
      async () => {
        const own = `${dir}/own`;
        const env = { STORE_PATH: storePath, HEAT_API_KEY: "k", ...catalogueEnv(own) };
        const first = await start(env);
        let token: string;
        try {
          assert.match(first.log, /JWT_SECRET_KEY is not set; using the secret created in /);
          const secret = (await Deno.readTextFile(`${own}/jwt_secret`)).trim();
          assert.equal((await Deno.stat(`${own}/jwt_secret`)).mode! & 0o777, 0o600);
          token = await signToken(
            { sub: "0000-0002-1825-0097", name: "R", is_admin: false },
            secret,
          );
          const base = `http://127.0.0.1:${first.cataloguePort}`;
          const health = await fetch(`${base}/health`);
          assert.equal((await health.json()).status, "ok");
          const me = await fetch(`${base}/api/v1/auth/me`, {
            headers: { Authorization: `Bearer ${token}` },
          });
          assert.equal(me.status, 200);
          await me.body?.cancel();
          const submit = await fetch(`${base}/api/v1/timeseries/submit`, {
            method: "POST",
            headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
            body: JSON.stringify({ profile_id: "kept_over_restart", name: "n", values: [1, 2] }),
          });
          assert.equal(submit.status, 202);
          await submit.body?.cancel();
        } finally {
          assert.equal((await first.stop()).code, 0, "SIGTERM closes the state store and exits 0");
        }
        const second = await start(env);
        try {
          assert.match(second.log, /using the secret kept in /);
          const base = `http://127.0.0.1:${second.cataloguePort}`;
          const me = await fetch(`${base}/api/v1/auth/me`, {
            headers: { Authorization: `Bearer ${token}` },
          });
          assert.equal(me.status, 200, "a token of the first run is still accepted");
          await me.body?.cancel();
          const again = await fetch(`${base}/api/v1/timeseries/submit`, {
            method: "POST",
            headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
            body: JSON.stringify({ profile_id: "kept_over_restart", name: "n", values: [1, 2] }),
          });
          assert.equal(again.status, 409, "the submission of the first run is still there");
          await again.body?.cancel();
        } finally {
          await second.stop();
        }
      },
    );
    await t.step("JWT_SECRET_KEY in the environment wins over the file", async () => {
      const key = "an-environment-secret-of-at-least-32-bytes";
      const server = await start({
        STORE_PATH: storePath,
        HEAT_API_KEY: "k",
        ...catalogueEnv(dir),
        JWT_SECRET_KEY: key,
      });
      try {
        assert.doesNotMatch(server.log, /JWT_SECRET_KEY is not set/);
        const token = await signToken({ sub: "s", name: "n", is_admin: false }, key);
        const me = await fetch(`http://127.0.0.1:${server.cataloguePort}/api/v1/auth/me`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        assert.equal(me.status, 200);
        await me.body?.cancel();
      } finally {
        await server.stop();
      }
    });
    await t.step(
      "without JWT_SECRET_KEY and with JWT_SECRET_FILE empty it refuses to start",
      async () => {
        const result = await refused({
          STORE_PATH: storePath,
          ...catalogueEnv(dir),
          JWT_SECRET_FILE: "",
        });
        assert.equal(result.code, 1);
        assert.match(result.log, /server not started: JWT_SECRET_KEY is not set/);
      },
    );
    await t.step("a short JWT_SECRET_KEY or a bad setting stops the start", async () => {
      const short = await refused({
        STORE_PATH: storePath,
        ...catalogueEnv(dir),
        JWT_SECRET_KEY: "x",
      });
      assert.equal(short.code, 1);
      assert.match(short.log, /at least 32 are needed/);
      const port = await refused({
        STORE_PATH: storePath,
        ...catalogueEnv(dir),
        CATALOGUE_PORT: "x",
      });
      assert.equal(port.code, 1);
      assert.match(port.log, /CATALOGUE_PORT: must be an integer port/);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("server/main.ts on SIGTERM ends open streams, closes every module and exits 0", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const server = await start(
      { STORE_PATH: sharedStorePath, HEAT_API_KEY: "k", ...catalogueEnv(dir) },
      {
        args: ["run", "-A", "tests/server/_main_with_stream.ts"],
        names: [
          "heat",
          "catalogue",
          "runner",
          "backend",
          "extraction",
          "hydrogen",
          "ccs",
          "stream",
        ],
      },
    );
    let status: Deno.CommandStatus | undefined;
    try {
      const res = await fetch(`http://127.0.0.1:${server.ports["stream"]}/events`);
      const events: string[] = [];
      for await (const chunk of res.body!.pipeThrough(new TextDecoderStream())) {
        for (const match of chunk.matchAll(/^event: (\S+)$/gm)) events.push(match[1] ?? "");
        if (events.length === 1) status = await server.stop();
      }
      assert.equal(events[0], "tick");
      assert.equal(events.at(-1), "shutdown", "the stream ends with a shutdown event");
    } finally {
      status ??= await server.stop();
    }
    assert.equal(status.code, 0, server.log + server.rest());
    assert.match(server.rest(), /SIGTERM: stopping/);
    assert.match(server.rest(), /stream: closed/);
    assert.match(server.rest(), /stopped/);
    await assert.rejects(Deno.stat(`${dir}/state.duckdb.wal`), Deno.errors.NotFound);
    await assert.rejects(fetch(`http://127.0.0.1:${server.cataloguePort}/health`), TypeError);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task start --only catalogue starts the catalogue alone", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const server = await start(
      { STORE_PATH: `${dir}/store.duckdb`, ...catalogueEnv(dir) },
      { args: ["task", "start", "--only", "catalogue"], names: ["catalogue"] },
    );
    try {
      const res = await fetch(`http://127.0.0.1:${server.cataloguePort}/health`);
      assert.equal((await res.json()).status, "ok");
      assert.doesNotMatch(server.log, /heat: /);
    } finally {
      assert.equal((await server.stop()).code, 0);
    }
    await assert.rejects(Deno.stat(`${dir}/store.duckdb`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
