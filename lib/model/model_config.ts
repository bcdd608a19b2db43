/**
 * The runner's model: ModelConfig JSON with Calliope 0.6 names and meanings (spec 002 part B,
 * issue 9 section 1). One zod schema validates it, types it and is exported as JSON Schema for
 * the frontend and the backend. Defaults are not filled in here: `resolveModel` applies
 * Calliope's `defaults.yaml` so an absent key stays distinguishable from a default one (some
 * Calliope constraints exist only when their key is set).
 *
 * Infinity is written `"inf"` (also `".inf"`, `"-inf"`, `"-.inf"`). A time-varying value is a
 * reference to a series of `timeSeries`: `file=ID.csv:column` (Calliope's spelling; without the
 * column, the location's id) or `ts:ID:column`.
 */
import { timeConfigSchema } from "./time/time_config_schema.ts";
import { sporesOptionsSchema } from "./spores/spores_options.ts";
import { operateOptionsSchema } from "./operate/operate_options.ts";
import { z } from "zod";
import { groupConstraintsSchema } from "./group_constraints_schema.ts";

/** Calliope 0.6 abstract base technology groups (a technology's `type`). */
export const TECH_TYPES = [
  "supply",
  "supply_plus",
  "demand",
  "storage",
  "transmission",
  "conversion",
  "conversion_plus",
] as const;
export type TechType = typeof TECH_TYPES[number];

/** A technology's carrier keys, in Calliope's order (the same in ModelConfig and Calliope YAML). */
export const CARRIER_KEYS = [
  "carrier",
  "carrier_in",
  "carrier_in_2",
  "carrier_in_3",
  "carrier_out",
  "carrier_out_2",
  "carrier_out_3",
  "primary_carrier_in",
  "primary_carrier_out",
] as const;

const INFINITY_WORDS = ["inf", ".inf", "-inf", "-.inf"] as const;

/** A number, or infinity spelled as text. */
export const quantitySchema = z.union([z.number(), z.enum(INFINITY_WORDS)]);

/** A reference to a column of a time series: `file=ID.csv[:column]` or `ts:ID:column`. */
export const SERIES_REFERENCE_PATTERN = /^(file=[^:]+(:.+)?|ts:[^:]+:.+)$/;
export const seriesReferenceSchema = z.string().regex(
  SERIES_REFERENCE_PATTERN,
  "a time-series reference is file=ID.csv:column or ts:ID:column",
);

/** A number, infinity, or a time-series reference. */
export const seriesOrQuantitySchema = z.union([quantitySchema, seriesReferenceSchema]);
/** A boolean, or a time-series reference (Calliope's `file_allowed` booleans). */
const flagSchema = z.union([z.boolean(), seriesReferenceSchema]);

/** Calliope 0.6 keys the runner knows but does not implement (a 400 says so). */
export const NOT_IMPLEMENTED_KEYS = ["one_way", "storage_time_max"] as const;

