import assert from "node:assert/strict";
import { createRunnerModule } from "../../../server/runner/module.ts";
import { createTestRunner } from "./_runner.ts";
import { runRequest } from "./_runner.ts";

Deno.test("createRunnerModule() reads its settings, serves the runner and cancels jobs on close", async () => {
  const runner = createTestRunner("Double 1.0");
  const module = createRunnerModule(() => runner);
  assert.equal(module.name, "runner");
  assert.throws(() => module.configure({ RUNNER_WORKERS: "0" }), /^RangeError: RUNNER_WORKERS/);
  assert.throws(
    () => module.configure({ RUNNER_QUEUE_URL: "redis://localhost" }),
    /^TypeError: RUNNER_QUEUE_URL: "redis:\/\/localhost" is not a Redis URL/,
  );
  const configured = module.configure({ RUNNER_PORT: "0" });
  assert.equal(configured.port, 0);
  assert.equal(module.configure({}).port, 5000);
  const lines: string[] = [];
  const shutdown = new AbortController();
  const service = await configured.start({
    shutdown: shutdown.signal,
    dataStore: () => Promise.reject(new Error("the runner needs no data store")),
    osmStore: () => Promise.reject(new Error("not used")),
    log: (line) => lines.push(line),
  });
  // Besides, a line for solve directories that killed processes (other tests') left, if any.
  assert.deepEqual(lines.filter((l) => !/^removed \d+ solve director/.test(l)), [
    "solver Double 1.0, 1 worker(s)",
  ]);
  const health = await (await service.fetch(new Request("http://x/health"))).json();
  assert.equal(health.solver, "Double 1.0");
  const submitted = await service.fetch(
    new Request("http://x/run", runRequest({ steps: 1000, step_ms: 10 })),
  );
  const { job_id } = await submitted.json();
  shutdown.abort();
  await service.close();
  const status = await (await service.fetch(new Request(`http://x/run/${job_id}`))).json();
  assert.equal(status.status, "cancelled");
  assert.equal(runner.counts.aborted, 1);
});
