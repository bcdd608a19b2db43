/**
 * Calliope 0.6.10's `run.operation` (config/defaults.yaml): the rolling horizon's `window` and
 * `horizon` in timesteps, and `use_cap_results` (capacities from a plan result). Calliope has no
 * default for window or horizon; a missing one is its error, reported by `operateProblems`.
 */
import { z } from "zod";

/** The settings of an operate run. */
export interface OperateOptions {
  /** Timesteps kept from each solve (and the step between window starts). */
  readonly window?: number;
  /** Timesteps each solve looks ahead over (>= window). */
  readonly horizon?: number;
  /** Fix the capacities from a plan result instead of the model's `_equals`/`_max`. */
  readonly use_cap_results: boolean;
}

/** `parameters.operation` of a ModelConfig: Calliope's keys, every one optional. */
export const operateOptionsSchema = z.strictObject({
  window: z.number().int().min(1).optional(),
  horizon: z.number().int().min(1).optional(),
  use_cap_results: z.boolean().default(false),
});

/** What `operateOptionsSchema` accepts (before defaults). */
export type OperateOptionsInput = z.input<typeof operateOptionsSchema>;

/** Options with Calliope's defaults for whatever `input` leaves out (throws on invalid input). */
export function operateOptions(input: OperateOptionsInput = {}): OperateOptions {
  const p = operateOptionsSchema.parse(input);
  return {
    ...(p.window === undefined ? {} : { window: p.window }),
    ...(p.horizon === undefined ? {} : { horizon: p.horizon }),
    use_cap_results: p.use_cap_results,
  };
}

/** Calliope's errors on `run.operation` (checks.py `check_operate_params`), in its words. */
export function operateOptionProblems(options: OperateOptions): string[] {
  const { window, horizon } = options;
  if (!window || !horizon) {
    return [
      "Operational mode requires a timestep window and horizon to be defined under run.operation",
    ];
  }
  if (horizon < window) {
    return ["Iteration horizon must be larger than iteration window, for operational mode"];
  }
  return [];
}
