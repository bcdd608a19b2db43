/**
 * Calliope 0.6.10's `drop` (`calliope/time/funcs.py`): timesteps removed from the model, their
 * summed weight spread evenly over the timesteps left, so the weights still add up.
 */
import type { ModelProblem } from "../model_problem.ts";
import { normalizeTimestamp, timestampMs } from "../preprocess/time_window.ts";
import type { TimeData, TimeOutcome } from "./time_data.ts";

const PATH = "parameters.time.function_options.timesteps";

/** `data` without the timesteps named (`2005-01-01 23:00` ...), each of which must exist. */
export function drop(data: TimeData, timesteps: readonly string[]): TimeOutcome {
  const problems: ModelProblem[] = [];
  const index = new Map(data.timestamps.map((t, i) => [t, i]));
  const indices: number[] = [];
  timesteps.forEach((text, k) => {
    const normalized = normalizeTimestamp(text);
    const i = normalized === undefined ? undefined : index.get(timestampMs(normalized));
    if (normalized === undefined) {
      problems.push({
        path: `${PATH}[${k}]`,
        message: `"${text}" is not a timestamp like 2005-01-01 23:00`,
      });
    } else if (i === undefined) {
      problems.push({ path: `${PATH}[${k}]`, message: `the model has no timestep ${text}` });
    } else indices.push(i);
  });
  if (problems.length === 0 && new Set(indices).size === data.timestamps.length) {
    problems.push({ path: PATH, message: "drop would leave no timestep" });
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, result: { data: dropTimesteps(data, indices), warnings: [] } };
}

/** `data` without the timesteps at `indices`; at least one timestep must remain. */
export function dropTimesteps(data: TimeData, indices: readonly number[]): TimeData {
  const dropped = new Set(indices);
  const keep = data.timestamps.map((_, i) => i).filter((i) => !dropped.has(i));
  if (keep.length === 0) throw new RangeError("drop would leave no timestep");
  let weight = 0;
  for (const i of dropped) weight += data.weights[i]!;
  const pick = (values: readonly number[]) => keep.map((i) => values[i]!);
  return {
    timestamps: pick(data.timestamps),
    resolution: pick(data.resolution),
    weights: pick(data.weights).map((w) => w + weight / keep.length),
    variables: data.variables.map((v) => ({ ...v, values: pick(v.values) })),
  };
}
