/**
 * What a carbon-capture run holds once it has run, which the result document is built from: the
 * series by name, one value per step, and the constants the result needs. Its own file so that
 * the run (`ccs_run.ts`) and the result (`ccs_result.ts`) both import it, not each other.
 */
import type { CompressionDuty } from "./co2_compression.ts";
import type { StorageSite } from "./injection.ts";
import type { CcsPayload } from "./payload.ts";

/** Series names of a run, each one value per step. */
export const CCS_SERIES = [
  "source_co2_tph",
  "source_co2_pct",
  "flue_gas_flow_kg_s",
  "absorber_co2_captured_tph",
  "absorber_capture_efficiency_pct",
  "absorber_solvent_flow_m3h",
  "absorber_fan_power_kw",
  "absorber_pump_power_kw",
  "absorber_power_kw",
  "stripper_co2_released_tph",
  "stripper_heat_demand_kw",
  "compressor_power_kw",
  "compressor_outlet_pressure_bar",
  "compressor_temperature_c",
  "storage_injection_rate_tph",
  "storage_vented_tph",
  "storage_co2_mass_tonnes",
  "storage_pressure_bar",
  "storage_fill_pct",
] as const;

/** One of the series names. */
export type CcsSeriesName = typeof CCS_SERIES[number];

/** The run's series and the constants the result needs. */
export interface CcsRunState {
  readonly payload: CcsPayload;
  readonly steps: number;
  readonly dtS: number;
  /** Length of each step, h (the last may be shorter). */
  readonly stepH: Float64Array;
  readonly series: Readonly<Record<CcsSeriesName, Float64Array>>;
  readonly compression: CompressionDuty;
  readonly site: StorageSite;
  readonly initialStoredT: number;
}
