/**
 * The national example with the `spores` scenario's model keys as overrides (its run.mode and
 * run.spores_options are given to runSpores directly), over Calliope's test's three days.
 */
import { importCalliopeModel } from "../../../lib/model/calliope/calliope_import.ts";
import { prepareModelBody } from "../../../lib/model/prepare_model_body.ts";
import type { ResolvedModel } from "../../../lib/model/preprocess/resolved_model.ts";
import {
  sporesOptions,
  type SporesOptionsInput,
} from "../../../lib/model/spores/spores_options.ts";
import type { SolveSpore } from "../../../lib/model/spores/run_spores.ts";
import { createHighsModelRunner } from "../../../lib/runner/highs_model_runner.ts";

const NATIONAL = new URL("../../../data/models/calliope_national_scale", import.meta.url).pathname;

/** The scenario's `run.spores_options`. */
export const SCENARIO_OPTIONS = sporesOptions(
  {
    score_cost_class: "spores_score",
    slack_cost_group: "systemwide_cost_max",
    slack: 0.1,
    spores_number: 3,
    objective_cost_class: { monetary: 0, spores_score: 1 },
  } satisfies SporesOptionsInput,
);

/** The prepared model, with `extra` overrides over the scenario's. */
export async function nationalSporesModel(
  extra: Record<string, unknown> = {},
): Promise<ResolvedModel> {
  const overrides: Record<string, unknown> = {
    "model.subset_time": ["2005-01-01", "2005-01-03"],
    "run.objective_options.cost_class": { monetary: 1, spores_score: 0 },
    "group_constraints.systemwide_cost_max.cost_max.monetary": 1e10,
  };
  for (const t of ["ccgt", "csp", "battery", "ac_transmission"]) {
    overrides[`techs.${t}.costs.spores_score.energy_cap`] = 0;
    overrides[`techs.${t}.costs.spores_score.interest_rate`] = 1;
  }
  const config = await importCalliopeModel(NATIONAL, { overrides: { ...overrides, ...extra } });
  const prepared = prepareModelBody(config);
  if (!prepared.ok) throw new Error(JSON.stringify(prepared.problems));
  return prepared.model;
}

/** A HiGHS solve on this thread, its log dropped. */
export async function solveHere(): Promise<SolveSpore> {
  const runner = await createHighsModelRunner({ solveIn: "process" });
  const hooks = { log: () => {}, progress: () => {}, signal: new AbortController().signal };
  return (model) => runner.run(model, hooks);
}

/** Hooks that keep the log. */
export function keepLog(signal = new AbortController().signal) {
  const lines: string[] = [];
  return { lines, hooks: { log: (l: string) => void lines.push(l), signal } };
}
