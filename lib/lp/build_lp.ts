/**
 * Builds Calliope 0.6's plan-mode linear program from a pre-processed model: variables, then
 * each constraint family in its own module (as Calliope's `backend/pyomo/constraints/`), then
 * costs substituted into the objective.
 */
import type { ResolvedModel } from "../model/preprocess/resolved_model.ts";
import { createContext } from "./build_context.ts";
import { addCapacity } from "./capacity.ts";
import { addConversion } from "./conversion.ts";
import { addConversionPlus } from "./conversion_plus.ts";
import { addCosts } from "./costs.ts";
import { addDispatch } from "./dispatch.ts";
import { addEnergyBalance } from "./energy_balance.ts";
import { addExport } from "./export.ts";
import { addGroupConstraints } from "./group_constraints.ts";
import type { LinearProgram } from "./linear_program.ts";
import type { LpIndex } from "./lp_index.ts";
import { addMilp, addMilpVariables } from "./milp.ts";
import { addNetwork } from "./network.ts";
import { addObjectivePenalty, objectiveOffset, objectiveSense } from "./objective.ts";
import { addReserveMargin } from "./reserve_margin.ts";
import { addVariables } from "./variables.ts";

export type { LpIndex } from "./lp_index.ts";

/**
 * The LP of `model` (a model config after `resolveModel`) and the index that maps its columns and
 * rows back to Calliope's variables.
 */
export function buildLp(model: ResolvedModel): { lp: LinearProgram; index: LpIndex } {
  const ctx = createContext(model);
  addVariables(ctx);
  addMilpVariables(ctx);
  addEnergyBalance(ctx);
  addCapacity(ctx);
  addDispatch(ctx);
  addConversion(ctx);
  addConversionPlus(ctx);
  addExport(ctx);
  addNetwork(ctx);
  addMilp(ctx);
  addReserveMargin(ctx);
  addCosts(ctx);
  addGroupConstraints(ctx);
  addObjectivePenalty(ctx);
  const built = ctx.b.build(objectiveOffset(model));
  const lp: LinearProgram = objectiveSense(model) === "maximize"
    ? { ...built, sense: "maximize" }
    : built;
  ctx.index.size = {
    variables: lp.numCols,
    constraints: lp.numRows,
    nonzeros: lp.matrix.indices.length,
  };
  return { lp, index: ctx.index };
}
