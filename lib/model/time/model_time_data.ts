/**
 * Moves a ResolvedModel's time-varying data into a `TimeData` for the time functions and puts
 * their result back: a Series that is an array (given as a time series) is time-varying, a
 * number is a constant and stays one, as in Calliope, where only `file=` data has a time
 * dimension (except `resource`, see timeDataOf).
 */
import type {
  ResolvedCosts,
  ResolvedLocTech,
  ResolvedModel,
  Series,
} from "../preprocess/resolved_model.ts";
import type { TimeData, TimeResult, TimeVariable } from "./time_data.ts";
import { formatMs, timestampMs } from "../preprocess/time_window.ts";

const COST_SERIES = ["om_prod", "om_con", "export"] as const;

/** The time-varying data of `model`. */
export function timeDataOf(model: ResolvedModel): TimeData {
  const variables: TimeVariable[] = [];
  const T = model.timestamps.length;
  // Calliope holds `resource` in one time-indexed array once any resource is a series, so a
  // finite, non-zero constant resource is a series too (resampling then sums it, as
  // timeline.ts does; zero stays zero either way).
  const resourceSeries = model.locTechs.some((lt) => Array.isArray(lt.constraints.resource));
  for (const lt of model.locTechs) {
    for (const [variable, value] of Object.entries(lt.constraints)) {
      if (Array.isArray(value)) variables.push({ variable, locTech: lt.id, values: value });
      else if (
        variable === "resource" && resourceSeries && lt.sets.finiteResource &&
        typeof value === "number" && value !== 0 && Number.isFinite(value)
      ) {
        variables.push({ variable, locTech: lt.id, values: new Array<number>(T).fill(value) });
      }
    }
    for (const [costClass, costs] of Object.entries(lt.costs)) {
      for (const key of COST_SERIES) {
        const value = costs[key];
        if (Array.isArray(value)) {
          variables.push({ variable: `cost_${key}`, locTech: lt.id, costClass, values: value });
        }
      }
    }
  }
  return {
    timestamps: model.timestamps.map(timestampMs),
    resolution: model.resolution,
    weights: model.weights,
    variables,
  };
}

/** `model` on the timeline of `result`, its time-varying values replaced by the result's. */
export function withTimeData(model: ResolvedModel, result: TimeResult): ResolvedModel {
  const byKey = new Map<string, readonly number[]>();
  const key = (variable: string, locTech: string, costClass?: string) =>
    `${variable}|${locTech}|${costClass ?? ""}`;
  for (const v of result.data.variables) {
    byKey.set(key(v.variable, v.locTech, v.costClass), v.values);
  }
  const swap = (value: Series, k: string): Series => {
    if (!Array.isArray(value)) {
      // A constant lent to the time functions comes back a constant when it stayed one.
      const back = byKey.get(k);
      if (back === undefined) return value;
      return back.every((v) => v === back[0]) && back.length > 0 ? back[0]! : back;
    }
    const next = byKey.get(k);
    if (next === undefined) throw new RangeError(`the time functions lost the series ${k}`);
    return next;
  };
  const locTechs: ResolvedLocTech[] = model.locTechs.map((lt) => {
    const constraints = Object.fromEntries(
      Object.entries(lt.constraints).map(([variable, value]) => [
        variable,
        Array.isArray(value) || variable === "resource" ? swap(value, key(variable, lt.id)) : value,
      ]),
    ) as unknown as ResolvedLocTech["constraints"];
    const costs: Record<string, ResolvedCosts> = {};
    for (const [costClass, c] of Object.entries(lt.costs)) {
      costs[costClass] = {
        ...c,
        om_prod: swap(c.om_prod, key("cost_om_prod", lt.id, costClass)),
        om_con: swap(c.om_con, key("cost_om_con", lt.id, costClass)),
        export: swap(c.export, key("cost_export", lt.id, costClass)),
      };
    }
    return { ...lt, constraints, costs };
  });
  return {
    ...model,
    timestamps: result.data.timestamps.map(formatMs),
    resolution: result.data.resolution,
    weights: result.data.weights,
    locTechs,
    ...(result.clusters === undefined ? {} : { clusters: result.clusters }),
    ...(result.warnings.length === 0
      ? {}
      : { warnings: [...(model.warnings ?? []), ...result.warnings] }),
  };
}
