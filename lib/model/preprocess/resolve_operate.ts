/**
 * `run.mode: operate` on a resolved model: Calliope's checks of `run.operation` and of what
 * operate can fix (`prepareOperate`), as problems at `parameters.operation` and
 * `parameters.mode`; the model then carries its fixed capacities, Calliope's warnings and the
 * options the runner's rolling windows read. With `use_cap_results` the capacities come from a
 * plan solve of the same model, which the runner does first (operateWithPlanCapacities): the
 * model stays as it is, marked for operate.
 */
import { ModelValidationError } from "../model_problem.ts";
import {
  operateOptionProblems,
  operateOptions,
  type OperateOptionsInput,
} from "../operate/operate_options.ts";
import { prepareOperate } from "../operate/prepare_operate.ts";
import type { ResolvedModel } from "./resolved_model.ts";

export function resolveOperate(
  model: ResolvedModel,
  input: OperateOptionsInput | undefined,
): ResolvedModel {
  const options = operateOptions(input ?? {});
  const optionProblems = operateOptionProblems(options);
  if (optionProblems.length > 0) {
    throw new ModelValidationError(
      optionProblems.map((message) => ({ path: "parameters.operation", message })),
    );
  }
  if (options.use_cap_results) return { ...model, operate: options };
  const prepared = prepareOperate(model, options);
  if (!prepared.ok) {
    throw new ModelValidationError(
      prepared.problems.map((message) => ({ path: "parameters.mode", message })),
    );
  }
  return { ...prepared.model, operate: options };
}
