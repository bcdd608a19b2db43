/**
 * The shape of one entry of the TABULA parameter schema, and the helper that fills it in.
 *
 * Each entry describes one input column of the TABULA building-variant table (the workbook
 * sheet `Calc.Set.Building`): its raw column name, its name and place in the API's `tabula_data`,
 * its unit and descriptions, its value type and its plausible range.
 */

/** Value type of a column: numbers are parsed from the CSV text, strings kept as written. */
export type ParameterType = "number" | "integer" | "string";

/** The two top-level members of `tabula_data`. */
export type ParameterParent = "BasicParameters" | "AdvancedParameters";

/**
 * A calculation override of a column: the member of the calculate request that replaces the
 * column's value, and the physical bounds a caller's value must keep (inclusive, in the column's
 * unit). The bounds take every value of the TABULA data and keep the result finite.
 */
export interface OverrideSpec {
  /** Member of the calculate request body, e.g. `theta_i`. */
  readonly member: string;
  /** Smallest accepted value (inclusive). */
  readonly min: number;
  /** Largest accepted value (inclusive). */
  readonly max: number;
  /** What the member does where the column's description does not say it. */
  readonly description?: string;
}

/** One documented input column of a TABULA building variant. */
export interface ParameterSpec {
  /** Raw column name in the data files and the store, e.g. `theta_i`. */
  readonly column: string;
  /** Member name in the API's `tabula_data`, e.g. `Theta_i`. */
  readonly key: string;
  /** Group below the parent, e.g. `ClimateConditions`. */
  readonly group: string;
  readonly parent: ParameterParent;
  /** Dotted path into `tabula_data`: `<parent>.<group>.<key>`. */
  readonly path: string;
  /** Unit in plain ASCII (`m2`, `W/(m2.K)`, `deg C`); `-` where there is none. */
  readonly unit: string;
  readonly label: string;
  readonly simple_description: string;
  readonly expert_description: string;
  readonly type: ParameterType;
  /** Smallest plausible value (inclusive unless `exclusiveMin`). */
  readonly min?: number;
  /** Largest plausible value (inclusive). */
  readonly max?: number;
  /** The value must be greater than `min`, not equal to it. */
  readonly exclusiveMin?: boolean;
  /** Text columns: an empty cell is an error. */
  readonly required?: boolean;
  /** Text columns: the value must match. */
  readonly pattern?: RegExp;
  /** Text columns: the value must be one of these. */
  readonly values?: readonly string[];
  /** Numeric columns a caller may replace in a calculation, and the bounds of that value. */
  readonly override?: OverrideSpec;
}

/** What a parameter entry says before its key and path are derived. */
export type ParameterInput = Omit<ParameterSpec, "key" | "path"> & { readonly key?: string };

/** API key of a raw column: the first letter upper-cased, as the interface names its members. */
export function apiKey(column: string): string {
  return column.charAt(0).toUpperCase() + column.slice(1);
}

/** Completes a parameter entry: derives its key (unless given) and its dotted path. */
export function parameter(input: ParameterInput): ParameterSpec {
  const key = input.key ?? apiKey(input.column);
  return { ...input, key, path: `${input.parent}.${input.group}.${key}` };
}
