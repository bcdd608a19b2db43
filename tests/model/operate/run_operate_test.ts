import assert from "node:assert/strict";
import { prepareOperate } from "../../../lib/model/operate/prepare_operate.ts";
import { operateOptions } from "../../../lib/model/operate/operate_options.ts";
import { runOperate, type WindowStats } from "../../../lib/model/operate/run_operate.ts";
import type { ResolvedModel } from "../../../lib/model/preprocess/resolved_model.ts";
import type { RunResult } from "../../../lib/results/run_result.ts";
import { createHighsModelRunner } from "../../../lib/runner/highs_model_runner.ts";
import { loadHighsOnce } from "../../../lib/solver/highs_loader.ts";
import {
  createPersistentLpSolver,
  type PersistentLpSolver,
} from "../../../lib/solver/persistent_lp.ts";
import { nationalOperateModel } from "./_national_operate.ts";

const highs = await loadHighsOnce();

function hooks(lines: string[] = [], pct: number[] = [], signal = new AbortController().signal) {
  return {
    log: (l: string) => void lines.push(l),
    progress: (p: { phase: string; pct: number }) => void (p.phase === "solve" && pct.push(p.pct)),
    signal,
  };
}

async function operate(model: ResolvedModel, window: number, horizon: number, h = hooks()) {
  const prepared = prepareOperate(model, operateOptions({ window, horizon }));
  if (!prepared.ok) throw new Error(prepared.problems.join("\n"));
  const solver = createPersistentLpSolver(highs);
  try {
    return await runOperate(prepared.model, operateOptions({ window, horizon }), h, solver);
  } finally {
    solver.dispose();
  }
}

const monetary = (r: RunResult, table: "cost_var" | "costs") =>
  Object.values((r[table] as Record<string, Record<string, number>>)["monetary"] ?? {})
    .reduce((a, b) => a + b, 0);

Deno.test("national operate scenario, 2005-01-01..03: 72 steps joined, the warning raised", async () => {
  const lines: string[] = [];
  const pct: number[] = [];
  const r = await operate(await nationalOperateModel(), 12, 24, hooks(lines, pct));
  assert.equal(r.termination_condition, "optimal");
  const stamps = r["timestamps"] as string[];
  assert.equal(stamps.length, 72);
  assert.equal(stamps[0], "2005-01-01T00:00:00");
  assert.equal(stamps[71], "2005-01-03T23:00:00");
  assert.ok((r["warnings"] as string[]).includes(
    "Resource capacity constraint defined and set to infinity for all supply_plus techs",
  ));
  const windows = (r["operate"] as { windows: WindowStats[] }).windows;
  assert.deepEqual(windows.map((w) => w.mode), [
    "built",
    "updated",
    "updated",
    "updated",
    "updated",
    "built",
  ]);
  assert.ok(lines.includes("[runner] window 1 of 6: timesteps 0..11 kept, solved over 24"));
  assert.equal(pct.at(-1), 100);
});

Deno.test("invariants: one window = plan with the fixed capacities; shorter windows cost no less", async () => {
  // Ramping not binding, and no cost on csp's resource_cap (left free by operate).
  const model = await nationalOperateModel({
    "techs.ccgt.constraints.energy_ramping": 1,
    "techs.csp.costs.monetary.resource_cap": 0,
  });
  const prepared = prepareOperate(model, operateOptions({ window: 72, horizon: 72 }));
  assert.ok(prepared.ok);
  const runner = await createHighsModelRunner({ solveIn: "process" });
  const plan = await runner.run(prepared.model, hooks());
  assert.equal(plan.termination_condition, "optimal");
  const planCost = monetary(plan, "cost_var");
  const whole = await operate(model, 72, 72);
  assert.ok(Math.abs(monetary(whole, "cost_var") - planCost) <= 1e-5 * Math.abs(planCost));
  assert.ok(Math.abs(whole.objective! - plan.objective!) <= 1e-5 * Math.abs(plan.objective!));
  // Every shorter window is a feasible point of the whole-period LP (storage carried with its
  // loss), so its objective is never lower. Its variable cost is never lower either while it
  // meets all demand; a myopic window (horizon = window) can leave demand unmet, and unserved
  // demand costs the bigM penalty instead of fuel.
  for (const [window, horizon] of [[12, 24], [24, 48], [24, 24], [6, 6]] as const) {
    const r = await operate(model, window, horizon);
    const tag = `${window}/${horizon}`;
    assert.equal(r.termination_condition, "optimal", tag);
    assert.ok(r.objective! >= plan.objective! * (1 - 1e-9), tag);
    const unmet = Object.values(r["unmet_demand"] as Record<string, number[]>)
      .flat().reduce((a, b) => a + b, 0);
    if (unmet === 0) {
      assert.ok(monetary(r, "cost_var") >= planCost * (1 - 1e-9), tag);
    } else {
      assert.ok([24, 6].includes(window) && window === horizon, tag);
    }
  }
});

Deno.test("an aborted signal stops before the next window", async () => {
  const controller = new AbortController();
  const lines: string[] = [];
  const h = hooks(lines, [], controller.signal);
  const model = await nationalOperateModel();
  const r = await operate(model, 12, 24, {
    ...h,
    log: (l: string) => {
      lines.push(l);
      if (l.startsWith("[runner] window 2 of 6: optimal")) controller.abort();
    },
  });
  assert.equal(r.termination, "interrupted");
  assert.equal((r["operate"] as { windows: WindowStats[] }).windows.length, 2);
});

Deno.test("an abort during a window's solve interrupts HiGHS", async () => {
  const controller = new AbortController();
  const model = await nationalOperateModel();
  const r = await operate(model, 12, 24, {
    log: (l: string) => {
      if (!l.startsWith("[runner]")) controller.abort();
    },
    progress: () => {},
    signal: controller.signal,
  });
  assert.equal(r.termination, "interrupted");
  const windows = (r["operate"] as { windows: WindowStats[] }).windows;
  assert.equal(windows.length, 1);
  assert.equal(windows[0]!.termination, "interrupted");
});

Deno.test("updating the persistent model gives what building every window anew gives", async () => {
  const prepared = prepareOperate(
    await nationalOperateModel(),
    operateOptions({ window: 12, horizon: 24 }),
  );
  assert.ok(prepared.ok);
  const options = operateOptions({ window: 12, horizon: 24 });
  const anew: PersistentLpSolver = {
    solve: (lp, o, h) => {
      const s = createPersistentLpSolver(highs);
      return s.solve(lp, o, h).finally(() => s.dispose());
    },
    dispose() {},
  };
  const persistent = createPersistentLpSolver(highs);
  const updated = await runOperate(prepared.model, options, hooks(), persistent);
  persistent.dispose();
  const built = await runOperate(prepared.model, options, hooks(), anew);
  assert.ok(Math.abs(updated.objective! - built.objective!) <= 1e-7 * Math.abs(built.objective!));
  const modes = (r: RunResult) =>
    (r["operate"] as { windows: WindowStats[] }).windows.map((w) => w.mode);
  assert.ok(modes(updated).includes("updated"));
  assert.ok(!modes(built).includes("updated"));
});
