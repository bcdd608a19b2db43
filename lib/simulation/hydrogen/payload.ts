/**
 * The hydrogen plant payload, schema version 2.0 as the existing client builds it
 * (`h2SimPayload.js` `buildSimPayload`, research notes 1.2), with the client's defaults. Also
 * accepted: the British `electrolyser` section, `profile[].t_s` / `power_w` and the optional tank
 * size `storage.volume_m3` or `storage.capacity_kg` (without them the tank holds 4 h of rated
 * production). The output is the canonical payload the model runs.
 */
import { z } from "zod";
import { MAX_PROFILE_POINTS, MAX_STEPS } from "../simulation_model.ts";
import { pointNumber, pointRecord, profilePoints, type ReportProblem } from "../profile_points.ts";

const pct = (d: number) => z.number().min(0).max(100).default(d);
const positive = (d: number) => z.number().positive().default(d);

/** One point of the source power profile (kW at a time in s), aliases `t_s` and `power_w`. */
export interface PowerPoint {
  time_s: number;
  power_kw: number;
}

/** Reads one profile point; the aliases as the client's older builders spell them. */
function readPowerPoint(raw: unknown, report: ReportProblem): PowerPoint | undefined {
  const p = pointRecord(raw, report);
  if (!p) return undefined;
  const time = pointNumber(p["time_s"] ?? p["t_s"], "time_s", report, { min: 0 });
  // `power_w` (W) only where `power_kw` is absent, as the client's older builders send it.
  const watts = p["power_kw"] == null && typeof p["power_w"] === "number";
  const power = watts
    ? pointNumber(p["power_w"], "power_w", report, { min: 0 })
    : pointNumber(p["power_kw"], "power_kw", report, { min: 0 });
  if (typeof time !== "number" || typeof power !== "number") return undefined;
  return { time_s: time, power_kw: watts ? power / 1000 : power };
}

/** A unit's name; the client sends `null` when no catalogue model was picked. */
const unitName = (fallback: string) => z.string().nullish().transform((value) => value ?? fallback);

const Source = z.object({
  tech_type: z.string().default("solar"),
  name: unitName("source"),
  capacity_kw: z.number().positive().default(1000).describe("rated source power, kW"),
  efficiency_pct: z.number().min(0).max(100).nullable().default(null),
  profile: profilePoints(readPowerPoint, MAX_PROFILE_POINTS).default([]).describe(
    "source power [{time_s, power_kw}], resampled onto the dt_s grid by zero-order hold; " +
      "empty: the source runs at capacity",
  ),
});

const Electrolyzer = z.object({
  tech_type: z.enum(["pem", "alkaline", "soec", "aem"]).default("pem"),
  name: unitName("electrolyzer"),
  capacity_kw: positive(1000).describe("rated AC power, kW"),
  nominal_efficiency_pct_hhv: z.number().gt(0).max(100).default(70).describe(
    "system efficiency at rated power, HHV basis, %",
  ),
  min_load_pct: pct(0),
  max_load_pct: z.number().gt(0).max(200).default(100),
  operating_temperature_c: z.number().min(0).max(1000).default(80),
  water_flow_rate_lpm: z.number().min(0).default(90),
  h2_hhv_kwh_per_kg: z.number().positive().default(39.4),
  power_electronics_efficiency_pct: z.number().gt(0).max(100).default(93).describe(
    "rectifier and load-proportional balance of plant, %",
  ),
  bop_load_pct: z.number().min(0).max(50).default(1).describe(
    "fixed balance-of-plant load while running, % of capacity",
  ),
});

const Compressor = z.object({
  tech_type: z.string().default("reciprocating"),
  name: unitName("compressor"),
  isentropic_efficiency_frac: z.number().gt(0).max(1).default(0.78),
  inlet_pressure_bar: positive(30).describe("electrolyser delivery pressure, bar"),
  target_pressure_bar: positive(350),
  motor_efficiency_frac: z.number().gt(0).max(1).default(0.95),
  inlet_temperature_c: z.number().min(-50).max(200).default(30),
});

const Storage = z.object({
  tech_type: z.string().default("compressed_h2"),
  name: unitName("storage"),
  max_pressure_bar: z.number().positive().optional().describe("default: compressor target"),
  min_pressure_bar: z.number().min(0).default(20),
  initial_soc_pct: pct(20),
  round_trip_efficiency_pct: z.number().gt(0).max(100).default(99).describe(
    "applied as a fill loss, %",
  ),
  volume_m3: z.number().positive().optional(),
  capacity_kg: z.number().positive().optional().describe("usable mass, kg"),
});

