/**
 * The `{country_iso2}` path parameter and its lookup in the typology, shared by the routes
 * that take a country.
 */
import { z } from "@hono/zod-openapi";
import type { CountryInfo, Typology } from "../../lib/heat/typology/typology.ts";
import type { VariantRow } from "../../lib/heat/parameters/variant_row.ts";
import { httpError } from "../middleware/errors.ts";

/** An ISO 3166-1 alpha-2 code, upper or lower case. */
export const COUNTRY_PARAM_PATTERN = /^[A-Za-z]{2}$/;

/** Path parameters of the per-country routes. */
export const countryParamsSchema = z.object({
  country_iso2: z.string().regex(
    COUNTRY_PARAM_PATTERN,
    `must match ${COUNTRY_PARAM_PATTERN.source} (an ISO 3166-1 alpha-2 code, e.g. DE)`,
  ).openapi({
    param: { name: "country_iso2", in: "path" },
    description: "ISO 3166-1 alpha-2 country code (case-insensitive)",
    example: "DE",
  }),
});

/** The country's dataset; throws 400 when no dataset is configured for the code. */
export function countryOf(typology: Typology, iso2: string): CountryInfo {
  const info = typology.country(iso2.toUpperCase());
  if (!info) {
    const known = typology.countries().map((c) => c.iso2).join(", ");
    throw httpError(400, `Unknown country "${iso2}": no dataset for it; known: ${known}`);
  }
  return info;
}

/** The rows of a country's variant codes. */
export function countryRows(typology: Typology, codes: readonly string[]): VariantRow[] {
  return codes.map((code) => typology.variant(code)).filter((row) => row !== undefined);
}
