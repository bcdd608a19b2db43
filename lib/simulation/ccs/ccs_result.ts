/**
 * The result document of a carbon-capture run: the nested per-unit series, the same series
 * under the flat keys the client's normaliser reads, `kpi` with both naming sets and
 * `schema_version: "2.0"` (research notes section 1.3; KPI definitions section 3.2).
 */
import { requiredLiquidToGasRatio } from "./absorber.ts";
import { captureCost } from "./capture_cost.ts";
import type { CcsRunState } from "./ccs_run_state.ts";
import { KWH_PER_GJ } from "./co2_properties.ts";

function sumTimes(values: Float64Array, stepH: Float64Array): number {
  let s = 0;
  for (let k = 0; k < values.length; k++) s += values[k]! * stepH[k]!;
  return s;
}

function peak(values: Float64Array): number {
  let m = 0;
  for (let k = 0; k < values.length; k++) if (values[k]! > m) m = values[k]!;
  return m;
}

/** a/b, and 0 when b is 0 or the quotient overflows (vanishing flows of a random payload). */
function ratio(a: number, b: number): number {
  const q = b > 0 ? a / b : 0;
  return Number.isFinite(q) ? q : 0;
}

/** Builds the result document of a finished run. */
export function ccsResult(state: CcsRunState): Record<string, unknown> {
  const { payload, series: S, stepH, steps, dtS } = state;
  // A plain loop: `Array.from` walks a typed array through its iterator, 30-100 times slower
  // (a year at 1-minute steps took 2.5 s of the event loop; issue 18).
  const arr = (v: Float64Array): number[] => {
    const out = new Array<number>(v.length);
    for (let k = 0; k < v.length; k++) out[k] = v[k]!;
    return out;
  };
  const time = new Array<number>(steps);
  for (let k = 0; k < steps; k++) time[k] = k * dtS;
  const constant = (v: number): number[] => new Array<number>(steps).fill(v);

  const source = arr(S.source_co2_tph);
  const captured = arr(S.absorber_co2_captured_tph);
  const solvent = arr(S.absorber_solvent_flow_m3h);
  const absorberPower = arr(S.absorber_power_kw);
  const absorberTemp = constant(payload.absorber.operating_temperature_c);
  const released = arr(S.stripper_co2_released_tph);
  const heat = arr(S.stripper_heat_demand_kw);
  const stripperTemp = constant(payload.stripper.operating_temperature_c);
  const compPower = arr(S.compressor_power_kw);
  const compPressure = arr(S.compressor_outlet_pressure_bar);
  const compTemp = arr(S.compressor_temperature_c);
  const storePressure = arr(S.storage_pressure_bar);
  const fill = arr(S.storage_fill_pct);
  const mass = arr(S.storage_co2_mass_tonnes);
  const injection = arr(S.storage_injection_rate_tph);

  const totalSource = sumTimes(S.source_co2_tph, stepH);
  const totalCaptured = sumTimes(S.absorber_co2_captured_tph, stepH);
  const totalStored = sumTimes(S.storage_injection_rate_tph, stepH);
  const totalVented = sumTimes(S.storage_vented_tph, stepH);
  const heatKwh = sumTimes(S.stripper_heat_demand_kw, stepH);
  const absorberKwh = sumTimes(S.absorber_power_kw, stepH);
  const compressorKwh = sumTimes(S.compressor_power_kw, stepH);
  const electricKwh = absorberKwh + compressorKwh;
  const totalKwh = heatKwh + electricKwh;
  const hours = sumTimes(new Float64Array(steps).fill(1), stepH);
  const e = payload.economics;
  const peakCaptured = peak(S.absorber_co2_captured_tph);
  const cost = captureCost(
    ratio(heatKwh, totalCaptured) / 1000,
    ratio(electricKwh, totalCaptured) / 1000,
    ratio(ratio(totalCaptured, hours), peakCaptured),
    {
      capexEurPerTph: e.capex_eur_per_tph,
      fomPctPerYr: e.fom_pct_per_yr,
      lifetimeYr: e.lifetime_yr,
      discountRatePct: e.discount_rate_pct,
      fullLoadHours: e.full_load_hours,
      heatPriceEurMwh: e.heat_price_eur_mwh,
      electricityPriceEurMwh: e.electricity_price_eur_mwh,
      transportEurT: e.transport_cost_eur_t,
      storageEurT: e.storage_cost_eur_t,
    },
  );
  const parasiticT = (heatKwh * e.heat_emission_factor_kg_kwh +
    electricKwh * e.electricity_emission_factor_kg_kwh) / 1000;
  const avgCapture = 100 * ratio(totalCaptured, totalSource);
  const specificKwh = ratio(totalKwh, totalCaptured);
  const kpi = {
    // the dashboard's KPI cards
    total_co2_captured_tonnes: totalCaptured,
    total_co2_stored_tonnes: totalStored,
    average_capture_rate_pct: avgCapture,
    specific_energy_kwh_tco2: specificKwh,
    total_energy_kwh: totalKwh,
    total_absorber_energy_kwh: absorberKwh,
    total_compressor_energy_kwh: compressorKwh,
    // the documented (docstring) set
    total_co2_captured_tco2: totalCaptured,
    total_co2_stored_tco2: totalStored,
    avg_capture_rate_pct: avgCapture,
    specific_energy_gj_tco2: specificKwh / KWH_PER_GJ,
    total_energy_consumed_gwh: totalKwh / 1e6,
    avoided_emissions_tco2: totalStored - parasiticT,
    capture_cost_usd_tco2: cost.totalEurT * e.usd_per_eur,
    // the research notes' additions
    total_co2_captured_t: totalCaptured,
    total_co2_stored_t: totalStored,
    total_co2_source_tonnes: totalSource,
    total_co2_vented_tonnes: totalVented,
    total_stripper_heat_kwh: heatKwh,
    total_electric_energy_kwh: electricKwh,
    specific_reboiler_duty_gj_tco2: ratio(heatKwh, totalCaptured) / KWH_PER_GJ,
    specific_thermal_energy_kwh_tco2: ratio(heatKwh, totalCaptured),
    specific_electric_energy_kwh_tco2: ratio(electricKwh, totalCaptured),
    specific_compression_energy_kwh_tco2: state.compression.totalKwhT,
    parasitic_emissions_tco2: parasiticT,
    peak_co2_captured_tph: peakCaptured,
    capture_cost_eur_tco2: cost.totalEurT,
    cost_per_tonne_captured_eur: cost.totalEurT,
    cost_per_tonne_stored_eur: ratio(cost.totalEurT * totalCaptured, totalStored),
    cost_capital_eur_tco2: cost.capitalEurT,
    cost_heat_eur_tco2: cost.heatEurT,
    cost_electricity_eur_tco2: cost.electricityEurT,
    cost_transport_eur_tco2: cost.transportEurT,
    cost_storage_eur_tco2: cost.storageEurT,
    final_storage_fill_pct: fill[steps - 1] ?? 0,
  };
  return {
    schema_version: "2.0",
    time_s: time,
    dt_s: dtS,
    source_co2_tph: source,
    absorber_co2_captured_tph: captured,
    absorber_solvent_flow_m3h: solvent,
    absorber_power_kw: absorberPower,
    absorber_temperature_c: absorberTemp,
    stripper_co2_released_tph: released,
    stripper_heat_demand_kw: heat,
    stripper_temperature_c: stripperTemp,
    compressor_power_kw: compPower,
    compressor_outlet_pressure_bar: compPressure,
    compressor_temperature_c: compTemp,
    storage_pressure_bar: storePressure,
    storage_fill_pct: fill,
    storage_co2_mass_tonnes: mass,
    storage_injection_rate_tph: injection,
    source: {
      co2_tph: source,
      co2_concentration_pct: arr(S.source_co2_pct),
      flue_gas_flow_kg_s: arr(S.flue_gas_flow_kg_s),
    },
    absorber: {
      co2_captured_tph: captured,
      capture_efficiency_pct: arr(S.absorber_capture_efficiency_pct),
      solvent_flow_m3h: solvent,
      power_kw: absorberPower,
      fan_power_kw: arr(S.absorber_fan_power_kw),
      pump_power_kw: arr(S.absorber_pump_power_kw),
      temperature_c: absorberTemp,
    },
    stripper: { co2_released_tph: released, heat_demand_kw: heat, temperature_c: stripperTemp },
    compressor: {
      power_kw: compPower,
      outlet_pressure_bar: compPressure,
      temperature_c: compTemp,
    },
    storage: {
      injection_rate_tph: injection,
      vented_tph: arr(S.storage_vented_tph),
      co2_mass_tonnes: mass,
      pressure_bar: storePressure,
      fill_pct: fill,
    },
    kpi,
    warnings: warnings(state, totalSource, totalCaptured),
  };
}

