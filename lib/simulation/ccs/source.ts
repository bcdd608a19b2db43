/**
 * Source CO2 on the simulation grid: from the profile's t/h (the dashboard's payload), or from
 * capacity × emission factor, or from the flue-gas flow × CO2 concentration; plus the flue-gas
 * CO2 concentration that sizes the gas the absorber and its fan handle.
 *
 * Source: research notes section 3.2 step 1: `CO2_in = profile.co2_tph`, otherwise
 * `capacity_kw·EF/1000`, or `Nm³/h·x_CO2·1.977 kg/Nm³/1000`.
 */
import { CO2_NORMAL_DENSITY_KG_NM3 } from "./co2_properties.ts";
import type { CcsPayload } from "./payload.ts";
import { zeroOrderHold } from "../zero_order_hold.ts";

/** Source series on the grid. */
export interface SourceSeries {
  /** CO2 entering the absorber, t/h. */
  readonly co2Tph: Float64Array;
  /** Flue-gas CO2 concentration, vol%. */
  readonly co2Pct: Float64Array;
}

/** CO2 in a flue-gas flow, t/h: `Nm³/h · x · 1.977 kg/Nm³ / 1000`. */
export function co2FromFlueGasTph(flueGasNm3h: number, co2VolPct: number): number {
  return flueGasNm3h * co2VolPct / 100 * CO2_NORMAL_DENSITY_KG_NM3 / 1000;
}

/** CO2 of a plant at full load, t/h: `capacity [kW] · EF [kg/kWh] / 1000`. */
export function co2FromCapacityTph(capacityKw: number, emissionKgKwh: number): number {
  return capacityKw * emissionKgKwh / 1000;
}

/** Builds the source series of `steps` steps of `dtS` seconds from a canonical payload. */
export function sourceSeries(src: CcsPayload["source"], steps: number, dtS: number): SourceSeries {
  const co2Pct = new Float64Array(steps);
  if (src.profile_kind === "co2_tph") {
    co2Pct.fill(src.co2_concentration_pct);
    return {
      co2Tph: zeroOrderHold(src.profile_time_s, src.profile_value, steps, dtS),
      co2Pct,
    };
  }
  if (src.profile_kind === "co2_pct") {
    co2Pct.set(zeroOrderHold(src.profile_time_s, src.profile_value, steps, dtS));
  } else {
    co2Pct.fill(src.co2_concentration_pct);
  }
  const co2Tph = new Float64Array(steps);
  for (let k = 0; k < steps; k++) {
    // capacity × EF fixes the mass; the concentration then only sizes the gas volume
    co2Tph[k] = src.capacity_kw != null
      ? co2FromCapacityTph(src.capacity_kw, src.co2_emission_kg_kwh)
      : co2FromFlueGasTph(src.flue_gas_flow_nm3h ?? 0, co2Pct[k]!);
  }
  return { co2Tph, co2Pct };
}
