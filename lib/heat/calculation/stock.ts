/**
 * A building stock for batch recalculation: one variant code per building, with optional
 * overrides and surfaces, as read from a CSV file.
 */
import { type Overrides, overridesSchema } from "./overrides.ts";

/** One building of a stock: the archetype it follows and what differs from it. */
export interface StockItem {
  /** 1-based data row in the source file (the header is row 0). */
  row: number;
  code: string;
  overrides: Overrides;
}

/** A stock row that could not be read, with the column at fault. */
export interface StockProblem {
  row: number;
  column: string;
  message: string;
}

const OVERRIDE_COLUMNS = Object.keys(overridesSchema.shape).filter((k) => k !== "surfaces");

/**
 * Reads CSV records (header keys, string values) into stock items; every problem is collected,
 * so one pass names them all. Empty cells keep the archetype value.
 */
export function readStock(
  records: readonly Record<string, string | undefined>[],
): { items: StockItem[]; problems: StockProblem[] } {
  const items: StockItem[] = [];
  const problems: StockProblem[] = [];
  records.forEach((record, index) => {
    const row = index + 1;
    const problemsBefore = problems.length;
    const code = record.code?.trim() ?? "";
    if (code === "") problems.push({ row, column: "code", message: "is empty" });
    const candidate: Record<string, unknown> = {};
    for (const [column, raw] of Object.entries(record)) {
      const value = raw?.trim() ?? "";
      if (column === "code" || value === "") continue;
      if (column === "surfaces") {
        try {
          candidate.surfaces = JSON.parse(value);
        } catch {
          problems.push({ row, column, message: "is not valid JSON" });
        }
      } else if (OVERRIDE_COLUMNS.includes(column)) {
        const n = Number(value);
        if (Number.isNaN(n)) problems.push({ row, column, message: `"${value}" is not a number` });
        else candidate[column] = n;
      } else {
        problems.push({ row, column, message: "is not an override (unknown column)" });
      }
    }
    const parsed = overridesSchema.safeParse(candidate);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const column = issue.path.length > 0 ? issue.path.join(".") : "(row)";
        problems.push({ row, column, message: issue.message });
      }
    } else if (problems.length === problemsBefore) {
      items.push({ row, code, overrides: parsed.data });
    }
  });
  return { items, problems };
}
