/**
 * What Calliope 0.6.10's `run_spores` fails on, or what cannot give spores, found before any
 * solve; paths are under the ModelConfig's `parameters.spores`.
 */
import type { ModelProblem } from "../model_problem.ts";
import type { ResolvedModel } from "../preprocess/resolved_model.ts";
import type { SporesOptions } from "./spores_options.ts";

const AT = "parameters.spores";

/** Every problem of `options` for `model` (empty: the spores can run). */
export function sporesProblems(model: ResolvedModel, options: SporesOptions): ModelProblem[] {
  const problems: ModelProblem[] = [];
  const group = options.slack_cost_group;
  if (group === null) {
    // Calliope looks the group up in group_cost_max when it sets the slack, and fails.
    problems.push({
      path: `${AT}.slack_cost_group`,
      message: "required: the group constraint whose cost_max the slack sets",
    });
  } else {
    const rows = (model.groupConstraints ?? []).filter((g) => g.group === group);
    if (rows.length === 0) {
      problems.push({
        path: `${AT}.slack_cost_group`,
        message: `no group constraint "${group}" in the model (or it covers nothing)`,
      });
    } else if (!rows.some((g) => g.family === "cost" && g.sense === "max")) {
      problems.push({
        path: `${AT}.slack_cost_group`,
        message: `group constraint "${group}" has no cost_max for the slack to set`,
      });
    }
  }
  const score = options.score_cost_class;
  if (!model.locTechs.some((lt) => lt.sets.investmentCost && lt.costs[score] !== undefined)) {
    problems.push({
      path: `${AT}.score_cost_class`,
      message: `no technology has an investment cost of class "${score}" to score`,
    });
  }
  for (const cls of Object.keys(options.objective_cost_class)) {
    if (!model.costClasses.includes(cls)) {
      problems.push({
        path: `${AT}.objective_cost_class.${cls}`,
        message: `"${cls}" is not a cost class of the model (${model.costClasses.join(", ")})`,
      });
    }
  }
  if (model.objective === "feasibility") {
    problems.push({
      path: AT,
      message: "SPORES needs run.objective minmax_cost_optimization, not check_feasibility",
    });
  }
  return problems;
}
