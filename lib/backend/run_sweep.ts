/**
 * A sweep: one saved model run once per scenario, each run the model with that scenario as its
 * `parameters.scenario` (the model's own replaced) and the request's `parameters` merged, as a
 * single run is built (`run_model.ts`). Every scenario is checked before any job exists, so a
 * sweep runs whole or not at all.
 */
import type { ModelProblem } from "../model/model_problem.ts";
import { scenarioNames } from "../model/preprocess/apply_model_overrides.ts";
import { checkRunConfig, readRunConfig, type RunOverrides, type RunScenario } from "./run_model.ts";

/** One run of a sweep: its scenario, how it is named, and the model to submit. */
export interface SweepRun {
  readonly scenario: RunScenario;
  /** The scenario's override names joined by commas, e.g. `cold_fusion,reserve_margin`. */
  readonly label: string;
  readonly model: Record<string, unknown>;
  readonly notes: readonly string[];
}

/** Every run of the sweep, in the order given, or every problem of every scenario. */
export type SweepModels =
  | { ok: true; runs: SweepRun[] }
  | { ok: false; problems: ModelProblem[] };

/** `a,b` for `"a, b"` or `["a", "b"]`: how a scenario is named in logs and the run history. */
export function scenarioLabel(scenario: RunScenario): string {
  return scenarioNames(scenario).join(",");
}

const key = (p: ModelProblem) => `${p.path}\u0000${p.message}`;

/**
 * The model of each scenario, checked. A problem of one scenario is named under it
 * (`scenarios[1]` for the scenario itself, e.g. an unknown override; `scenarios[1].<path>` for
 * what it made of the model); a problem the model has without any scenario is named once, at its
 * own path.
 */
export function buildSweepModels(
  saved: unknown,
  overrides: Omit<RunOverrides, "scenario">,
  scenarios: readonly RunScenario[],
): SweepModels {
  const read = readRunConfig(saved, overrides);
  if (!read.ok) return read;
  const runs: SweepRun[] = [];
  const failed: { index: number; problems: ModelProblem[] }[] = [];
  scenarios.forEach((scenario, index) => {
    const built = checkRunConfig(read.model, scenario, read.notes);
    if (built.ok) {
      runs.push({
        scenario,
        label: scenarioLabel(scenario),
        model: built.model,
        notes: built.notes,
      });
    } else failed.push({ index, problems: built.problems });
  });
  if (failed.length === 0) return { ok: true, runs };
  // Only now is the model checked without a scenario: what it lacks anyway is said once.
  const parameters = read.model["parameters"];
  const { scenario: _, ...rest } = typeof parameters === "object" && parameters !== null
    ? parameters as Record<string, unknown>
    : {};
  const plain = checkRunConfig({ ...read.model, parameters: rest }, undefined);
  const common = new Set(plain.ok ? [] : plain.problems.map(key));
  const seen = new Set<string>();
  const problems: ModelProblem[] = [];
  for (const { index, problems: own } of failed) {
    for (const p of own) {
      if (common.has(key(p))) {
        if (!seen.has(key(p))) problems.push(p);
        seen.add(key(p));
        continue;
      }
      const at = `scenarios[${index}]`;
      problems.push({
        path: p.path === "parameters.scenario" || p.path === "" ? at : `${at}.${p.path}`,
        message: p.message,
      });
    }
  }
  return { ok: false, problems };
}
