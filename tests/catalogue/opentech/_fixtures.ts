/** Shared fixtures of the OpenTech-DB tests: real catalogue profiles and uploads made of them. */
import {
  type CatalogueProfile,
  catalogueProfileSchema,
} from "../../../lib/profiles/profile_schema.ts";

const PROFILES = new URL("../../../catalogues/profiles/", import.meta.url);

/** A catalogue profile file, `catalogues/profiles/<id>.json`, checked by its schema. */
export async function catalogueProfile(id: string): Promise<CatalogueProfile> {
  const text = await Deno.readTextFile(new URL(`${id}.json`, PROFILES));
  return catalogueProfileSchema.parse(JSON.parse(text));
}

/** The first `hours` hours of Germany's 2016 solar capacity factor (from 2016-01-01 00:00 UTC). */
export async function deSolarHours(hours = 48): Promise<number[]> {
  return (await catalogueProfile("DE_solar_pv_2016")).values.slice(0, hours);
}

/** `2016-01-01 05:00:00`: hour `k` of 2016 as the frontend's CSV template writes times. */
export function hourOf2016(k: number): string {
  return new Date(Date.UTC(2016, 0, 1, k)).toISOString().slice(0, 19).replace("T", " ");
}

/** A CSV as the frontend's template has it (`timestamp,value`), CRLF line ends, with a BOM. */
export function uploadCsv(values: readonly number[]): string {
  const lines = values.map((v, k) => `${hourOf2016(k)},${v}`);
  return "\uFEFF" + ["timestamp,value", ...lines].join("\r\n") + "\r\n";
}

/** The form fields the frontend's upload form sends for the German solar profile. */
export const SOLAR_FIELDS: Readonly<Record<string, string>> = {
  name: "DE Solar PV Capacity Factor 2016",
  carrier: "solar",
  type: "capacity_factor",
  resolution: "hourly",
  location: "de",
  source: "Dispa-SET EU28 input data (ENTSO-E, JRC)",
  unit: "p.u.",
  year: "2016",
  description: "First two days of January 2016, hourly, UTC.",
};
