/**
 * What the heat routes need from outside: the loaded typology and the calculation, passed in
 * so that tests can hand in real data and a failing calculation.
 */
import type { Typology } from "../../lib/heat/typology/typology.ts";
import type { VariantRow } from "../../lib/heat/parameters/variant_row.ts";
import type { Overrides } from "../../lib/heat/calculation/overrides.ts";

/** The calculation as the routes call it: demand in kWh/(m2.a) and its intermediates. */
export type CalculateFn = (
  row: VariantRow,
  overrides: Overrides,
) => { q_h_nd: number; explain: object };

/** Dependencies of the heat routes. */
export interface HeatDeps {
  typology: Typology;
  calculate: CalculateFn;
}
