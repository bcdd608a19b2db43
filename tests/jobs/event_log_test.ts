import assert from "node:assert/strict";
import { EventLog } from "../../lib/jobs/event_log.ts";

type E = { type: "step"; n: number } | { type: "end" };
const isFinal = (e: E) => e.type === "end";
const step = (n: number): E => ({ type: "step", n });

Deno.test("EventLog replays from a cursor, then passes live events on", () => {
  const log = new EventLog<E>({ isFinal });
  log.append(step(0));
  log.append(step(1));
  const cursor = log.cursor;
  log.append(step(2));
  const got: E[] = [];
  log.subscribe((e) => got.push(e), cursor);
  log.append({ type: "end" });
  assert.deepEqual(got, [step(2), { type: "end" }]);
  assert.equal(log.cursor, 4);
  assert.equal(log.listenerCount, 0, "the end lets listeners go");
});

Deno.test("EventLog keep latest: a late subscriber gets the newest event and the final one", () => {
  const log = new EventLog<E>({ isFinal, keep: "latest" });
  for (let n = 0; n < 5; n++) log.append(step(n));
  const early: E[] = [];
  log.subscribe((e) => early.push(e));
  assert.deepEqual(early, [step(4)]);
  log.append({ type: "end" });
  const late: E[] = [];
  log.subscribe((e) => late.push(e));
  assert.deepEqual(late, [step(4), { type: "end" }]);
  log.compact({ type: "end" });
  const compacted: E[] = [];
  log.subscribe((e) => compacted.push(e));
  assert.deepEqual(compacted, [{ type: "end" }], "compact keeps the final event only");
});

Deno.test("EventLog keep all: beyond the limit one marker, the final event always kept", () => {
  const log = new EventLog<E>({ isFinal, historyLimit: 2, truncated: (n) => step(-n) });
  for (let n = 0; n < 5; n++) log.append(step(n));
  log.append({ type: "end" });
  log.append(step(99)); // after the end: ignored
  assert.deepEqual(log.events, [step(0), step(1), step(-2), { type: "end" }]);
  assert.equal(log.ended, true);
});
