/**
 * Ten models run at once on the real runner (two workers): all complete, none is lost, and a
 * cancelled one leaves the others running to completion.
 */
import assert from "node:assert/strict";
import { call, frontendModel, serveBackend, serveRunner, waitFinished } from "./_backend.ts";

Deno.test("backend: ten models at once all complete; one cancelled leaves the others", async () => {
  const runner = await serveRunner(2);
  const b = await serveBackend(runner.url);
  try {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const model = { ...frontendModel(), name: `model ${i}` };
      ids.push((await call(b.base, "POST", "/api/models", model)).body.id);
    }
    const jobs = await Promise.all(
      ids.map(async (id) => (await call(b.base, "POST", `/api/models/${id}/run`)).body.id),
    );
    const cancelled = await call(b.base, "DELETE", `/api/jobs/${jobs[9]}`);
    const views = await Promise.all(jobs.map((id) => waitFinished(b.base, id, 60_000)));
    const statuses = views.map((v) => v.status);
    if (cancelled.status === 200) {
      assert.equal(statuses[9], "cancelled");
      assert.deepEqual(statuses.slice(0, 9), Array(9).fill("completed"));
    } else {
      // It had finished before the cancel arrived: 409, and every job completed.
      assert.equal(cancelled.status, 409);
      assert.deepEqual(statuses, Array(10).fill("completed"));
    }
    const history = (await call(b.base, "GET", "/api/completed-runs")).body;
    assert.equal(history.length, statuses.filter((s) => s === "completed").length);
    for (const [i, id] of jobs.entries()) {
      if (statuses[i] !== "completed") continue;
      assert.equal((await call(b.base, "GET", `/api/jobs/${id}/results`)).status, 200);
    }
  } finally {
    await b.dispose();
    await runner.dispose();
  }
});
