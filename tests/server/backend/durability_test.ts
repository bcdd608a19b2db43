/**
 * An acknowledged write survives `kill -9`: a backend in a child process answers 201 / 200, is
 * killed with SIGKILL at once, and the state file reopened shows every write.
 */
import assert from "node:assert/strict";
import { call, closedUrl, serveBackend } from "./_backend.ts";

Deno.test("backend: acknowledged writes survive SIGKILL", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/backend.duckdb`;
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("./_durable_child.ts", import.meta.url).pathname, path],
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    const port = Number((await lines.read()).value!.trim());
    const base = `http://127.0.0.1:${port}`;
    const a = await call(base, "POST", "/api/models", { name: "first" });
    const b = await call(base, "POST", "/api/models", { name: "second", big: "y".repeat(500_000) });
    const put = await call(base, "PUT", `/api/models/${a.body.id}`, { name: "first, renamed" });
    const run = await call(base, "POST", "/api/completed-runs", {
      id: "job_1",
      modelName: "first",
    });
    assert.deepEqual([a.status, b.status, put.status, run.status], [201, 201, 200, 201]);
    child.kill("SIGKILL");
    await child.status;
    await lines.cancel().catch(() => {});

    const reopened = await serveBackend(closedUrl(), { storePath: path });
    try {
      const models = (await call(reopened.base, "GET", "/api/models")).body;
      assert.deepEqual(models.map((m: { name: string }) => m.name).sort(), [
        "first, renamed",
        "second",
      ]);
      const second = (await call(reopened.base, "GET", `/api/models/${b.body.id}`)).body;
      assert.equal(second.big.length, 500_000);
      assert.equal((await call(reopened.base, "GET", "/api/completed-runs/job_1")).status, 200);
    } finally {
      await reopened.dispose();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
