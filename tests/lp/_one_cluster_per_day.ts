/**
 * Calliope's national-scale example over three days with nothing else linking one day to the
 * next (csp's storage loss 0, ccgt's ramping 1), and the same model with every day its own
 * cluster: the cases where storage between clusters must equal the hourly model exactly.
 */
import { importCalliopeModel } from "../../lib/model/calliope/calliope_import.ts";
import type { ResolvedModel } from "../../lib/model/preprocess/resolved_model.ts";
import { prepareModelBody } from "../../lib/model/prepare_model_body.ts";

const NATIONAL = new URL("../../data/models/calliope_national_scale", import.meta.url).pathname;

/** The hourly model, resolved. */
export async function nationalThreeDays(): Promise<ResolvedModel> {
  const config = await importCalliopeModel(NATIONAL, {
    overrides: {
      "model.subset_time": ["2005-01-01", "2005-01-03"],
      "techs.csp.constraints.storage_loss": 0,
      "techs.ccgt.constraints.energy_ramping": 1,
    },
  });
  const prepared = prepareModelBody(config);
  if (!prepared.ok) throw new Error(JSON.stringify(prepared.problems));
  return prepared.model;
}

/** `hourly` with every day its own cluster (weights stay 1). */
export function oneClusterPerDay(
  hourly: ResolvedModel,
  storageInterCluster: boolean,
): ResolvedModel {
  const days = [...new Set(hourly.timestamps.map((t) => t.slice(0, 10)))];
  return {
    ...hourly,
    clusters: {
      timestepCluster: hourly.timestamps.map((t) => days.indexOf(t.slice(0, 10))),
      datesteps: days.map((d) => Date.parse(`${d}T00:00:00Z`)),
      datestepCluster: days.map((_, d) => d),
    },
    storageInterCluster,
  };
}
