import assert from "node:assert/strict";
import { canMove, isFinalState, JOB_STATES, JOB_TRANSITIONS } from "../../lib/jobs/job_states.ts";

Deno.test("job states: the table allows exactly the lifecycle moves", () => {
  const allowed = JOB_STATES.flatMap((from) => JOB_TRANSITIONS[from].map((to) => `${from}>${to}`));
  assert.deepEqual(allowed.sort(), [
    "queued>cancelled",
    "queued>failed",
    "queued>running",
    "running>cancelled",
    "running>failed",
    "running>succeeded",
  ]);
  assert.equal(canMove("succeeded", "failed"), false, "a final state moves nowhere");
  assert.equal(canMove("queued", "succeeded"), false, "a job succeeds only by running");
  assert.deepEqual(JOB_STATES.filter(isFinalState), ["succeeded", "failed", "cancelled"]);
});