/** Technology constraints (Calliope 0.6 `constraints`), every one the runner implements. */
export const constraintsSchema = z.strictObject({
  carrier_ratios: z.partialRecord(
    z.enum([
      "carrier_in_2",
      "carrier_in_3",
      "carrier_out_2",
      "carrier_out_3",
      "carrier_in",
      "carrier_out",
    ]),
    z.record(z.string(), z.number().nonnegative()),
  ).optional().describe(
    "Ratios of secondary to primary carriers (conversion_plus), by tier and carrier",
  ),
  charge_rate: quantitySchema.optional().describe(
    "Deprecated alias of energy_cap_per_storage_cap_max (1/h)",
  ),
  energy_cap_equals: quantitySchema.optional().describe("Fixed energy capacity (kW)"),
  energy_cap_equals_systemwide: quantitySchema.optional().describe(
    "Fixed capacity summed over locations (kW)",
  ),
  energy_cap_max: quantitySchema.optional().describe("Maximum energy capacity (kW)"),
  energy_cap_max_systemwide: quantitySchema.optional().describe(
    "Maximum capacity summed over locations (kW)",
  ),
  energy_cap_min: quantitySchema.optional().describe("Minimum energy capacity (kW)"),
  energy_cap_min_use: quantitySchema.optional().describe(
    "Minimum production as a fraction of capacity",
  ),
  energy_cap_per_storage_cap_equals: quantitySchema.optional().describe(
    "Energy per storage capacity (1/h)",
  ),
  energy_cap_per_storage_cap_max: quantitySchema.optional().describe(
    "Maximum energy per storage capacity (1/h)",
  ),
  energy_cap_per_storage_cap_min: quantitySchema.optional().describe(
    "Minimum energy per storage capacity (1/h)",
  ),
  energy_cap_scale: quantitySchema.optional().describe("Scale of all energy_cap bounds"),
  energy_con: flagSchema.optional().describe("May consume its carrier"),
  energy_eff: seriesOrQuantitySchema.optional().describe("Conversion efficiency (fraction)"),
  energy_eff_per_distance: quantitySchema.optional().describe(
    "Transmission efficiency per metre (fraction)",
  ),
  energy_prod: flagSchema.optional().describe("May produce its carrier"),
  energy_ramping: seriesOrQuantitySchema.optional().describe(
    "Ramping rate (fraction of capacity per hour)",
  ),
  export_cap: quantitySchema.optional().describe("Maximum export (kW)"),
  export_carrier: z.string().optional().describe("Carrier that may be exported"),
  force_resource: flagSchema.optional().describe("Use all available resource"),
  lifetime: quantitySchema.optional().describe("Lifetime (years)"),
  parasitic_eff: seriesOrQuantitySchema.optional().describe("Parasitic efficiency (fraction)"),
  resource: seriesOrQuantitySchema.optional().describe(
    "Available resource per timestep (kWh, kWh/m², kWh/kW)",
  ),
  resource_area_equals: quantitySchema.optional().describe("Fixed resource area (m²)"),
  resource_area_max: quantitySchema.optional().describe("Maximum resource area (m²)"),
  resource_area_min: quantitySchema.optional().describe("Minimum resource area (m²)"),
  resource_area_per_energy_cap: quantitySchema.optional().describe(
    "Resource area per energy capacity (m²/kW)",
  ),
  resource_cap_equals: quantitySchema.optional().describe("Fixed resource capacity (kW)"),
  resource_cap_equals_energy_cap: z.boolean().optional().describe(
    "Resource capacity equals energy capacity",
  ),
  resource_cap_max: quantitySchema.optional().describe("Maximum resource capacity (kW)"),
  resource_cap_min: quantitySchema.optional().describe("Minimum resource capacity (kW)"),
  resource_eff: seriesOrQuantitySchema.optional().describe(
    "Resource capture efficiency (fraction)",
  ),
  resource_min_use: quantitySchema.optional().describe("Minimum resource use (fraction)"),
  resource_scale: quantitySchema.optional().describe("Scale of the resource"),
  resource_unit: z.enum(["energy", "energy_per_area", "energy_per_cap"]).optional()
    .describe("Unit of the resource"),
  storage_cap_equals: quantitySchema.optional().describe("Fixed storage capacity (kWh)"),
  storage_cap_max: quantitySchema.optional().describe("Maximum storage capacity (kWh)"),
  storage_cap_min: quantitySchema.optional().describe("Minimum storage capacity (kWh)"),
  storage_discharge_depth: quantitySchema.optional().describe("Minimum state of charge (fraction)"),
  storage_initial: quantitySchema.optional().describe("Initial state of charge (fraction)"),
  storage_loss: seriesOrQuantitySchema.optional().describe("Storage loss (fraction per hour)"),
  // MILP (integer units and purchase): see lib/model/preprocess/milp_settings.ts.
  units_equals: quantitySchema.optional().describe("Fixed number of integer units (makes a MILP)"),
  units_max: quantitySchema.optional().describe("Maximum number of integer units (makes a MILP)"),
  units_min: quantitySchema.optional().describe("Minimum number of integer units (makes a MILP)"),
  units_equals_systemwide: quantitySchema.optional().describe(
    "Fixed number of units summed over locations",
  ),
  units_max_systemwide: quantitySchema.optional().describe(
    "Maximum number of units summed over locations",
  ),
  energy_cap_per_unit: quantitySchema.optional().describe("Energy capacity of one unit (kW)"),
  storage_cap_per_unit: quantitySchema.optional().describe("Storage capacity of one unit (kWh)"),
  force_asynchronous_prod_con: z.boolean().optional().describe(
    "Never produce and consume in the same timestep (a binary per timestep)",
  ),
});
export type Constraints = z.infer<typeof constraintsSchema>;

