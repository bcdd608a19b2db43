import assert from "node:assert/strict";
import { JobProgress } from "../../lib/backend/job_progress.ts";

Deno.test("job progress: build 0-10, solve 10-95 moving with lines and time, 100 at done", () => {
  const p = new JobProgress();
  assert.equal(p.value(0), 0);
  p.onProgress("build", 50, 0);
  assert.equal(p.value(0), 5);
  p.onProgress("build", 100, 0);
  assert.equal(p.value(0), 10);
  p.onProgress("solve", 0, 1000);
  assert.equal(p.value(1000), 10);
  for (let i = 0; i < 60; i++) p.onLog();
  const mid = p.value(1000);
  assert.equal(mid, 52); // 10 + 85 * 60 / 120
  assert.ok(p.value(61_000) > mid, "time moves it too");
  assert.ok(p.value(1e12) <= 95);
  p.onProgress("solve", 100, 2000);
  assert.equal(p.value(2000), 95);
  p.onDone();
  assert.equal(p.value(0), 100);
});

Deno.test("job progress: never goes down", () => {
  const p = new JobProgress();
  p.onProgress("build", 100, 0);
  const before = p.value(0);
  p.onProgress("build", 10, 0);
  assert.equal(p.value(0), before);
});
