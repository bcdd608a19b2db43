import assert from "node:assert/strict";
import { solveNative } from "../../../lib/solver/native/solve_native.ts";
import { knapsack } from "../_small_mips.ts";
import { installed, testName } from "./_installed.ts";

/** True while a process `pid` exists (a zombie counts as gone: it runs nothing). */
function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return !/^\d+ \(.*\) Z /.test(stat);
  } catch {
    return false;
  }
}

for (const name of ["cbc", "glpk"] as const) {
  const found = installed(name);
  Deno.test({
    name: testName(name, `solveNative(${name}): abort kills the process group within 1 s`),
    ignore: found === undefined,
    async fn() {
      const controller = new AbortController();
      let pid = 0;
      const lines: string[] = [];
      let abortedAt = 0;
      const solving = solveNative(found!, knapsack(100), {}, {
        signal: controller.signal,
        onLog: (line) => {
          lines.push(line);
        },
      }, { onStart: (p) => (pid = p) });
      // Abort once the solver is working (its log has started), well before it could finish.
      while (lines.length < 5) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(pid > 0 && alive(pid), "the solver runs");
      abortedAt = performance.now();
      controller.abort();
      const outcome = await solving;
      const ms = performance.now() - abortedAt;
      assert.equal(outcome.termination, "interrupted");
      assert.ok(ms < 1000, `resolved ${ms} ms after the abort`);
      assert.equal(alive(pid), false, `pid ${pid} is gone`);
      // The group is gone too: signalling it fails.
      assert.throws(() => Deno.kill(-pid, "SIGCONT"));
    },
  });
}

Deno.test({
  name: testName("cbc", "solveNative(cbc) streams its log line by line, in order, while it runs"),
  ignore: installed("cbc") === undefined,
  async fn() {
    const lines: { line: string; at: number }[] = [];
    let done = 0;
    const outcome = await solveNative(installed("cbc")!, knapsack(100), { timeLimitS: 1.5 }, {
      onLog: (line) => lines.push({ line, at: performance.now() }),
    }).finally(() => (done = performance.now()));
    assert.equal(outcome.termination, "time_limit");
    const text = lines.map((l) => l.line);
    const welcome = text.findIndex((l) => l.startsWith("Welcome to the CBC"));
    const total = text.findIndex((l) => l.startsWith("Total time"));
    assert.ok(welcome >= 0 && total > welcome, "in cbc's own order");
    assert.ok(text.every((l) => !l.includes("\n")));
    // The first lines arrived while cbc was still searching, not all at its end.
    assert.ok(done - lines[welcome]!.at > 1000, `${done - lines[welcome]!.at} ms before the end`);
  },
});
