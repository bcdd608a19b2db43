/**
 * The carbon-capture payload (schema version 2.0) as the existing client builds it, in both
 * spellings the research notes list (section 1.3: the dashboard's builder and its docstring
 * differ), with the client's defaults. The schema outputs one canonical payload.
 */
import { z } from "zod";
import { MAX_PROFILE_POINTS } from "../simulation_model.ts";
import { pointNumber, pointRecord, profilePoints, type ReportProblem } from "../profile_points.ts";

const num = z.number();
const pos = num.positive();
const nonNeg = num.nonnegative();
const pct = num.min(0).max(100);
const frac = num.positive().max(1);
const name = z.string().max(200).nullish();
const techType = z.string().max(100).nullish();

/** One point of the source profile: CO2 in t/h (the dashboard) or vol% (the docstring). */
export interface Co2Point {
  time_s: number;
  co2_tph: number | null;
  co2_pct: number | null;
}

/** Reads one profile point. */
function readCo2Point(raw: unknown, report: ReportProblem): Co2Point | undefined {
  const p = pointRecord(raw, report);
  if (!p) return undefined;
  const time = pointNumber(p["time_s"], "time_s", report, { min: 0 });
  const tph = pointNumber(p["co2_tph"], "co2_tph", report, { min: 0, optional: true });
  const pct = pointNumber(p["co2_pct"], "co2_pct", report, { min: 0, max: 100, optional: true });
  if (typeof time !== "number" || tph === undefined || pct === undefined) return undefined;
  return { time_s: time, co2_tph: tph, co2_pct: pct };
}

