/**
 * The `done` event's summary of a result: the result without its time series, which a client
 * reads in full from the result route (the predecessor dropped the same four keys).
 */
import type { RunResult } from "./model_runner.ts";

/**
 * Members left out of the summary by name: the frontend's per-timestep views and the columnar
 * time-series tables of the result.
 */
export const SUMMARY_OMITTED_KEYS: ReadonlySet<string> = new Set([
  "dispatch",
  "transmission_flow",
  "timestamps",
  "demand_timeseries",
  "carrier_prod",
  "carrier_con",
  "carrier_export",
  "storage",
  "resource_con",
  "link_flows",
  "unmet_demand",
  "nodal_prices",
]);

/** Any other member whose JSON is larger than this is left out too, bytes. */
export const SUMMARY_MEMBER_MAX_BYTES = 64 * 1024;

/** The result without time series: named keys, and any member over SUMMARY_MEMBER_MAX_BYTES. */
export function summarizeResult(result: RunResult): Record<string, unknown> {
  const summary: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(result)) {
    if (SUMMARY_OMITTED_KEYS.has(key)) continue;
    // JSON length in UTF-16 units bounds the byte size closely enough for a cut-off.
    const text = JSON.stringify(value);
    if (text !== undefined && text.length > SUMMARY_MEMBER_MAX_BYTES) continue;
    summary[key] = value;
  }
  return summary;
}
