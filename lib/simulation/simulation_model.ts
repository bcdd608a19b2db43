/**
 * The seam between a simulation service and its physics: one app factory serves any model that
 * has this shape (the hydrogen plant and the carbon-capture chain are the two). A model
 * validates its payload (both spellings the existing client sends, with its defaults) and
 * starts a run that the job manager advances in slices, so that telemetry can be streamed
 * between slices and a cancel stops the run within one slice.
 */
import type { z } from "zod";
import { type PredictedWeight, predictedWeight } from "./result_weight.ts";

/** Numbers of one step that telemetry frames carry (flat keys, SI or the client's units). */
export type StepTelemetry = Readonly<Record<string, number>>;

/** A run in progress. */
export interface SimulationRun {
  /** Steps of the whole run: ceil(t_end_s / dt_s). */
  readonly totalSteps: number;
  /** Steps done so far (0 before the first advance). */
  readonly stepsDone: number;
  /** Simulated time reached, s. */
  readonly t_s: number;
  /**
   * Advances up to `maxSteps` steps and answers how many were done; 0 once the run is complete.
   * Pure computation: no I/O, no timers.
   */
  advance(maxSteps: number): number;
  /** The telemetry of the latest step done (empty before the first). */
  telemetry(): StepTelemetry;
  /** The result document, once `stepsDone === totalSteps`; throws before. */
  result(): Record<string, unknown>;
}

/** A simulation model as the service and the batch task use it. */
export interface SimulationModel<Payload = unknown> {
  /** `hydrogen` or `ccs`. */
  readonly name: string;
  /** One line for documentation. */
  readonly title: string;
  /**
   * The payload schema: accepts the client's payload (schema version 2.0, both spellings) and
   * outputs the canonical payload with defaults filled in. Size limits (steps, profile points)
   * are checked by `limits`, not here.
   */
  readonly payloadSchema: z.ZodType<Payload>;
  /**
   * Size problems of a valid payload (over `MAX_STEPS` steps, a profile over
   * `MAX_PROFILE_POINTS` points): messages naming the field; an empty list when within limits.
   */
  limits(payload: Payload): string[];
  /** Steps a run of the payload takes (`SimulationRun.totalSteps`), known before it starts. */
  steps(payload: Payload): number;
  /**
   * Series of one step in the result as written: every array of one number per step, the flat
   * and nested copies counted apiece. Steps × series is what the result weighs.
   */
  readonly resultSeries: number;
  /** Starts a run of a checked payload. */
  start(payload: Payload): SimulationRun;
}

/** Most steps a run may have (t_end_s / dt_s). */
export const MAX_STEPS = 1_000_000;

/**
 * Most points a source profile may have: the existing client sends one point per step, so a
 * leap year at 1-minute steps (527,040 steps and the end point).
 */
export const MAX_PROFILE_POINTS = 527_041;

/** The weight a run of `payload` gives its result: steps × series (before running it). */
export function resultWeightOf<Payload>(
  model: SimulationModel<Payload>,
  payload: Payload,
): PredictedWeight {
  return predictedWeight(model.steps(payload), model.resultSeries);
}

/** Runs `model` on `payload` to the end in one go (tests, the batch task); `onProgress` 0..1. */
export function runToEnd(
  model: SimulationModel,
  payload: unknown,
  onProgress: (fraction: number) => void = () => {},
): Record<string, unknown> {
  const checked = model.payloadSchema.parse(payload);
  const problems = model.limits(checked);
  if (problems.length > 0) throw new RangeError(problems.join("; "));
  const run = model.start(checked);
  const slice = Math.max(1, Math.ceil(run.totalSteps / 100));
  while (run.advance(slice) > 0) onProgress(run.stepsDone / run.totalSteps);
  return run.result();
}