const rawPayload = z.object({
  schema_version: z.literal("2.0").default("2.0"),
  simulation: z.object({
    t_end_s: pos.default(86400).describe("horizon, s"),
    dt_s: pos.default(900).describe("time step, s"),
  }).default({ t_end_s: 86400, dt_s: 900 }),
  source: z.object({
    tech_type: techType,
    name,
    capacity_kw: pos.nullish().describe("rated capacity, kW"),
    efficiency_pct: pct.nullish().describe("plant efficiency, %"),
    co2_emission_kg_kwh: nonNeg.nullish().describe("emission factor, kg CO2/kWh"),
    co2_concentration_pct: num.positive().max(100).nullish().describe("flue-gas CO2, vol%"),
    flue_gas_flow_nm3h: pos.nullish().describe("flue-gas flow, Nm³/h"),
    temperature_c: num.nullish(),
    pressure_bar: pos.nullish(),
    profile: profilePoints(readCo2Point, MAX_PROFILE_POINTS).nullish().describe(
      "source [{time_s, co2_tph}] or [{time_s, co2_pct}], resampled by zero-order hold",
    ),
  }).default({}),
  absorber: z.object({
    tech_type: techType,
    name,
    capture_efficiency_pct: num.positive().max(100).nullish(),
    capture_rate_pct: num.positive().max(100).nullish(),
    solvent_flow_rate_m3h: nonNeg.nullish().describe("solvent circulation, m³/h"),
    l_g_ratio: pos.nullish().describe("liquid-to-gas mass ratio, kg/kg"),
    energy_requirement_gj_tco2: pos.nullish().describe("specific regeneration energy, GJ/t"),
    packing_height_m: pos.nullish(),
    column_diameter_m: pos.nullish(),
    operating_temperature_c: num.nullish(),
    absorption_temp_c: num.nullish(),
    operating_pressure_bar: pos.nullish(),
    amine_concentration_kmol_m3: pos.nullish(),
    cyclic_loading_mol_mol: num.positive().max(1).nullish(),
    solvent_density_kg_m3: pos.nullish(),
  }).default({}),
  stripper: z.object({
    tech_type: techType,
    name,
    regeneration_energy_kwh_tco2: pos.nullish().describe("specific regeneration energy, kWh/t"),
    energy_requirement_gj_tco2: pos.nullish(),
    energy_input_gj_tco2: pos.nullish(),
    thermal_efficiency_pct: num.positive().max(100).nullish(),
    steam_pressure_bar: pos.nullish(),
    operating_temperature_c: num.nullish(),
    reboiler_temp_c: num.nullish(),
    co2_purity_pct: num.positive().max(100).nullish(),
    heat_of_absorption_kj_mol: pos.nullish(),
    solvent_cp_kj_kg_k: pos.nullish(),
    approach_temperature_k: nonNeg.nullish(),
    stripping_steam_ratio: nonNeg.nullish(),
  }).default({}),
  compressor: z.object({
    tech_type: techType,
    name,
    num_stages: num.int().min(1).max(10).nullish(),
    isentropic_efficiency_frac: frac.nullish(),
    inlet_pressure_bar: pos.nullish(),
    target_pressure_bar: pos.nullish(),
    intercooler_efficiency_pct: pct.nullish(),
    intercooling_temp_c: num.nullish(),
    pump_efficiency_frac: frac.nullish(),
  }).default({}),
  storage: z.object({
    tech_type: techType,
    name,
    capacity_tonnes: pos.nullish(),
    injection_rate_tph: pos.nullish(),
    injection_rate_mtco2_yr: pos.nullish(),
    max_pressure_bar: pos.nullish(),
    min_pressure_bar: nonNeg.nullish(),
    reservoir_pressure_bar: pos.nullish(),
    initial_fill_pct: pct.nullish(),
    storage_efficiency_pct: pct.nullish(),
    storage_depth_m: pos.nullish(),
    permeability_md: pos.nullish(),
    porosity_pct: pct.nullish(),
  }).default({}),
  economics: z.object({
    capex_eur_per_tph: nonNeg.nullish(),
    fom_pct_per_yr: nonNeg.nullish(),
    lifetime_yr: pos.nullish(),
    discount_rate_pct: nonNeg.nullish(),
    full_load_hours: num.positive().max(8784).nullish(),
    heat_price_eur_mwh: nonNeg.nullish(),
    electricity_price_eur_mwh: nonNeg.nullish(),
    transport_cost_eur_t: nonNeg.nullish(),
    storage_cost_eur_t: nonNeg.nullish(),
    usd_per_eur: pos.nullish(),
    heat_emission_factor_kg_kwh: nonNeg.nullish(),
    electricity_emission_factor_kg_kwh: nonNeg.nullish(),
  }).default({}),
});

type RawPayload = z.output<typeof rawPayload>;

