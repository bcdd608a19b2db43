import assert from "node:assert/strict";
import { runSolverProcess } from "../../../lib/solver/native/run_solver_process.ts";

function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return false;
  }
}

Deno.test("runSolverProcess() relays lines in order, stdout and stderr, partial last line", async () => {
  const lines: string[] = [];
  const end = await runSolverProcess("sh", {
    args: ["-c", "echo one; echo two; echo err >&2; sleep 0.1; printf 'no newline'"],
    onLine: (l) => lines.push(l),
  });
  assert.equal(end.code, 0);
  assert.equal(end.interrupted, false);
  assert.deepEqual(lines.filter((l) => l !== "err"), ["one", "two", "no newline"]);
  assert.ok(lines.includes("err"));
});

Deno.test("runSolverProcess() abort kills the whole group, a SIGTERM-ignoring child too", async () => {
  const controller = new AbortController();
  let pid = 0;
  const lines: string[] = [];
  // The shell ignores SIGTERM and starts a grandchild that prints its pid and sleeps.
  const running = runSolverProcess("sh", {
    args: ["-c", "trap '' TERM; sleep 30 & echo $!; wait"],
    onLine: (l) => lines.push(l),
    onStart: (p) => (pid = p),
    signal: controller.signal,
    graceMs: 200,
  });
  while (lines.length === 0) await new Promise((r) => setTimeout(r, 10));
  const grandchild = Number(lines[0]);
  assert.ok(alive(pid) && alive(grandchild));
  const started = performance.now();
  controller.abort();
  const end = await running;
  assert.ok(performance.now() - started < 1000);
  assert.equal(end.interrupted, true);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(alive(pid), false);
  assert.equal(alive(grandchild), false, "the grandchild went with the group");
});

Deno.test("runSolverProcess() with an already aborted signal stops at once", async () => {
  const end = await runSolverProcess("sleep", { args: ["30"], signal: AbortSignal.abort() });
  assert.equal(end.interrupted, true);
});

Deno.test({
  name: "runSolverProcess(): a parent killed with kill -9 takes its solver with it (Linux)",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const module = new URL("../../../lib/solver/native/run_solver_process.ts", import.meta.url);
    const parent = new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `import { runSolverProcess } from ${JSON.stringify(module.href)};
         await runSolverProcess("sleep", { args: ["30"], onStart: (pid) => console.log(pid) });`,
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const reader = parent.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      assert.ok(!done, "the parent printed no pid");
      text += value;
    }
    const solver = Number(text.trim());
    assert.ok(alive(solver));
    parent.kill("SIGKILL");
    await parent.status;
    await reader.cancel();
    const killed = performance.now();
    while (alive(solver) && performance.now() - killed < 1000) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(alive(solver), false, "the solver outlived its parent");
  },
});
