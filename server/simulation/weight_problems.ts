/**
 * What a payload's result would weigh (steps × series) against the services' limits,
 * SIM_MAX_RESULT_VALUES and SIM_MAX_RESULTS_MB: checked before a job is queued, so that no
 * accepted result is refused or dropped on arrival.
 */
import { resultWeightOf, type SimulationModel } from "../../lib/simulation/simulation_model.ts";
import type { SimulationSettings } from "./config.ts";
import { count, mib } from "./answers.ts";

/** The limits the payload's result would break, as messages naming them (empty when none). */
export function weightProblems<Payload>(
  model: SimulationModel<Payload>,
  settings: Pick<SimulationSettings, "maxResultValues" | "maxResultsBytes">,
  payload: Payload,
): string[] {
  const weight = resultWeightOf(model, payload);
  const out: string[] = [];
  const steps = `${count(weight.steps)} steps (simulation.t_end_s / simulation.dt_s)`;
  if (weight.values > settings.maxResultValues) {
    out.push(
      `The result would carry ${count(weight.values)} values: ${steps} × ${weight.series} ` +
        `series, more than SIM_MAX_RESULT_VALUES = ${count(settings.maxResultValues)}; ` +
        `at most ${count(Math.floor(settings.maxResultValues / weight.series))} steps: ` +
        "use a longer dt_s or a shorter t_end_s",
    );
  } else if (weight.bytes > settings.maxResultsBytes) {
    out.push(
      `The result would hold about ${mib(weight.bytes)} MiB: ${steps} × ${weight.series} ` +
        `series × 8 bytes, more than SIM_MAX_RESULTS_MB = ${mib(settings.maxResultsBytes)}; ` +
        "use a longer dt_s or a shorter t_end_s",
    );
  }
  return out;
}
