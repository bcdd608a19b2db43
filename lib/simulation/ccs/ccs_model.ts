/**
 * The carbon-capture chain as a `SimulationModel`: source, MEA absorber, stripper, CO2
 * compression and injection into geological storage (issue 13, research notes 3.2).
 */
import {
  MAX_PROFILE_POINTS,
  MAX_STEPS,
  type SimulationModel,
  type SimulationRun,
} from "../simulation_model.ts";
import { CcsRun } from "./ccs_run.ts";
import { type CcsPayload, ccsPayloadSchema } from "./payload.ts";

/** Size problems of a valid payload, naming the field. */
export function ccsLimits(payload: CcsPayload): string[] {
  const problems: string[] = [];
  const steps = ccsStepCount(payload);
  if (steps > MAX_STEPS) {
    problems.push(
      `simulation.t_end_s / simulation.dt_s gives ${steps} steps, more than ${MAX_STEPS}`,
    );
  }
  const points = payload.source.profile_time_s.length;
  if (points > MAX_PROFILE_POINTS) {
    problems.push(`source.profile has ${points} points, more than ${MAX_PROFILE_POINTS}`);
  }
  return problems;
}

/** Steps of a run: ceil(t_end_s / dt_s), as `CcsRun` takes them. */
export function ccsStepCount(payload: CcsPayload): number {
  return Math.ceil(payload.simulation.t_end_s / payload.simulation.dt_s);
}

/**
 * Series per step in a carbon-capture result (what it weighs, with the steps): `time_s`, the 15
 * flat keys the client's normaliser reads, and the nested source 3, absorber 7, stripper 3,
 * compressor 3 and storage 5.
 */
export const CCS_RESULT_SERIES = 37;

/** The carbon-capture chain model served on `CCS_PORT`. */
export const ccsModel: SimulationModel<CcsPayload> = {
  name: "ccs",
  title: "Carbon-capture chain: flue-gas source, MEA absorber, stripper, compression, storage",
  payloadSchema: ccsPayloadSchema,
  limits: ccsLimits,
  steps: ccsStepCount,
  resultSeries: CCS_RESULT_SERIES,
  start(payload: CcsPayload): SimulationRun {
    return new CcsRun(payload);
  },
};