/** Plain-language notes on limits the run hit (solvent capacity, injection rate, full store). */
function warnings(state: CcsRunState, totalSource: number, totalCaptured: number): string[] {
  const { payload, series: S } = state;
  const out: string[] = [];
  const design = payload.absorber.capture_efficiency_pct;
  const avg = 100 * ratio(totalCaptured, totalSource);
  if (totalSource > 0 && avg < design - 0.5) {
    const lg = requiredLiquidToGasRatio(
      design / 100,
      payload.source.co2_concentration_pct,
      {
        amineKmolM3: payload.absorber.amine_concentration_kmol_m3,
        deltaAlpha: payload.absorber.cyclic_loading_mol_mol,
        densityKgM3: payload.absorber.solvent_density_kg_m3,
      },
    );
    out.push(
      `absorber: the solvent flow limits capture to ${avg.toFixed(1)} % (design ${design} %); ` +
        `${design} % needs L/G ≈ ${lg.toFixed(2)} kg/kg`,
    );
  }
  // Venting beyond the storage-efficiency loss means the rate or the capacity bound injection.
  const efficiency = payload.storage.storage_efficiency_pct / 100;
  const limited = S.storage_injection_rate_tph.some((inj, k) =>
    inj < S.absorber_co2_captured_tph[k]! * efficiency - 1e-9
  );
  if (limited) {
    out.push(
      "storage: the injection rate or the store's capacity limited injection; the rest was vented",
    );
  }
  return out;
}
