/**
 * The zod schema of the legacy individual format: one JSON file per technology, recognised by
 * having neither a `metadata` nor a `technologies` member. Its `id` is a UUID and each instance
 * holds nested parameter values `{value, unit, source?}` in the internal units (capacity in kW,
 * efficiency as a fraction, CO2 in tCO2/MWh, ramping in %/min). Units are checked, never
 * converted silently: a value in any other unit is a problem.
 *
 * JSON Schema for editors: `data/schemas/catalogue_legacy.schema.json`.
 */
import { z } from "zod";
import { DOMAINS, LIFECYCLES } from "./technology_schema.ts";

/** A parameter value whose `unit` must be one of `units` (written exactly so). */
function parameterValue(units: readonly [string, ...string[]], range: z.ZodNumber, what: string) {
  return z.strictObject({
    value: range.describe("The number"),
    unit: z.enum(units, {
      error: (iss) => `unit must be one of ${units.join(", ")}, got ${JSON.stringify(iss.input)}`,
    }).describe(`Unit: ${units.join(" or ")}`),
    source: z.string().min(1).optional().describe("Where the value comes from"),
  }).describe(what);
}

/** Accepted units per legacy parameter. */
export const LEGACY_UNITS = {
  capacity_kw: ["kW"],
  capex_per_kw: ["USD/kW"],
  opex_fixed_per_kw_yr: ["USD/kW/yr", "USD/kW/year"],
  opex_var_per_mwh: ["USD/MWh"],
  electrical_efficiency: ["fraction", "p.u.", "per unit"],
  lifetime: ["years", "a"],
  co2_emission_factor: ["tCO2/MWh", "t/MWh"],
  ramp_up_rate: ["%/min"],
  ramp_down_rate: ["%/min"],
} as const satisfies Record<string, readonly [string, ...string[]]>;

/** One equipment instance of a legacy file. */
export const legacyInstanceSchema = z.strictObject({
  id: z.string().regex(
    /^[a-z0-9][a-z0-9_]*(-[a-z0-9][a-z0-9_]*)*$/,
    "must be lower-case snake_case words joined by '-'",
  ).optional().describe("Instance identifier; default `<file id>-<index>`"),
  name: z.string().min(1).describe("Display name"),
  year: z.number().int().min(1990).max(2100).optional().describe("Year the figures stand for"),
  capacity_kw: parameterValue(LEGACY_UNITS.capacity_kw, z.number().gt(0), "Typical unit size")
    .optional(),
  capex_per_kw: parameterValue(LEGACY_UNITS.capex_per_kw, z.number().min(0), "Investment")
    .optional(),
  opex_fixed_per_kw_yr: parameterValue(
    LEGACY_UNITS.opex_fixed_per_kw_yr,
    z.number().min(0),
    "Fixed O&M",
  ).optional(),
  opex_var_per_mwh: parameterValue(LEGACY_UNITS.opex_var_per_mwh, z.number().min(0), "Variable O&M")
    .optional(),
  electrical_efficiency: parameterValue(
    LEGACY_UNITS.electrical_efficiency,
    z.number().gt(0).max(10),
    "Efficiency as a fraction (0.57 = 57 %); above 1 only for heat pumps",
  ).optional(),
  lifetime: parameterValue(LEGACY_UNITS.lifetime, z.number().gt(0), "Technical lifetime")
    .optional(),
  co2_emission_factor: parameterValue(
    LEGACY_UNITS.co2_emission_factor,
    z.number().min(0),
    "Operational CO2 per MWh of output",
  ).optional(),
  ramp_up_rate: parameterValue(LEGACY_UNITS.ramp_up_rate, z.number().min(0), "Ramp-up rate")
    .optional(),
  ramp_down_rate: parameterValue(LEGACY_UNITS.ramp_down_rate, z.number().min(0), "Ramp-down rate")
    .optional(),
}).describe("One equipment instance with nested parameter values");

export type LegacyInstance = z.infer<typeof legacyInstanceSchema>;

/** A legacy technology file. */
export const legacyTechnologySchema = z.strictObject({
  id: z.uuid({ error: (iss) => `id must be a UUID, got ${JSON.stringify(iss.input)}` })
    .describe("Technology identifier, a UUID"),
  name: z.string().min(1).describe("Display name"),
  domain: z.enum(DOMAINS).describe("generation, storage, transmission or conversion"),
  carrier: z.string().regex(/^[a-z][a-z0-9_]*$/, "must be lower-case snake_case").describe(
    "Main energy carrier",
  ),
  oeo_class: z.url({ protocol: /^https?$/ }).optional().describe("Ontology class, full IRI"),
  description: z.string().min(1).optional().describe("Text"),
  tags: z.array(z.string().regex(/^[a-z][a-z0-9_]*$/, "must be lower-case snake_case"))
    .optional().describe("Tags"),
  lifecycle: z.enum(LIFECYCLES).optional().describe("Maturity of the technology"),
  profile_key: z.string().regex(/^[a-z][a-z0-9_]*$/, "must be lower-case snake_case").optional()
    .describe("Profile series of a variable renewable"),
  instances: z.array(legacyInstanceSchema).min(1, "needs at least one instance").describe(
    "Equipment instances",
  ),
}).describe("Legacy individual technology file (one technology per file)");

export type LegacyTechnology = z.infer<typeof legacyTechnologySchema>;
