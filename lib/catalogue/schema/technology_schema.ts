/**
 * The zod schemas of the technology catalogue: an equipment instance (flat techno-economic
 * fields), a technology record, a catalogue file (`metadata` + `technologies`, one file per
 * domain) and the internal/served technology. One source for file validation, TypeScript types,
 * OpenAPI and the JSON Schema in `data/schemas/catalogue.schema.json`.
 *
 * Units live with the fields. A number the source does not give is `null`, never a guess.
 * Besides the spec's per-kW fields an instance has fields for the other capacity bases the
 * sources use (per kWh of storage, per kW and km of line, per tCO2/h captured or piped), so that
 * no number is ever stored under a unit that is not its own.
 */
import { z } from "zod";
import { fuelRecordSchema } from "./fuel_schema.ts";

/** The four catalogue domains; one catalogue file each. */
export const DOMAINS = ["generation", "storage", "transmission", "conversion"] as const;
export type Domain = typeof DOMAINS[number];

/** Lifecycle values of a technology (its maturity) and of an instance (what its figures are). */
export const LIFECYCLES = ["commercial", "projection", "demonstration", "retired"] as const;
export type Lifecycle = typeof LIFECYCLES[number];

/** Whether capex and capacity figures are per unit of input or per unit of output. */
export const CAPACITY_BASES = ["input", "output"] as const;
export type CapacityBasisSide = typeof CAPACITY_BASES[number];

/** Ids: lower-case snake_case words joined by `-` (e.g. `onshore_wind-2030`), or a UUID. */
const ID =
  /^([a-z0-9][a-z0-9_]*(-[a-z0-9][a-z0-9_]*)*|[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12})$/;

/** A snake_case key such as a carrier, tag or profile series name. */
const KEY = /^[a-z][a-z0-9_]*$/;

const id = (what: string) =>
  z.string().regex(ID, `must be snake_case words joined by '-', or a UUID`).describe(what);

const key = (what: string) => z.string().regex(KEY, "must be lower-case snake_case").describe(what);

/** A finite number >= 0 in `unit`, or null when the source has none. */
const nonNegative = (unit: string, what: string) =>
  z.number().min(0).nullable().describe(`${what}. Unit: ${unit}. null when the source has none.`);

/** A finite number > 0 in `unit`, or null when the source has none. */
const positive = (unit: string, what: string) =>
  z.number().gt(0).nullable().describe(`${what}. Unit: ${unit}. null when the source has none.`);

/** The flat fields of one equipment instance, in file order. */
export const instanceSchema = z.strictObject({
  instance_id: id("Identifier, unique within its technology, e.g. `onshore_wind-2030`"),
  instance_name: z.string().min(1).describe("Display name"),
  year: z.number().int().min(1990).max(2100).nullable().describe(
    "Year the figures stand for (2025 = today's costs; later years are projections)",
  ),
  lifecycle_stage: z.enum(LIFECYCLES).nullable().describe(
    "What the figures are: current costs of a `commercial` or `demonstration` technology, or a " +
      "`projection`",
  ),
  capacity_basis: z.enum(CAPACITY_BASES).nullable().describe(
    "Whether capex and capacity are per unit of `input` (e.g. an electrolyser per kW of " +
      "electricity in) or of `output` (e.g. a power plant per kW of electricity out); null when " +
      "the instance has no power capacity of its own (costed per kWh stored only, or no figures)",
  ),
  capacity_unit: z.string().min(1).nullable().optional().describe(
    "What one kW (kWh, km, tCO2/h) of capacity refers to, in words, e.g. `kW_e output`, " +
      "`kW_CH4 input`",
  ),
  fuel: key("Fuel id").nullable().optional().describe(
    "Fuel the instance burns: a `fuel_id` of the catalogue's fuel records (the record of the " +
      "instance's year applies); null when it burns none or the source has no record for it " +
      "(the notes say why)",
  ),
  typical_capacity_mw: positive("MW", "Typical unit size"),
  capex_usd_per_kw: nonNegative("USD/kW", "Overnight investment per kW of capacity"),
  opex_fixed_usd_per_kw_yr: nonNegative("USD/kW/yr", "Fixed operation and maintenance per kW"),
  opex_var_usd_per_mwh: nonNegative("USD/MWh", "Variable operation and maintenance per MWh"),
  efficiency_percent: z.number().gt(0).max(1000).nullable().describe(
    "Conversion efficiency in percent (round trip for storage); may exceed 100 for heat " +
      "pumps. Unit: %. null when the source has none.",
  ),
  lifetime_years: positive("years", "Technical lifetime"),
  co2_emission_factor_operational_g_per_kwh: nonNegative(
    "g/kWh",
    "Direct CO2 emitted in operation per kWh of output",
  ),
  ramping_rate_percent_per_min: nonNegative(
    "%/min",
    "Ramping rate, percent of capacity per minute",
  ),
  capex_usd_per_kwh: nonNegative("USD/kWh", "Investment per kWh of energy storage capacity"),
  opex_fixed_usd_per_kwh_yr: nonNegative("USD/kWh/yr", "Fixed O&M per kWh of storage capacity"),
  capex_usd_per_kw_km: nonNegative("USD/kW/km", "Investment per kW of transfer capacity and km"),
  opex_fixed_usd_per_kw_km_yr: nonNegative("USD/kW/km/yr", "Fixed O&M per kW and km"),
  capex_usd_per_t_co2_per_h: nonNegative("USD/(tCO2/h)", "Investment per tCO2/h of capacity"),
  opex_fixed_usd_per_t_co2_per_h_yr: nonNegative("USD/(tCO2/h)/yr", "Fixed O&M per tCO2/h"),
  capex_usd_per_t_co2_per_h_km: nonNegative(
    "USD/(tCO2/h)/km",
    "Investment per tCO2/h of pipeline capacity and km",
  ),
  opex_fixed_usd_per_t_co2_per_h_km_yr: nonNegative(
    "USD/(tCO2/h)/km/yr",
    "Fixed O&M per tCO2/h/km",
  ),
  reference_source: z.string().min(1).nullable().describe(
    "Source text of the rows the figures come from",
  ),
  source_technologies: z.array(z.string().min(1)).describe(
    "Names of the source rows used (PyPSA technology-data `technology` column); empty when " +
      "the instance did not come from that data set",
  ),
  notes: z.array(z.string().min(1)).describe(
    "How the figures were derived: bases, conversions, combined rows, values left out",
  ),
}).describe("One equipment instance with flat techno-economic figures");

