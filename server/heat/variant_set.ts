/** The optional `set` query parameter and the rule that picks a set when it is absent. */
import { z } from "@hono/zod-openapi";
import { CODE_SEGMENT_PATTERN } from "../../lib/heat/typology/variant_code.ts";
import { variantSets } from "../../lib/heat/typology/variant_sets.ts";
import { httpError } from "../middleware/errors.ts";

/** The set rule, for route descriptions. */
export const SET_RULE = "Countries may have several variant sets (national `N`, regions, " +
  "climate zones such as `GR.ZoneA`); without `set` the national set `N` is used, else the " +
  "set with the most variants (ties by name).";

/** The `set` query parameter: one segment of a variant code. */
export const setQuerySchema = z.string().regex(
  CODE_SEGMENT_PATTERN,
  `must match ${CODE_SEGMENT_PATTERN.source} (a variant set, e.g. N or East)`,
).optional().openapi({
  description: "Variant set, e.g. `East` for `DE.East`; default: `N` if the country has it, " +
    "else its largest set",
  example: "N",
});

/** The set the caller named, checked against the country's sets, or the default one. */
export function chooseSet(codes: readonly string[], iso2: string, named?: string): string {
  const sets = variantSets(codes);
  if (named === undefined) {
    const preferred = sets[0]?.set;
    if (preferred === undefined) throw httpError(400, `Country ${iso2} has no variants`);
    return preferred;
  }
  if (!sets.some((s) => s.set === named)) {
    const known = sets.map((s) => s.set).join(", ");
    throw httpError(
      400,
      `Invalid query: set: unknown variant set "${named}" for ${iso2}; known: ${known}`,
    );
  }
  return named;
}
