/**
 * PARAMETERS: the one list of documented TABULA input columns, BasicParameters first.
 *
 * Everything else (row validation, the nested `tabula_data`, field metadata, store column types,
 * JSON Schema of the data files) is derived from this list.
 */
import { BUILDING_PARAMETERS } from "./parameter_building.ts";
import { CONDITION_PARAMETERS } from "./parameter_conditions.ts";
import { ELEMENT_PARAMETERS } from "./parameter_elements.ts";
import { MEASURE_PARAMETERS } from "./parameter_measures.ts";
import type { ParameterSpec } from "./parameter_spec.ts";

const ALL = [
  ...BUILDING_PARAMETERS,
  ...ELEMENT_PARAMETERS,
  ...MEASURE_PARAMETERS,
  ...CONDITION_PARAMETERS,
];

/** Every kept input column of the TABULA variant files, grouped: basic groups, then advanced. */
export const PARAMETERS: readonly ParameterSpec[] = [
  ...ALL.filter((p) => p.parent === "BasicParameters"),
  ...ALL.filter((p) => p.parent === "AdvancedParameters"),
];

/** Columns of the source files that are not data: the row id and empty dropdown helpers. */
export function isIgnoredColumn(column: string): boolean {
  return column === "id" || column.endsWith("_val_data");
}

const BY_COLUMN = new Map(PARAMETERS.map((p) => [p.column, p]));
const BY_KEY = new Map(PARAMETERS.map((p) => [p.key, p]));

/** The parameter entry of a raw column name, if it is one. */
export function parameterByColumn(column: string): ParameterSpec | undefined {
  return BY_COLUMN.get(column);
}

/** The parameter entry of an API key (e.g. `Theta_i`), if it is one. */
export function parameterByKey(key: string): ParameterSpec | undefined {
  return BY_KEY.get(key);
}