export type Instance = z.infer<typeof instanceSchema>;

/** The numeric instance fields of the spec, in file order. */
export const SPEC_INSTANCE_NUMBER_FIELDS = [
  "typical_capacity_mw",
  "capex_usd_per_kw",
  "opex_fixed_usd_per_kw_yr",
  "opex_var_usd_per_mwh",
  "efficiency_percent",
  "lifetime_years",
  "co2_emission_factor_operational_g_per_kwh",
  "ramping_rate_percent_per_min",
] as const;

/** Numeric instance fields, in file order: the spec's, then those of other capacity bases. */
export const INSTANCE_NUMBER_FIELDS = [
  ...SPEC_INSTANCE_NUMBER_FIELDS,
  "capex_usd_per_kwh",
  "opex_fixed_usd_per_kwh_yr",
  "capex_usd_per_kw_km",
  "opex_fixed_usd_per_kw_km_yr",
  "capex_usd_per_t_co2_per_h",
  "opex_fixed_usd_per_t_co2_per_h_yr",
  "capex_usd_per_t_co2_per_h_km",
  "opex_fixed_usd_per_t_co2_per_h_km_yr",
] as const satisfies readonly (keyof Instance)[];

export type InstanceNumberField = typeof INSTANCE_NUMBER_FIELDS[number];

/** Every numeric instance field set to null: an instance with no figure yet. */
export function noFigures(): Record<InstanceNumberField, null> {
  return Object.fromEntries(INSTANCE_NUMBER_FIELDS.map((f) => [f, null])) as Record<
    InstanceNumberField,
    null
  >;
}

const oeoIri = z.url({ protocol: /^https?$/ });

/** Members shared by the file record and the served technology. */
const technologyShape = {
  technology_id: id("Identifier, e.g. `onshore_wind` (catalogue) or a UUID (legacy files)"),
  technology_name: z.string().min(1).describe("Display name"),
  domain: z.enum(DOMAINS).describe("generation, storage, transmission or conversion"),
  carrier: key("Main energy carrier (output), e.g. `electricity`, `hydrogen`, `heat`, `co2`"),
  carrier_in: z.array(key("Carrier")).nullable().describe("Carriers consumed; null if not stated"),
  carrier_out: z.array(key("Carrier")).nullable().describe("Carriers produced; null if not stated"),
  description: z.string().min(1).nullable().describe("Text"),
  tags: z.array(key("Tag")).describe("Tags for filtering, e.g. `renewable`, `variable`"),
  lifecycle: z.enum(LIFECYCLES).nullable().describe(
    "Maturity of the technology: `commercial`, `demonstration` or `retired`",
  ),
  profile_key: key(
    "Profile series of a variable renewable, e.g. `solar_pv`; profile ids are " +
      "`<ISO2>_<profile_key>_<year>`",
  ).nullable(),
  instances: z.array(instanceSchema).min(1, "needs at least one instance").describe(
    "Equipment instances",
  ),
};

/** Instance members a catalogue file may leave out; they are read as null (or empty lists). */
export const OPTIONAL_INSTANCE_FIELDS = [
  "year",
  "lifecycle_stage",
  "capacity_basis",
  "capacity_unit",
  "fuel",
  "capex_usd_per_kwh",
  "opex_fixed_usd_per_kwh_yr",
  "capex_usd_per_kw_km",
  "opex_fixed_usd_per_kw_km_yr",
  "capex_usd_per_t_co2_per_h",
  "opex_fixed_usd_per_t_co2_per_h_yr",
  "capex_usd_per_t_co2_per_h_km",
  "opex_fixed_usd_per_t_co2_per_h_km_yr",
  "source_technologies",
  "notes",
] as const satisfies readonly (keyof Instance)[];

