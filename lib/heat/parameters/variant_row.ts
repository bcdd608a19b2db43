/**
 * One TABULA building variant as stored: every input column under its raw TABULA name.
 *
 * The calculation reads rows by raw column name (`U_Roof_1`, `theta_i`, `h_room`, ...). Numeric
 * columns hold JS numbers, text columns strings, an empty text cell is `null`. Validation
 * (`variantRowSchema` in `parameters.ts`) guarantees that every numeric column of a stored row
 * holds a finite number.
 */

/** A building variant keyed by raw TABULA column name. */
export type VariantRow = Readonly<Record<string, string | number | null>>;

/** The variant code of a row (`Code_BuildingVariant`), e.g. `DE.N.SFH.02.Gen.ReEx.001.002`. */
export function variantCodeOf(row: VariantRow): string {
  const code = row["Code_BuildingVariant"];
  if (typeof code !== "string" || code === "") {
    throw new TypeError("Variant row has no Code_BuildingVariant");
  }
  return code;
}

/** The number in a numeric column; throws a TypeError naming the variant and column otherwise. */
export function numberOf(row: VariantRow, column: string): number {
  const value = row[column];
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new TypeError(
      `Variant ${String(row["Code_BuildingVariant"])}: column ${column} is not a number` +
        ` (${JSON.stringify(value ?? null)})`,
    );
  }
  return value;
}

/** The text in a text column, `null` for an empty cell; throws a TypeError for a number. */
export function textOf(row: VariantRow, column: string): string | null {
  const value = row[column];
  if (value === null || value === undefined) return null;
  if (typeof value !== "string") {
    throw new TypeError(
      `Variant ${String(row["Code_BuildingVariant"])}: column ${column} is not text (${value})`,
    );
  }
  return value;
}

/** A code column as the workbook reads it: an empty cell and the placeholder "0" are both "". */
export function codeOf(row: VariantRow, column: string): string {
  const value = textOf(row, column);
  return value === null || value === "0" ? "" : value;
}
