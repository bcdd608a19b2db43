/**
 * The payloads the existing client (TEMPO, HEAD bcc7720) sends, rebuilt by its own rules:
 * `src/services/h2SimPayload.js` `buildSimPayload` with its defaults and the solar shape of
 * `h2SourceProfiles.js` `buildTheoreticalSourceProfile`; `src/services/ccsSimPayload.js`
 * `buildSimPayload` as `HydrogenPlantDashboard.jsx` drives it (its ±5 % random profile made
 * deterministic here). Research notes /work/shared/research/simulation.md §1.2, §1.3.
 */

/** The client's solar profile: a Gaussian day around 12:30, zero before 5:30 and after 19:30. */
function solarProfile(capacityKw: number, tEndS: number, dtS: number) {
  const dt = Math.max(60, dtS);
  const points: { time_s: number; power_kw: number }[] = [];
  for (let time_s = 0; time_s <= tEndS; time_s += dt) {
    const h = (time_s / 3600) % 24;
    const raw = Math.exp(-0.5 * ((h - 12.5) / 2.4) ** 2);
    points.push({ time_s, power_kw: Math.round((h < 5.5 || h > 19.5 ? 0 : raw) * capacityKw) });
  }
  return points;
}

/** The hydrogen payload for a 1 MW solar source and a 1 MW PEM electrolyser, one day. */
export function hydrogenClientPayload(tEndS = 86_400, dtS = 300) {
  const elzCap = 1000;
  const fcRated = Math.round(elzCap * 0.70 * 0.58); // the client's derived FC size
  return {
    schema_version: "2.0",
    simulation: { t_end_s: tEndS, dt_s: dtS },
    source: {
      tech_type: "solar",
      name: null,
      capacity_kw: elzCap,
      efficiency_pct: null,
      profile: solarProfile(elzCap, tEndS, dtS),
    },
    electrolyzer: {
      tech_type: "pem",
      name: null,
      capacity_kw: elzCap,
      nominal_efficiency_pct_hhv: 70,
      min_load_pct: 0,
      max_load_pct: 100,
      operating_temperature_c: 80,
      water_flow_rate_lpm: 90,
      h2_hhv_kwh_per_kg: 39.4,
    },
    compressor: {
      tech_type: "reciprocating",
      name: null,
      isentropic_efficiency_frac: 0.78,
      inlet_pressure_bar: 30,
      target_pressure_bar: 350,
    },
    storage: {
      tech_type: "compressed_h2",
      name: null,
      max_pressure_bar: 350,
      min_pressure_bar: 20,
      initial_soc_pct: 20,
      round_trip_efficiency_pct: 99,
    },
    fuel_cell: {
      tech_type: "pem",
      name: null,
      rated_power_kw: fcRated,
      nominal_efficiency_pct: 58,
      min_load_pct: 0,
      h2_flow_rate_nm3h: Math.ceil(fcRated / (3.542 * 0.58)),
      operating_pressure_bar: 2.5,
      cooling_capacity_kw: 35,
    },
  };
}

/** The carbon-capture payload of the dashboard's defaults: a 400 MW gas plant, one day. */
export function ccsClientPayload(tEndS = 86_400, dtS = 900) {
  const capacityKw = 400_000;
  const efficiencyPct = 58;
  const flue = Math.round((capacityKw / (efficiencyPct / 100)) * 3.24);
  const base = capacityKw * 0.38 / 1000;
  const steps = Math.min(Math.ceil(tEndS / dtS), 2000);
  const profile = Array.from({ length: steps + 1 }, (_, i) => ({
    time_s: i * dtS,
    co2_tph: Number((base * (1 + 0.05 * Math.sin(i * 1.7))).toFixed(2)),
  }));
  const injectionMt = 5;
  return {
    schema_version: "2.0",
    simulation: { t_end_s: tEndS, dt_s: dtS },
    source: {
      tech_type: "gas_plant",
      name: "Flue Gas Source",
      co2_concentration_pct: 12,
      flue_gas_flow_nm3h: flue,
      temperature_c: 120,
      pressure_bar: 1.08,
      profile,
    },
    absorber: {
      tech_type: "mea",
      name: "CO₂ Absorber",
      capture_efficiency_pct: 90,
      solvent_flow_rate_m3h: 500,
      packing_height_m: 20,
      column_diameter_m: Math.max(
        2,
        Math.round(Math.sqrt(flue / 3600 / 1.5 / Math.PI) * 2 * 2) / 2,
      ),
      operating_temperature_c: 40,
      operating_pressure_bar: 1.1,
    },
    stripper: {
      tech_type: "thermal",
      name: "CO₂ Stripper",
      regeneration_energy_kwh_tco2: 3.7 * 277.78,
      steam_pressure_bar: 3.5,
      operating_temperature_c: 120,
      co2_purity_pct: 98,
    },
    compressor: {
      tech_type: "multistage",
      name: "CO₂ Compressor",
      num_stages: 4,
      isentropic_efficiency_frac: 0.82,
      inlet_pressure_bar: 1.5,
      target_pressure_bar: 110,
      intercooler_efficiency_pct: 80,
    },
    storage: {
      tech_type: "saline_aquifer",
      name: "CO₂ Storage",
      max_pressure_bar: 150 * 1.05,
      min_pressure_bar: 150 * 0.5,
      initial_fill_pct: 10,
      capacity_tonnes: Math.max(injectionMt * 1e6 * Math.max(1, (tEndS / 31_536_000) * 10), 1e6),
      injection_rate_tph: Math.round((injectionMt * 1e6) / 8760 * 10) / 10,
      permeability_md: 200,
      porosity_pct: 18,
    },
  };
}
