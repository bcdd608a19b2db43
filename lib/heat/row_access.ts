/**
 * Typed reads from a raw variant row, with the workbook's meaning of an empty cell.
 */
import type { VariantRow } from "./variant_row.ts";

/** Reads a numeric column; an empty or missing cell counts as 0, as it does in the workbook. */
export function num(row: VariantRow, column: string): number {
  const value = row[column];
  if (value === null || value === undefined || value === "") return 0;
  if (typeof value === "number") return value;
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) {
    throw new TypeError(`Column "${column}" holds "${value}", which is not a number`);
  }
  return parsed;
}

/** Reads a text column; an empty cell and the workbook's placeholder "0" both read as "". */
export function text(row: VariantRow, column: string): string {
  const value = row[column];
  if (value === null || value === undefined) return "";
  const s = String(value);
  return s === "0" ? "" : s;
}
