/**
 * OpenTech-DB's technology submission, `{ technology_name, domain, carrier, oeo_class,
 * description, instances: [{ variant_name, capex_usd_per_kw, ... }] }`, as a record in this
 * catalogue's file format (what the submission desk checks, stores and merges), and back.
 *
 * Ids: a name the catalogue already serves (case-insensitive) submits new instances to that
 * technology, as in the original; any other name becomes a new technology whose id is the name
 * in snake_case (with a number appended when another technology has that id). Instance ids are
 * `<technology id>-<variant in snake_case>_<6 hex digits>`, so two pending submissions never
 * claim the same id. A figure of 0 where the catalogue needs a positive number (typical
 * capacity, efficiency, lifetime) is read as "not given": null, with a note saying so.
 *
 * Carriers: the payload names one `carrier`, read as the original backend read it. Storage and
 * transmission store or carry it. Generation produces electricity (every generation technology
 * of this catalogue does) from it, or from a natural resource (wind, sun, water, heat of the
 * earth) that is no carrier in this catalogue and becomes a tag (as `onshore_wind` is tagged
 * `wind`). Conversion consumes it; its output is not stated
 * (`carrier_out` null; the review may correct the record).
 */
import { z } from "zod";
import {
  type CatalogueInstance,
  type CatalogueTechnology,
  DOMAINS,
  iriLastSegment,
} from "../schema/technology_schema.ts";
import type { CatalogueSnapshot } from "../served/catalogue_snapshot.ts";

/** A figure: a number >= 0, or null when not given (as `payloadFromRecord` gives it back). */
const amount = (what: string) => z.number().min(0).nullable().describe(what);

/** One instance of the frontend's submission. */
export const instancePayloadSchema = z.object({
  variant_name: z.string().trim().min(1).max(200).describe("Instance name"),
  capex_usd_per_kw: amount("USD/kW"),
  opex_fixed_usd_per_kw_yr: amount("USD/kW/yr"),
  opex_var_usd_per_mwh: amount("USD/MWh"),
  efficiency_percent: z.number().min(0).max(1000).nullable().describe("%"),
  lifetime_years: amount("years"),
  capacity_mw: amount("MW, typical unit size").optional(),
  co2_emission_factor_operational_g_per_kwh: amount("g/kWh"),
  reference_source: z.string().trim().min(1).describe("Where the figures come from"),
});

/** One instance of the frontend's submission. */
export type InstancePayload = z.infer<typeof instancePayloadSchema>;

/** Body of OpenTech-DB's `POST /technologies`. */
export const technologyPayloadSchema = z.object({
  technology_name: z.string().trim().min(2).max(200),
  domain: z.enum(DOMAINS),
  carrier: z.string().regex(/^[a-z][a-z0-9_]*$/, "must be lower-case snake_case"),
  oeo_class: z.string().trim().min(1).describe(
    "Open Energy Ontology class: a full IRI, or a class name the catalogue knows",
  ),
  description: z.string().trim().min(1).max(2000),
  instances: z.array(instancePayloadSchema).min(1).max(100),
});

/** Body of OpenTech-DB's `POST /technologies`. */
export type TechnologyPayload = z.infer<typeof technologyPayloadSchema>;

/** Lower-case words joined by `_`: a name as an id part. */
export function snakeCase(text: string, fallback: string): string {
  const words = text.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "").slice(0, 60).replace(/_+$/, "");
  return words === "" ? fallback : words;
}

/** The technology id a submitted name gets in `snapshot`. */
export function technologyIdFor(name: string, snapshot: CatalogueSnapshot): string {
  const wanted = name.trim().toLowerCase();
  const same = snapshot.technologies.find((t) => t.technology_name.toLowerCase() === wanted);
  if (same) return same.technology_id;
  const base = snakeCase(name, "technology");
  let id = base;
  for (let n = 2; snapshot.technology(id); n++) id = `${base}_${n}`;
  return id;
}

