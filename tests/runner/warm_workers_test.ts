/**
 * The pool of job Workers kept between runs (warm_workers.ts), on a small echo Worker whose count
 * of answers shows whether it was kept; and through runBodyInWorker, whose second run of a small
 * model is answered by the first run's Worker, while a cancelled run's Worker is ended.
 */
import assert from "node:assert/strict";
import { WarmWorkers } from "../../lib/runner/warm_workers.ts";
import { runBodyInWorker, warmRunWorkers } from "../../lib/runner/run_body_in_worker.ts";
import type { RunHooks } from "../../lib/runner/model_runner.ts";
import { nationalScaleCopies } from "./_national_copies.ts";

const ECHO = new URL("./fixtures/echo_worker.ts", import.meta.url);
const MiB = 1024 * 1024;

function ask(worker: Worker, message: unknown): Promise<{ echo: unknown; answered: number }> {
  return new Promise((resolve) => {
    worker.onmessage = (event) => resolve(event.data);
    worker.postMessage(message);
  });
}

Deno.test("WarmWorkers: a Worker given back is taken again, until maxIdle are waiting", async () => {
  const pool = new WarmWorkers(ECHO, { maxIdle: 1, idleMs: 60_000, maxHeapBytes: 10 * MiB });
  try {
    const a = pool.take();
    assert.equal((await ask(a, "x")).answered, 1);
    const b = pool.take();
    assert.notEqual(a, b, "none waiting: a new one");
    pool.give(a, MiB);
    pool.give(b, MiB);
    assert.equal(pool.idle, 1, "the second is ended: one may wait");
    const again = pool.take();
    assert.equal(again, a);
    assert.equal((await ask(again, "y")).answered, 2, "the same Worker, its state kept");
    assert.equal(pool.idle, 0);
    pool.give(again, MiB);
  } finally {
    pool.close();
  }
  assert.equal(pool.idle, 0);
});

Deno.test("WarmWorkers: a Worker over the heap limit, or not reporting one, is ended", () => {
  const pool = new WarmWorkers(ECHO, { maxIdle: 4, idleMs: 60_000, maxHeapBytes: 10 * MiB });
  try {
    pool.give(pool.take(), 11 * MiB);
    pool.give(pool.take(), Infinity);
    pool.give(pool.take(), Number.NaN);
    assert.equal(pool.idle, 0);
    pool.give(pool.take(), 10 * MiB);
    assert.equal(pool.idle, 1);
  } finally {
    pool.close();
  }
});

Deno.test("WarmWorkers: a waiting Worker is ended after idleMs, and one that fails while waiting at once", async () => {
  const pool = new WarmWorkers(ECHO, { maxIdle: 4, idleMs: 100, maxHeapBytes: 10 * MiB });
  try {
    pool.give(pool.take(), 0);
    assert.equal(pool.idle, 1);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(pool.idle, 0);

    const slow = new WarmWorkers(ECHO, { maxIdle: 4, idleMs: 60_000, maxHeapBytes: 10 * MiB });
    const worker = slow.take();
    await ask(worker, "ready");
    slow.give(worker, 0);
    // What a Worker that failed raises on its host (an uncaught error in it would print a stack).
    worker.dispatchEvent(new ErrorEvent("error", { message: "failed", cancelable: true }));
    for (let i = 0; i < 100 && slow.idle > 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(slow.idle, 0, "the failed Worker left the pool");
    slow.close();
  } finally {
    pool.close();
  }
});

function hooks(signal = new AbortController().signal): RunHooks & { lines: string[] } {
  const lines: string[] = [];
  return { lines, log: (line) => lines.push(line), progress: () => {}, signal };
}

Deno.test("runBodyInWorker(): a clean run's Worker answers the next run; a cancelled run's is ended", async () => {
  warmRunWorkers.close();
  const body = () => new TextEncoder().encode(JSON.stringify(oneDay));
  const oneDay = await nationalScaleCopies({ groups: 1, days: 1 });
  try {
    const first = await runBodyInWorker(body(), hooks());
    assert.ok(first.ok);
    assert.equal(first.result.termination, "optimal");
    assert.equal(warmRunWorkers.idle, 1, "kept after its run");
    const second = await runBodyInWorker(body(), hooks());
    assert.ok(second.ok);
    assert.equal(second.result.objective, first.result.objective);
    assert.equal(warmRunWorkers.idle, 1, "the same one taken and given back");

    const invalid = await runBodyInWorker(new TextEncoder().encode('{"name": 1}'), hooks());
    assert.equal(invalid.ok, false);
    assert.equal(warmRunWorkers.idle, 1, "a refused model leaves its Worker usable");

    const controller = new AbortController();
    const watched = hooks(controller.signal);
    const cancelled = runBodyInWorker(
      new TextEncoder().encode(JSON.stringify(await nationalScaleCopies({ groups: 3, days: 30 }))),
      { ...watched, log: (line) => line.startsWith("[runner] built the LP") && controller.abort() },
    );
    assert.equal(warmRunWorkers.idle, 0, "the waiting Worker took the run");
    const outcome = await cancelled;
    assert.ok(outcome.ok);
    assert.equal(outcome.result.termination, "interrupted");
    assert.equal(warmRunWorkers.idle, 0, "ended, not kept");

    const after = await runBodyInWorker(body(), hooks());
    assert.ok(after.ok);
    assert.equal(after.result.objective, first.result.objective, "a new Worker after the cancel");
  } finally {
    warmRunWorkers.close();
  }
});
