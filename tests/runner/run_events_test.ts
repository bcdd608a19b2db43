import assert from "node:assert/strict";
import { JobEventLog, type RunEvent } from "../../lib/runner/run_events.ts";

const log = (line: string): RunEvent => ({ type: "log", line });

Deno.test("JobEventLog gives a late listener the history first, then live events", () => {
  const events = new JobEventLog();
  events.append(log("a"));
  events.append(log("b"));
  const early: RunEvent[] = [];
  events.subscribe((e) => early.push(e));
  events.append(log("c"));
  const late: RunEvent[] = [];
  events.subscribe((e) => late.push(e));
  events.append({ type: "error", error: "cancelled" });
  const all = [log("a"), log("b"), log("c"), { type: "error", error: "cancelled" }];
  assert.deepEqual(early, all);
  assert.deepEqual(late, all);
  assert.equal(events.ended, true);
  assert.equal(events.listenerCount, 0);
});

Deno.test("JobEventLog ignores events after done or error; a listener after the end gets all", () => {
  const events = new JobEventLog();
  events.append({ type: "done", result: {}, objective: 1, termination: "optimal", success: true });
  events.append(log("late"));
  const got: RunEvent[] = [];
  const stop = events.subscribe((e) => got.push(e));
  stop();
  assert.deepEqual(got.map((e) => e.type), ["done"]);
});

Deno.test("JobEventLog unsubscribes a listener", () => {
  const events = new JobEventLog();
  const got: RunEvent[] = [];
  const stop = events.subscribe((e) => got.push(e));
  events.append(log("a"));
  stop();
  events.append(log("b"));
  assert.deepEqual(got, [log("a")]);
});

Deno.test("JobEventLog keeps at most historyLimit events, says so, and keeps the final one", () => {
  const events = new JobEventLog(3);
  const live: RunEvent[] = [];
  events.subscribe((e) => live.push(e));
  for (const line of ["1", "2", "3", "4", "5"]) events.append(log(line));
  events.append({ type: "error", error: "boom" });
  assert.equal(live.length, 6, "live listeners get every event");
  assert.deepEqual(events.events.map((e) => e.type === "log" ? e.line : e.type), [
    "1",
    "2",
    "3",
    "[runner] more than 3 events; later ones were sent live only",
    "error",
  ]);
});