/** The full class IRI of `oeoClass`: itself when an IRI, else the served class of that name. */
export function oeoIriFor(oeoClass: string, snapshot: CatalogueSnapshot): string | undefined {
  if (/^https?:\/\//.test(oeoClass)) return oeoClass;
  const known = snapshot.technologies.find((t) => t.oeo_class === oeoClass && t.oeo_uri);
  return known?.oeo_uri ?? undefined;
}

/** A positive figure, or null (with a note) when the submission gives 0. */
function positiveOrNull(
  value: number | null | undefined,
  field: string,
  notes: string[],
): number | null {
  if (value === undefined || value === null) return null;
  if (value > 0) return value;
  notes.push(`${field} 0 in the submission is read as not given`);
  return null;
}

/** Carriers a generation technology draws on that this catalogue does not model as carriers. */
const NATURAL_RESOURCES = new Set([
  "wind",
  "solar",
  "solar_irradiance",
  "hydro",
  "water",
  "geothermal",
  "marine",
  "tidal",
  "wave",
]);

/** The carrier members of a submitted record (see the file's comment). */
export function recordCarriers(
  domain: TechnologyPayload["domain"],
  carrier: string,
): Pick<CatalogueTechnology, "carrier" | "carrier_in" | "carrier_out"> {
  if (domain === "storage" || domain === "transmission") {
    return { carrier, carrier_in: [carrier], carrier_out: [carrier] };
  }
  if (domain === "generation") {
    const drawn = carrier === "electricity" || NATURAL_RESOURCES.has(carrier) ? [] : [carrier];
    return { carrier: "electricity", carrier_in: drawn, carrier_out: ["electricity"] };
  }
  return { carrier, carrier_in: [carrier], carrier_out: null };
}

/** The record a submission stands for, or the problems that stop it. */
export function recordFromPayload(
  payload: TechnologyPayload,
  snapshot: CatalogueSnapshot,
  suffix: () => string,
): { ok: true; record: CatalogueTechnology } | { ok: false; problems: string[] } {
  const oeo = oeoIriFor(payload.oeo_class, snapshot);
  if (!oeo) {
    return {
      ok: false,
      problems: [
        `oeo_class: "${payload.oeo_class}" is neither a class IRI nor a class the catalogue ` +
        "serves (see /api/v1/ontology/schema)",
      ],
    };
  }
  const technologyId = technologyIdFor(payload.technology_name, snapshot);
  const instances = payload.instances.map((p): CatalogueInstance => {
    const notes: string[] = [];
    const instance: CatalogueInstance = {
      instance_id: `${technologyId}-${snakeCase(p.variant_name, "variant")}_${suffix()}`,
      instance_name: p.variant_name,
      typical_capacity_mw: positiveOrNull(p.capacity_mw, "capacity_mw", notes),
      capex_usd_per_kw: p.capex_usd_per_kw,
      opex_fixed_usd_per_kw_yr: p.opex_fixed_usd_per_kw_yr,
      opex_var_usd_per_mwh: p.opex_var_usd_per_mwh,
      efficiency_percent: positiveOrNull(p.efficiency_percent, "efficiency_percent", notes),
      lifetime_years: positiveOrNull(p.lifetime_years, "lifetime_years", notes),
      co2_emission_factor_operational_g_per_kwh: p.co2_emission_factor_operational_g_per_kwh,
      ramping_rate_percent_per_min: null,
      reference_source: p.reference_source,
      notes: ["Submitted through the OpenTech-DB frontend", ...notes],
    };
    return instance;
  });
  return {
    ok: true,
    record: {
      technology_id: technologyId,
      technology_name: payload.technology_name,
      domain: payload.domain,
      ...recordCarriers(payload.domain, payload.carrier),
      oeo_class: oeo,
      oeo_uri: oeo,
      description: payload.description,
      tags: NATURAL_RESOURCES.has(payload.carrier) ? ["submitted", payload.carrier] : ["submitted"],
      instances,
    },
  };
}

/** A record as the frontend's submission payload (for the review and "my submissions"). */
export function payloadFromRecord(record: CatalogueTechnology) {
  // The payload's one carrier is the input of generation and conversion (see recordCarriers).
  const drawn = record.domain === "generation" || record.domain === "conversion"
    ? record.carrier_in?.[0] ?? record.tags?.find((tag) => NATURAL_RESOURCES.has(tag))
    : undefined;
  return {
    technology_name: record.technology_name,
    domain: record.domain,
    carrier: drawn ?? record.carrier,
    oeo_class: record.oeo_class ?? "",
    description: record.description ?? "",
    instances: record.instances.map((i) => ({
      variant_name: i.instance_name,
      capex_usd_per_kw: i.capex_usd_per_kw,
      opex_fixed_usd_per_kw_yr: i.opex_fixed_usd_per_kw_yr,
      opex_var_usd_per_mwh: i.opex_var_usd_per_mwh,
      efficiency_percent: i.efficiency_percent,
      lifetime_years: i.lifetime_years,
      capacity_mw: i.typical_capacity_mw,
      co2_emission_factor_operational_g_per_kwh: i.co2_emission_factor_operational_g_per_kwh,
      reference_source: i.reference_source ?? "",
    })),
  };
}

/** The short class name of an IRI-valued `oeo_class`, for the frontend's lists. */
export function oeoClassName(oeoClass: string | null): string | null {
  return oeoClass === null ? null : iriLastSegment(oeoClass);
}