/** Costs of one cost class (Calliope 0.6 `costs.<class>`). */
export const costsSchema = z.strictObject({
  depreciation_rate: quantitySchema.optional().describe(
    "Annualisation factor used instead of lifetime and interest",
  ),
  energy_cap: quantitySchema.optional().describe("Cost per energy capacity (per kW)"),
  energy_cap_per_distance: quantitySchema.optional().describe("Cost per energy capacity and metre"),
  export: seriesOrQuantitySchema.optional().describe(
    "Cost per exported energy (per kWh; negative is revenue)",
  ),
  interest_rate: quantitySchema.optional().describe("Interest rate (fraction)"),
  om_annual: quantitySchema.optional().describe("Fixed O&M per energy capacity and year"),
  om_annual_investment_fraction: quantitySchema.optional().describe(
    "Fixed O&M as a fraction of investment",
  ),
  om_con: seriesOrQuantitySchema.optional().describe("Cost per energy consumed (per kWh)"),
  om_prod: seriesOrQuantitySchema.optional().describe("Cost per energy produced (per kWh)"),
  resource_area: quantitySchema.optional().describe("Cost per resource area (per m²)"),
  resource_cap: quantitySchema.optional().describe("Cost per resource capacity (per kW)"),
  storage_cap: quantitySchema.optional().describe("Cost per storage capacity (per kWh)"),
  purchase: quantitySchema.optional().describe(
    "Cost per unit, or of buying at all (a binary) without units",
  ),
  purchase_per_distance: quantitySchema.optional().describe("Purchase cost per metre of a link"),
});
export type Costs = z.infer<typeof costsSchema>;

/** Costs by cost class (`monetary`, `emissions`, ...). */
export const costClassesSchema = z.record(z.string().min(1), costsSchema);

const carrierListSchema = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

/** A technology: its id, Calliope parent, carriers, constraints and costs. */
export const technologySchema = z.strictObject({
  name: z.string().min(1).describe("The technology's id (Calliope's tech key)"),
  type: z.enum(TECH_TYPES).describe("Calliope parent group"),
  carrier: z.string().min(1).optional().describe("Carrier of demand, storage and transmission"),
  carrier_in: carrierListSchema.optional(),
  carrier_in_2: carrierListSchema.optional(),
  carrier_in_3: carrierListSchema.optional(),
  carrier_out: carrierListSchema.optional(),
  carrier_out_2: carrierListSchema.optional(),
  carrier_out_3: carrierListSchema.optional(),
  primary_carrier_in: z.string().min(1).optional(),
  primary_carrier_out: z.string().min(1).optional(),
  constraints: constraintsSchema.optional(),
  costs: costClassesSchema.optional(),
  essentials: z.strictObject({
    name: z.string().optional().describe("Display name"),
    color: z.string().optional().describe("Display colour"),
  }).optional(),
  template: z.string().optional().describe("Template library entry it came from"),
});
export type Technology = z.infer<typeof technologySchema>;

/** A technology at a location, overriding its constraints and costs there. */
export const locationTechnologySchema = z.union([
  z.string().min(1),
  z.strictObject({
    name: z.string().min(1),
    constraints: constraintsSchema.optional(),
    costs: costClassesSchema.optional(),
  }),
]);
export type LocationTechnology = z.infer<typeof locationTechnologySchema>;

/** A location (Calliope 0.6 `locations.<id>`). */
export const locationSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().optional().describe("Display name"),
  lat: z.number().min(-90).max(90).optional(),
  lon: z.number().min(-180).max(180).optional(),
  x: z.number().optional(),
  y: z.number().optional(),
  available_area: quantitySchema.optional().describe(
    "Area available to area-using technologies (m²)",
  ),
  constraints: z.strictObject({ available_area: quantitySchema.optional() }).optional(),
  technologies: z.array(locationTechnologySchema).default([]),
});
export type Location = z.infer<typeof locationSchema>;

/** A link between two locations carrying one or more transmission technologies. */
export const linkSchema = z.strictObject({
  id: z.string().optional(),
  source: z.string().min(1),
  target: z.string().min(1),
  distance: z.number().nonnegative().optional()
    .describe("Length in the model's distance unit (metres from coordinates); else computed"),
  technology: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  constraints: constraintsSchema.optional(),
  costs: costClassesSchema.optional(),
});
export type Link = z.infer<typeof linkSchema>;

/** A table of time series: one timestamp column and named value columns. */
export const timeSeriesSchema = z.strictObject({
  id: z.string().min(1).describe("Referred to as file=ID.csv:column or ts:ID:column"),
  timestamps: z.array(z.string()).min(1).describe("ISO 8601 local times, ascending"),
  columns: z.record(z.string(), z.array(z.number())),
});
export type TimeSeries = z.infer<typeof timeSeriesSchema>;

