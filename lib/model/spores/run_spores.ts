/**
 * Calliope 0.6.10's SPORES mode (`backend/run.py` run_spores): spore 0 is the cost-optimal
 * solve; then the slack group's `cost_max` is set to that solve's cost × (1 + slack) per class
 * the group limits, the objective's weights switch to `objective_cost_class`, and each loc::tech
 * that built capacity beyond what it is forced to gets 100 more on its score-class energy_cap
 * cost; spores 1..n are solved that way, the scores adding up after each. An infeasible spore
 * ends the run with Calliope's warning.
 *
 * Calliope updates one built backend model; here each spore is a ResolvedModel derived from the
 * first (`sporeModel`) and solved by `solve` like any plan model.
 */
import type { RunResult } from "../../results/run_result.ts";
import { ModelValidationError } from "../model_problem.ts";
import type { ResolvedModel } from "../preprocess/resolved_model.ts";
import { costsByClass, type SporeEntry, sporeEntry } from "./spore_entry.ts";
import { slackCostMax, type SporeInputs, sporeModel } from "./spore_model.ts";
import { addSporeScores, initialSporeScores, sporeScores } from "./spore_scores.ts";
import type { SporesOptions } from "./spores_options.ts";
import { sporesProblems } from "./spores_problems.ts";

/** Calliope's warning when a spore has no solution. */
export const INFEASIBLE_SPORE_WARNING = "Infeasible SPORE detected. Please check your model " +
  "configuration. No more SPORES will be generated.";

/** How the caller follows and stops the run (between solves; `solve` honours it within one). */
export interface SporesHooks {
  log(line: string): void;
  readonly signal: AbortSignal;
}

/** Solves one spore's model (e.g. `(m) => runner.run(m, runHooks)`). */
export type SolveSpore = (model: ResolvedModel, spore: number) => Promise<RunResult>;

/** The first solve's result, plus every solve's entry and the run's warnings. */
export type SporesRunResult = RunResult & {
  readonly spores: readonly SporeEntry[];
  readonly warnings: readonly string[];
};

function feasible(r: RunResult): boolean {
  return r.success;
}

function energyCap(r: RunResult): Readonly<Record<string, number>> {
  return (r["energy_cap"] as Record<string, number> | undefined) ?? {};
}

/**
 * Runs the spores of `model`. With `skip_cost_op`, there is no cost-optimal solve: the model's
 * own slack group cost_max and score costs are those of spore `startSpore` (Calliope reads it
 * from the model data's `spores` coordinate; default 0), and spores startSpore+1..n are solved;
 * the first of them is then the top-level result. Throws a ModelValidationError for
 * `sporesProblems`, or when skip_cost_op leaves nothing to solve.
 */
export async function runSpores(
  model: ResolvedModel,
  options: SporesOptions,
  solve: SolveSpore,
  hooks: SporesHooks,
  startSpore = 0,
): Promise<SporesRunResult> {
  const problems = sporesProblems(model, options);
  const n = options.spores_number;
  if (options.skip_cost_op && startSpore >= n) {
    problems.push({
      path: "parameters.spores.spores_number",
      message:
        `skip_cost_op from spore ${startSpore} leaves no spore to solve (spores_number ${n})`,
    });
  }
  if (problems.length > 0) throw new ModelValidationError(problems);
  const slackGroup = options.slack_cost_group!;
  const scoreClass = options.score_cost_class;
  const spores: SporeEntry[] = [];
  const warnings: string[] = [];
  let first: RunResult | undefined;
  let scores = initialSporeScores(model, scoreClass);
  let costMax = slackCostMax(model, slackGroup);
  let stopped = false;

  /** Solves one spore; false when the run ends there. */
  const step = async (spore: number, inputs: SporeInputs, m: ResolvedModel) => {
    hooks.log(`spore ${spore} of ${n}`);
    const r = await solve(m, spore);
    first ??= r;
    spores.push(sporeEntry(spore, r, inputs));
    if (!feasible(r)) {
      warnings.push(
        r.termination === "interrupted"
          ? `SPORES cancelled during spore ${spore}.`
          : INFEASIBLE_SPORE_WARNING,
      );
      return false;
    }
    scores = addSporeScores(scores, sporeScores(model, scoreClass, energyCap(r)));
    return true;
  };

  if (!options.skip_cost_op) {
    const inputs = {
      slackGroup,
      slackCostMax: costMax,
      objectiveWeights: model.objectiveWeights,
      scoreClass,
      scores,
    };
    stopped = !(await step(0, inputs, model));
    if (!stopped) {
      // Calliope sums each class's cost over every loc::tech, not only the group's.
      const costs = costsByClass(first!);
      costMax = Object.fromEntries(
        Object.keys(costMax).map((cls) => [cls, (costs[cls] ?? 0) * (1 + options.slack)]),
      );
    }
  } else {
    hooks.log(`skipping the cost-optimal solve: the model's inputs start at spore ${startSpore}`);
  }
  const objectiveWeights = { ...model.objectiveWeights, ...options.objective_cost_class };
  for (let spore = startSpore + 1; !stopped && spore <= n; spore++) {
    if (hooks.signal.aborted && first !== undefined) {
      warnings.push(`SPORES cancelled after spore ${spore - 1}.`);
      break;
    }
    const inputs = { slackGroup, slackCostMax: costMax, objectiveWeights, scoreClass, scores };
    stopped = !(await step(spore, inputs, sporeModel(model, inputs)));
  }
  const own = (first!["warnings"] as readonly string[] | undefined) ?? [];
  return { ...first!, spores, warnings: [...own, ...warnings] };
}
