import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);

/** Starts server/main.ts and waits for its listening line; gives the port and all of stderr so far. */
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
  while (port === undefined && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    log += value;
    const match = /heat: listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(log);
    if (match) port = Number(match[1]);
  }
  const stop = async () => {
    child.kill("SIGTERM");
    await reader.cancel();
    await child.status;
  };
  if (port === undefined) {
    await stop();
    throw new Error(`server/main.ts did not start:\n${log}`);
  }
  return { port, log, stop };
}

Deno.test("server/main.ts builds the store and serves the gateway only", async (t) => {
  const dir = await Deno.makeTempDir();
  const storePath = `${dir}/store.duckdb`;
  try {
    await t.step("without HEAT_API_KEY it generates a key and prints it once", async () => {
      const server = await start({ STORE_PATH: storePath, HEAT_API_KEY: "" });
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
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