/** The canonical carbon-capture payload: one spelling, SI-ish units, every default filled. */
export interface CcsPayload {
  readonly schema_version: "2.0";
  readonly simulation: { readonly t_end_s: number; readonly dt_s: number };
  readonly source: {
    readonly tech_type: string;
    readonly name: string;
    /** Rated capacity, kW, when given. */
    readonly capacity_kw: number | null;
    readonly efficiency_pct: number | null;
    /** Emission factor, kg/kWh (0.38, the dashboard's default). */
    readonly co2_emission_kg_kwh: number;
    /** Flue-gas CO2 when the profile gives none, vol% (12). */
    readonly co2_concentration_pct: number;
    readonly flue_gas_flow_nm3h: number | null;
    readonly temperature_c: number;
    readonly pressure_bar: number;
    /** Which quantity the profile carries. */
    readonly profile_kind: "co2_tph" | "co2_pct" | "none";
    readonly profile_time_s: number[];
    readonly profile_value: number[];
  };
  readonly absorber: {
    readonly tech_type: string;
    readonly name: string;
    readonly capture_efficiency_pct: number;
    /** Solvent circulation, m³/h; null when sized from `l_g_ratio`. */
    readonly solvent_flow_rate_m3h: number | null;
    readonly l_g_ratio: number | null;
    readonly operating_temperature_c: number;
    readonly operating_pressure_bar: number;
    readonly packing_height_m: number;
    readonly column_diameter_m: number | null;
    readonly amine_concentration_kmol_m3: number;
    readonly cyclic_loading_mol_mol: number;
    readonly solvent_density_kg_m3: number;
  };
  readonly stripper: {
    readonly tech_type: string;
    readonly name: string;
    /** Given specific regeneration energy, GJ/t; null to compute it from the decomposition. */
    readonly regeneration_energy_gj_tco2: number | null;
    readonly thermal_efficiency_pct: number;
    readonly steam_pressure_bar: number;
    readonly operating_temperature_c: number;
    readonly co2_purity_pct: number;
    readonly heat_of_absorption_kj_mol: number;
    readonly solvent_cp_kj_kg_k: number;
    readonly approach_temperature_k: number;
    readonly stripping_steam_ratio: number;
  };
  readonly compressor: {
    readonly tech_type: string;
    readonly name: string;
    readonly num_stages: number;
    readonly isentropic_efficiency_frac: number;
    readonly inlet_pressure_bar: number;
    readonly target_pressure_bar: number;
    readonly intercooler_efficiency_pct: number;
    readonly intercooling_temp_c: number;
    readonly pump_efficiency_frac: number;
  };
  readonly storage: {
    readonly tech_type: string;
    readonly name: string;
    readonly capacity_tonnes: number;
    readonly injection_rate_tph: number;
    readonly max_pressure_bar: number;
    readonly min_pressure_bar: number;
    readonly initial_fill_pct: number;
    readonly storage_efficiency_pct: number;
    readonly storage_depth_m: number;
  };
  readonly economics: {
    readonly capex_eur_per_tph: number;
    readonly fom_pct_per_yr: number;
    readonly lifetime_yr: number;
    readonly discount_rate_pct: number;
    readonly full_load_hours: number;
    readonly heat_price_eur_mwh: number;
    readonly electricity_price_eur_mwh: number;
    readonly transport_cost_eur_t: number;
    readonly storage_cost_eur_t: number;
    readonly usd_per_eur: number;
    readonly heat_emission_factor_kg_kwh: number;
    readonly electricity_emission_factor_kg_kwh: number;
  };
}

/** kWh per GJ, for the client's `regeneration_energy_kwh_tco2` (= GJ/t · 277.78). */
const KWH_PER_GJ = 1e6 / 3600;
/** Hours in a year, for `injection_rate_mtco2_yr`. */
const HOURS_PER_YEAR = 8760;
/** Years of injection at the given rate that size a store whose capacity is not given. */
const DEFAULT_STORE_YEARS = 25;

function pick<T>(...values: (T | null | undefined)[]): T | null {
  for (const v of values) if (v !== null && v !== undefined) return v;
  return null;
}

function checkPayload(p: RawPayload, ctx: z.RefinementCtx): void {
  const profile = p.source.profile ?? [];
  if (profile.length > 0) {
    const allTph = profile.every((q) => q.co2_tph != null);
    const allPct = profile.every((q) => q.co2_pct != null);
    if (!allTph && !allPct) {
      const i = profile.findIndex((q) => q.co2_tph == null && q.co2_pct == null);
      ctx.addIssue({
        code: "custom",
        path: ["source", "profile", Math.max(0, i)],
        message: "every profile point needs co2_tph (t/h) or every point co2_pct (vol%)",
      });
    }
    if (!allTph && allPct && p.source.capacity_kw == null && p.source.flue_gas_flow_nm3h == null) {
      ctx.addIssue({
        code: "custom",
        path: ["source", "capacity_kw"],
        message:
          "a co2_pct profile needs source.capacity_kw (with co2_emission_kg_kwh) or source.flue_gas_flow_nm3h",
      });
    }
  } else if (p.source.capacity_kw == null && p.source.flue_gas_flow_nm3h == null) {
    ctx.addIssue({
      code: "custom",
      path: ["source", "profile"],
      message:
        "the source needs profile[].co2_tph, capacity_kw with co2_emission_kg_kwh, or flue_gas_flow_nm3h",
    });
  }
  const s = p.storage;
  const pRes = s.reservoir_pressure_bar ?? 150;
  const pMax = s.max_pressure_bar ?? 1.05 * pRes;
  const pMin = s.min_pressure_bar ?? 0.5 * pRes;
  if (pMin > pMax) {
    ctx.addIssue({
      code: "custom",
      path: ["storage", "min_pressure_bar"],
      message: `min_pressure_bar ${pMin} is above max_pressure_bar ${pMax}`,
    });
  }
}

