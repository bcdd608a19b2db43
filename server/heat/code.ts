/**
 * The `{code}` path parameter and the lookup of its variant, shared by the data and calculate
 * routes: malformed code or unknown country 400, unknown code 404.
 */
import { z } from "@hono/zod-openapi";
import { VARIANT_CODE_PATTERN } from "../../lib/heat/typology/variant_code.ts";
import type { CountryInfo, Typology } from "../../lib/heat/typology/typology.ts";
import type { VariantRow } from "../../lib/heat/parameters/variant_row.ts";
import { httpError } from "../middleware/errors.ts";
import { countryOf } from "./country.ts";

/** Path parameters of the per-variant routes. */
export const codeParamsSchema = z.object({
  code: z
    .string()
    .regex(
      VARIANT_CODE_PATTERN,
      `must match ${VARIANT_CODE_PATTERN.source} (a variant code ` +
        "<country>.<set>.<type>.<period>...<nnn>.<nnn>, e.g. DE.N.SFH.02.Gen.ReEx.001.001)",
    )
    .openapi({
      param: { name: "code", in: "path" },
      description: "Variant code; its first two characters are the country code",
      example: "DE.N.SFH.02.Gen.ReEx.001.001",
    }),
});

/** A variant found by its code, with its country. */
export interface FoundVariant {
  country: CountryInfo;
  row: VariantRow;
}

/** The variant of a well-formed code; throws 400 for an unknown country, 404 for an unknown code. */
export function variantOf(typology: Typology, code: string): FoundVariant {
  const country = countryOf(typology, code.slice(0, 2));
  const row = typology.variant(code);
  if (!row) throw httpError(404, `Variant code "${code}" not found`);
  return { country, row };
}