/** An instance as written in a catalogue file: the spec's fields are required (null allowed). */
export const catalogueInstanceSchema = instanceSchema.partial(
  Object.fromEntries(OPTIONAL_INSTANCE_FIELDS.map((f) => [f, true])) as {
    [K in typeof OPTIONAL_INSTANCE_FIELDS[number]]: true;
  },
);

export type CatalogueInstance = z.infer<typeof catalogueInstanceSchema>;

/** A technology as written in a catalogue file: `oeo_class` is the full class IRI. */
export const catalogueTechnologySchema = z.strictObject({
  technology_id: technologyShape.technology_id,
  technology_name: technologyShape.technology_name,
  domain: technologyShape.domain,
  carrier: technologyShape.carrier,
  carrier_in: technologyShape.carrier_in.optional(),
  carrier_out: technologyShape.carrier_out.optional(),
  oeo_class: oeoIri.nullable().describe("Open Energy Ontology class, full IRI; null if none fits"),
  oeo_uri: oeoIri.nullable().optional().describe("Full class IRI (the class of oeo_class)"),
  description: technologyShape.description,
  tags: technologyShape.tags.optional(),
  lifecycle: technologyShape.lifecycle.optional(),
  profile_key: technologyShape.profile_key.optional(),
  instances: z.array(catalogueInstanceSchema).min(1, "needs at least one instance").describe(
    "Equipment instances",
  ),
}).describe("A technology record of a catalogue file");

export type CatalogueTechnology = z.infer<typeof catalogueTechnologySchema>;

/** A technology as served and stored: `oeo_class` is the last segment of `oeo_uri`. */
export const technologySchema = z.strictObject({
  technology_id: technologyShape.technology_id,
  technology_name: technologyShape.technology_name,
  domain: technologyShape.domain,
  carrier: technologyShape.carrier,
  carrier_in: technologyShape.carrier_in,
  carrier_out: technologyShape.carrier_out,
  oeo_class: z.string().min(1).nullable().describe(
    "Open Energy Ontology class: the last segment of oeo_uri, e.g. `OEO_00000311`",
  ),
  oeo_uri: oeoIri.nullable().describe("Full class IRI"),
  description: technologyShape.description,
  tags: technologyShape.tags,
  lifecycle: technologyShape.lifecycle,
  profile_key: technologyShape.profile_key,
  instances: technologyShape.instances,
}).describe("A technology with all its instances");

export type Technology = z.infer<typeof technologySchema>;

/** The `metadata` member of a catalogue file. */
export const catalogueMetadataSchema = z.strictObject({
  domain: z.enum(DOMAINS).describe("Domain of every technology in the file"),
  version: z.string().min(1).describe("Version of the file's content"),
  description: z.string().min(1).describe("Text"),
  primary_sources: z.array(z.string().min(1)).describe("Main sources of the figures"),
  price_year: z.number().int().nullable().optional().describe("Price basis of money figures"),
  currency: z.literal("USD").nullable().optional().describe("Currency of the money figures"),
  source_currency: z.string().min(1).nullable().optional().describe(
    "Currency of the source figures before conversion",
  ),
  fx_rate_usd_per_eur: z.number().gt(0).nullable().optional().describe(
    "Rate used to convert EUR figures: USD per EUR",
  ),
  fx_source: z.string().min(1).nullable().optional().describe("Where the rate comes from"),
  source_dataset: z.string().min(1).nullable().optional().describe(
    "Data set the file was built from",
  ),
  generated_by: z.string().min(1).nullable().optional().describe("Command that wrote the file"),
  notes: z.array(z.string().min(1)).optional().describe("Conventions that hold for every record"),
  not_included: z.array(z.strictObject({
    template_id: key("Template id of the technology library"),
    status: z.enum(["missing", "partial", "out_of_scope"]).describe("Why it has no record"),
    reason: z.string().min(1).describe("Text"),
  })).optional().describe("Templates of this domain without a record, and why"),
}).describe("Facts about a catalogue file");

export type CatalogueMetadata = z.infer<typeof catalogueMetadataSchema>;

/** A catalogue file: one domain's technologies with their metadata. */
export const catalogueFileSchema = z.strictObject({
  metadata: catalogueMetadataSchema,
  technologies: z.array(catalogueTechnologySchema).describe("Technology records"),
  fuels: z.array(fuelRecordSchema).optional().describe(
    "Fuel records (price and CO2 intensity per fuel and source year) that instances of every " +
      "domain name in `fuel`; the build writes them into generation.json",
  ),
}).describe("Catalogue file, catalogues/<domain>.json");

export type CatalogueFile = z.infer<typeof catalogueFileSchema>;

/** The last segment of an IRI (after the last `/` or `#`), e.g. `OEO_00000311`. */
export function iriLastSegment(iri: string): string {
  const trimmed = iri.replace(/[/#]+$/, "");
  return trimmed.slice(Math.max(trimmed.lastIndexOf("/"), trimmed.lastIndexOf("#")) + 1);
}