function canonical(p: RawPayload): CcsPayload {
  const profile = p.source.profile ?? [];
  const kind = profile.length === 0
    ? "none"
    : profile.every((q) => q.co2_tph != null)
    ? "co2_tph"
    : "co2_pct";
  const a = p.absorber;
  const st = p.stripper;
  const c = p.compressor;
  const s = p.storage;
  const e = p.economics;
  const lg = a.l_g_ratio ?? null;
  const regenKwh = st.regeneration_energy_kwh_tco2;
  const pRes = s.reservoir_pressure_bar ?? 150;
  const injectionTph = pick(
    s.injection_rate_tph,
    s.injection_rate_mtco2_yr == null ? null : s.injection_rate_mtco2_yr * 1e6 / HOURS_PER_YEAR,
  ) ?? 5e6 / HOURS_PER_YEAR;
  const ef = p.source.co2_emission_kg_kwh ?? 0.38;
  return {
    schema_version: "2.0",
    simulation: { t_end_s: p.simulation.t_end_s, dt_s: p.simulation.dt_s },
    source: {
      tech_type: p.source.tech_type ?? "gas_plant",
      name: p.source.name ?? "CO2 source",
      capacity_kw: p.source.capacity_kw ?? null,
      efficiency_pct: p.source.efficiency_pct ?? null,
      co2_emission_kg_kwh: ef,
      co2_concentration_pct: p.source.co2_concentration_pct ?? 12,
      flue_gas_flow_nm3h: p.source.flue_gas_flow_nm3h ?? null,
      temperature_c: p.source.temperature_c ?? 120,
      pressure_bar: p.source.pressure_bar ?? 1.08,
      profile_kind: kind,
      profile_time_s: profile.map((q) => q.time_s),
      profile_value: kind === "co2_tph"
        ? profile.map((q) => q.co2_tph ?? 0)
        : profile.map((q) => q.co2_pct ?? 0),
    },
    absorber: {
      tech_type: a.tech_type ?? "mea",
      name: a.name ?? "MEA absorber",
      capture_efficiency_pct: pick(a.capture_efficiency_pct, a.capture_rate_pct) ?? 90,
      // the client's 500 m³/h applies only when neither a flow nor an L/G ratio is given
      solvent_flow_rate_m3h: a.solvent_flow_rate_m3h ?? (lg == null ? 500 : null),
      l_g_ratio: lg,
      operating_temperature_c: pick(a.operating_temperature_c, a.absorption_temp_c) ?? 40,
      operating_pressure_bar: a.operating_pressure_bar ?? 1.1,
      packing_height_m: a.packing_height_m ?? 20,
      column_diameter_m: a.column_diameter_m ?? null,
      amine_concentration_kmol_m3: a.amine_concentration_kmol_m3 ?? 4.96,
      cyclic_loading_mol_mol: a.cyclic_loading_mol_mol ?? 0.25,
      solvent_density_kg_m3: a.solvent_density_kg_m3 ?? 1010,
    },
    stripper: {
      tech_type: st.tech_type ?? "thermal",
      name: st.name ?? "Stripper",
      regeneration_energy_gj_tco2: pick(
        regenKwh == null ? null : regenKwh / KWH_PER_GJ,
        st.energy_requirement_gj_tco2,
        st.energy_input_gj_tco2,
        a.energy_requirement_gj_tco2,
      ),
      thermal_efficiency_pct: st.thermal_efficiency_pct ?? 100,
      steam_pressure_bar: st.steam_pressure_bar ?? 3.5,
      operating_temperature_c: pick(st.operating_temperature_c, st.reboiler_temp_c) ?? 120,
      co2_purity_pct: st.co2_purity_pct ?? 98,
      heat_of_absorption_kj_mol: st.heat_of_absorption_kj_mol ?? 85,
      solvent_cp_kj_kg_k: st.solvent_cp_kj_kg_k ?? 3.7,
      approach_temperature_k: st.approach_temperature_k ?? 10,
      stripping_steam_ratio: st.stripping_steam_ratio ?? 1.0,
    },
    compressor: {
      tech_type: c.tech_type ?? "multistage",
      name: c.name ?? "CO2 compressor",
      num_stages: c.num_stages ?? 4,
      isentropic_efficiency_frac: c.isentropic_efficiency_frac ?? 0.82,
      inlet_pressure_bar: c.inlet_pressure_bar ?? 1.5,
      target_pressure_bar: c.target_pressure_bar ?? 110,
      intercooler_efficiency_pct: c.intercooler_efficiency_pct ?? 80,
      intercooling_temp_c: c.intercooling_temp_c ?? 40,
      pump_efficiency_frac: c.pump_efficiency_frac ?? 0.75,
    },
    storage: {
      tech_type: s.tech_type ?? "saline_aquifer",
      name: s.name ?? "CO2 store",
      capacity_tonnes: s.capacity_tonnes ?? injectionTph * HOURS_PER_YEAR * DEFAULT_STORE_YEARS,
      injection_rate_tph: injectionTph,
      max_pressure_bar: s.max_pressure_bar ?? 1.05 * pRes,
      min_pressure_bar: s.min_pressure_bar ?? 0.5 * pRes,
      initial_fill_pct: s.initial_fill_pct ?? 10,
      storage_efficiency_pct: s.storage_efficiency_pct ?? 99,
      storage_depth_m: s.storage_depth_m ?? 1500,
    },
    economics: {
      capex_eur_per_tph: e.capex_eur_per_tph ?? 3.27e6,
      fom_pct_per_yr: e.fom_pct_per_yr ?? 3,
      lifetime_yr: e.lifetime_yr ?? 25,
      discount_rate_pct: e.discount_rate_pct ?? 7,
      full_load_hours: e.full_load_hours ?? 8000,
      heat_price_eur_mwh: e.heat_price_eur_mwh ?? 20,
      electricity_price_eur_mwh: e.electricity_price_eur_mwh ?? 60,
      transport_cost_eur_t: e.transport_cost_eur_t ?? 0,
      storage_cost_eur_t: e.storage_cost_eur_t ?? 30,
      usd_per_eur: e.usd_per_eur ?? 1.08,
      // natural gas burnt for steam: 56 kg/GJ = 0.202 kg/kWh_th
      heat_emission_factor_kg_kwh: e.heat_emission_factor_kg_kwh ?? 0.202,
      electricity_emission_factor_kg_kwh: e.electricity_emission_factor_kg_kwh ?? ef,
    },
  };
}

/**
 * The carbon-capture payload schema: accepts either spelling (`capture_efficiency_pct` or
 * `capture_rate_pct`, `regeneration_energy_kwh_tco2` or `energy_requirement_gj_tco2`,
 * `profile[].co2_tph` or `profile[].co2_pct`, `injection_rate_tph` or
 * `injection_rate_mtco2_yr`, ...) and outputs the canonical `CcsPayload`.
 */
export const ccsPayloadSchema: z.ZodType<CcsPayload> = rawPayload
  .superRefine(checkPayload)
  .transform(canonical);
