/**
 * `run.operation.use_cap_results`, as Calliope runs it: the model is first solved in plan mode,
 * and its capacities (energy_cap, storage_cap, resource_cap, resource_area by loc::tech) fix
 * the operate run.
 */
import type { RunResult } from "../../results/run_result.ts";
import type { FixedCapacities } from "./prepare_operate.ts";

const TABLES = ["energy_cap", "storage_cap", "resource_cap", "resource_area"] as const;

/** The capacities of a plan result, by loc::tech id. */
export function planCapacities(result: RunResult): Record<string, FixedCapacities> {
  const out: Record<string, Record<string, number>> = {};
  for (const table of TABLES) {
    const values = (result[table] ?? {}) as Record<string, number>;
    for (const [id, value] of Object.entries(values)) (out[id] ??= {})[table] = value;
  }
  return out as Record<string, FixedCapacities>;
}
