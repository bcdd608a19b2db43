import assert from "node:assert/strict";
import { signToken } from "../../lib/auth/jwt.ts";

const ROOT = new URL("../../", import.meta.url);

/** The catalogue's state and secret file in `dir`, so a test start touches nothing else. */
function catalogueEnv(dir: string): Record<string, string> {
  return {
    CATALOGUE_PORT: "0",
    STATE_PATH: `${dir}/state.duckdb`,
    JWT_SECRET_FILE: `${dir}/jwt_secret`,
    JWT_SECRET_KEY: "",
  };
}

/**
 * Starts server/main.ts and waits for both listening lines; gives the heat port, the catalogue
 * port and all of stderr so far.
 */
async function start(env: Record<string, string>) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "server/main.ts"],
    cwd: ROOT,
    env: { HEAT_HOST: "127.0.0.1", HEAT_PORT: "0", ...env },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let log = "";
  const deadline = Date.now() + 120_000;
  let port: number | undefined;
  let cataloguePort: number | undefined;
  while ((port === undefined || cataloguePort === undefined) && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    log += value;
    const match = /heat: listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log);
    if (match) port = Number(match[1]);
    const catalogue = /catalogue: listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log);
    if (catalogue) cataloguePort = Number(catalogue[1]);
  }
  const stop = async () => {
    child.kill("SIGTERM");
    await reader.cancel();
    return await child.status;
  };
  if (port === undefined || cataloguePort === undefined) {
    await stop();
    throw new Error(`server/main.ts did not start:\n${log}`);
  }
  return { port, cataloguePort, log, stop };
}

/** Runs server/main.ts expecting it to refuse to start; gives its exit code and stderr. */
async function refused(env: Record<string, string>) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "server/main.ts"],
    cwd: ROOT,
    env: { HEAT_HOST: "127.0.0.1", HEAT_PORT: "0", ...env },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code: output.code, log: new TextDecoder().decode(output.stderr) };
}

Deno.test("server/main.ts builds the store and serves the gateway only", async (t) => {
  const dir = await Deno.makeTempDir();
  const storePath = `${dir}/store.duckdb`;
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