const FuelCell = z.object({
  tech_type: z.string().default("pem"),
  name: unitName("fuel_cell"),
  rated_power_kw: z.number().min(0).optional().describe(
    "default: electrolyser capacity × HHV efficiency × fuel cell efficiency",
  ),
  nominal_efficiency_pct: z.number().gt(0).lt(100).default(58).describe(
    "DC electrical efficiency, LHV basis, %",
  ),
  min_load_pct: pct(0),
  h2_flow_rate_nm3h: z.number().min(0).nullable().optional(),
  operating_pressure_bar: z.number().min(0).default(2.5),
  cooling_capacity_kw: z.number().min(0).default(35),
});

const RawPayload = z.object({
  schema_version: z.string().default("2.0"),
  simulation: z.object({
    t_end_s: positive(3600).describe("simulated time, s"),
    dt_s: positive(60).describe("time step, s"),
  }).prefault({}),
  source: Source.prefault({}),
  electrolyzer: Electrolyzer.prefault({}),
  compressor: Compressor.prefault({}),
  storage: Storage.prefault({}),
  fuel_cell: FuelCell.prefault({}),
});

/** The payload schema: the client's payload in, the canonical payload with defaults out. */
export const hydrogenPayloadSchema = z.preprocess(
  (v) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    const p = v as Record<string, unknown>;
    if (p["electrolyzer"] === undefined && p["electrolyser"] !== undefined) {
      return { ...p, electrolyzer: p["electrolyser"] };
    }
    return v;
  },
  RawPayload,
).superRefine((p, ctx) => {
  if (p.electrolyzer.min_load_pct > p.electrolyzer.max_load_pct) {
    ctx.addIssue({
      code: "custom",
      path: ["electrolyzer", "min_load_pct"],
      message: `min_load_pct ${p.electrolyzer.min_load_pct} exceeds max_load_pct`,
    });
  }
  const maxP = p.storage.max_pressure_bar ?? p.compressor.target_pressure_bar;
  if (!(maxP > p.storage.min_pressure_bar)) {
    ctx.addIssue({
      code: "custom",
      path: ["storage", "min_pressure_bar"],
      message:
        `min_pressure_bar ${p.storage.min_pressure_bar} is not below max_pressure_bar ${maxP}`,
    });
  }
  if (maxP > 1000) {
    ctx.addIssue({
      code: "custom",
      path: ["storage", "max_pressure_bar"],
      message: `max_pressure_bar ${maxP} is beyond the 1000 bar of the real-gas correlation`,
    });
  }
}).transform((p) => {
  const fcEfficiency = p.fuel_cell.nominal_efficiency_pct / 100;
  return {
    ...p,
    storage: {
      ...p.storage,
      max_pressure_bar: p.storage.max_pressure_bar ?? p.compressor.target_pressure_bar,
    },
    fuel_cell: {
      ...p.fuel_cell,
      rated_power_kw: p.fuel_cell.rated_power_kw ??
        p.electrolyzer.capacity_kw * (p.electrolyzer.nominal_efficiency_pct_hhv / 100) *
          fcEfficiency,
    },
  };
});

/** The canonical hydrogen plant payload. */
export type HydrogenPayload = z.output<typeof hydrogenPayloadSchema>;

/** Steps of a run: ceil(t_end_s / dt_s). */
export function stepCount(p: HydrogenPayload): number {
  return Math.max(1, Math.ceil(p.simulation.t_end_s / p.simulation.dt_s - 1e-9));
}

/** Size problems of a valid payload (steps, profile points), each naming its field. */
export function hydrogenLimits(p: HydrogenPayload): string[] {
  const problems: string[] = [];
  const steps = p.simulation.t_end_s / p.simulation.dt_s;
  if (steps > MAX_STEPS) {
    problems.push(
      `simulation.t_end_s / simulation.dt_s = ${Math.ceil(steps)} steps exceeds ${MAX_STEPS}`,
    );
  }
  if (p.source.profile.length > MAX_PROFILE_POINTS) {
    problems.push(
      `source.profile has ${p.source.profile.length} points, more than ${MAX_PROFILE_POINTS}`,
    );
  }
  return problems;
}
