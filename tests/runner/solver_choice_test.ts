import assert from "node:assert/strict";
import { chooseSolver } from "../../lib/runner/solver_choice.ts";
import type { FoundSolver } from "../../lib/solver/native/native_solvers.ts";
import type { CommandLineSolver } from "../../lib/solver/solver_names.ts";

/** A machine with exactly these command-line solvers. */
function machine(...names: CommandLineSolver[]) {
  const asked: string[] = [];
  const find = (name: CommandLineSolver): Promise<FoundSolver | undefined> => {
    asked.push(name);
    return Promise.resolve(
      names.includes(name)
        ? { name, path: `/usr/bin/${name}`, version: "1.0", description: `${name} 1.0 (native)` }
        : undefined,
    );
  };
  return { find, asked };
}

Deno.test("chooseSolver() runs the named solver when the machine has it, else highs", async (t) => {
  await t.step("no name, or highs in any spelling: the built-in, nothing looked for", async () => {
    const m = machine("cbc");
    for (const name of [undefined, "highs", "HiGHS", "appsi_highs", " highs_direct "]) {
      const choice = await chooseSolver(name, m.find);
      assert.deepEqual(choice, { solver: { kind: "built_in" }, warnings: [] }, String(name));
    }
    assert.deepEqual(m.asked, []);
  });
  await t.step("an installed solver, in Calliope's or the binary's spelling", async () => {
    const m = machine("cbc", "glpk", "gurobi");
    const cases: [string, string][] = [
      ["cbc", "cbc"],
      ["glpsol", "glpk"],
      ["gurobi_persistent", "gurobi"],
    ];
    for (const [asked, name] of cases) {
      const choice = await chooseSolver(asked, m.find);
      assert.equal(choice.solver.kind, "command_line", asked);
      if (choice.solver.kind === "command_line") assert.equal(choice.solver.name, name);
      assert.deepEqual(choice.warnings, []);
    }
  });
  await t.step("named but not installed: highs, and a warning that says so", async () => {
    const choice = await chooseSolver("cbc", machine().find);
    assert.deepEqual(choice.solver, { kind: "built_in" });
    assert.deepEqual(choice.warnings, [
      'solver "cbc" is not installed on this runner: the model runs on the built-in highs',
    ]);
  });
  await t.step("a solver the runner cannot drive: highs, and the names it can", async () => {
    const choice = await chooseSolver("xpress", machine("cbc").find);
    assert.deepEqual(choice.solver, { kind: "built_in" });
    assert.equal(choice.warnings.length, 1);
    assert.match(
      choice.warnings[0]!,
      /solver "xpress" is not one the runner can drive \(highs, cbc, clp, glpk/,
    );
  });
});