/** Run settings (Calliope's `model` and `run` sections, flattened). */
export const parametersSchema = z.strictObject({
  subset_time: z.union([z.string(), z.tuple([z.string(), z.string()])]).optional()
    .describe("A date prefix ('2005-01-01', '2005-01') or an inclusive [start, end] pair"),
  time_resolution_h: z.number().positive().optional().describe(
    "Resample to this many hours per step",
  ),
  time: timeConfigSchema.optional().describe(
    "Calliope's model.time: masks, then resample, apply_clustering or drop on the rest",
  ),
  mode: z.enum(["plan", "operate", "spores"]).optional().describe(
    "Calliope's run.mode: plan (default), operate (fixed capacities, rolling windows: " +
      "parameters.operation) or spores (near-optimal alternatives: parameters.spores)",
  ),
  operation: operateOptionsSchema.optional().describe(
    "Calliope's run.operation: window and horizon in timesteps",
  ),
  spores: sporesOptionsSchema.optional().describe("Calliope's run.spores_options"),
  random_seed: z.number().int().optional().describe(
    "Calliope's model.random_seed: seeds k-means clustering (the same seed, the same clusters)",
  ),
  ensure_feasibility: z.boolean().optional().describe("Allow unmet demand at cost bigM"),
  bigM: z.number().positive().optional(),
  cyclic_storage: z.boolean().optional(),
  objective_cost_class: z.record(z.string(), z.number()).optional().describe(
    "Weight of each cost class",
  ),
  objective: z.enum(["minmax_cost_optimization", "check_feasibility"]).optional().describe(
    "Calliope's run.objective: weighted cost (default) or a constant (a feasibility check)",
  ),
  objective_sense: z.enum(["minimize", "maximize"]).optional().describe(
    "Calliope's run.objective_options.sense (default minimize)",
  ),
  zero_threshold: z.number().nonnegative().optional().describe(
    "Result values of smaller magnitude are reported as 0 (Calliope's run.zero_threshold, 1e-10)",
  ),
  relax_constraint: z.strictObject({
    demand_share_per_timestep_decision_main_constraint: z.number().min(0).max(1).optional()
      .describe(
        "0 (default): each decided share holds exactly in every timestep; r (up to 1): " +
          "within (1 ± r)",
      ),
  }).optional().describe("Calliope's run.relax_constraint"),
  reserve_margin: z.record(z.string(), z.number().nonnegative()).optional().describe(
    "Per carrier: installed supply capacity must exceed peak demand by this fraction",
  ),
  scenario: z.union([z.string(), z.array(z.string())]).optional()
    .describe("Override names to apply, in order (a list or comma-separated)"),
  overrides: z.record(z.string(), z.record(z.string(), z.unknown())).optional()
    .describe("Named Calliope override groups of dotted keys"),
  solver: z.strictObject({
    name: z.string().min(1).optional().describe(
      "Which solver: highs (built in, the default) or a command-line solver on the runner's " +
        "machine (cbc, clp, glpk, gurobi, cplex, scip, or a native highs); one not installed " +
        "runs on highs with a warning (Calliope's run.solver)",
    ),
    method: z.enum(["simplex", "ipm", "pdlp", "choose"]).optional(),
    time_limit_s: z.number().positive().optional(),
    threads: z.number().int().positive().optional(),
    mip_rel_gap: z.number().nonnegative().optional()
      .describe(
        "A MIP stops as optimal within this relative gap (Calliope's solver_options.mipgap)",
      ),
  }).optional(),
});
export type Parameters = z.infer<typeof parametersSchema>;

/** The whole model as the runner and the backend receive it. */
export const modelConfigSchema = z.strictObject({
  id: z.union([z.string(), z.number()]).optional(),
  name: z.string().default("Unnamed model"),
  description: z.string().optional(),
  locations: z.array(locationSchema).min(1),
  links: z.array(linkSchema).default([]),
  technologies: z.array(technologySchema).min(1),
  timeSeries: z.array(timeSeriesSchema).default([]),
  parameters: parametersSchema.default({}),
  groupConstraints: groupConstraintsSchema.optional(),
});
export type ModelConfig = z.infer<typeof modelConfigSchema>;
export type ModelConfigInput = z.input<typeof modelConfigSchema>;
