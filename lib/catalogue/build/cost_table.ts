/**
 * The PyPSA technology-data cost tables (`costs_<year>.csv`, long format: one row per
 * technology and parameter), parsed into a lookup by technology and parameter.
 */
import { parseCsv } from "../../csv/parse_csv.ts";

/** One row of a PyPSA technology-data cost table. */
export interface CostRow {
  readonly technology: string;
  readonly parameter: string;
  readonly value: number;
  readonly unit: string;
  readonly source: string;
  readonly description: string;
  /** The source's original price year (`currency_year`), null when the row has none. */
  readonly currency_year: number | null;
}

/** A cost table: technology -> parameter -> row. */
export type CostTable = ReadonlyMap<string, ReadonlyMap<string, CostRow>>;

/** Parses a cost table; throws a SyntaxError listing every malformed or duplicate row. */
export function parseCostTable(csvText: string, file: string): CostTable {
  const csv = parseCsv(csvText, file);
  const problems = csv.problems.map((p) => `${file}:${p.row}: ${p.message}`);
  const table = new Map<string, Map<string, CostRow>>();
  csv.records.forEach((r, i) => {
    const value = Number(r.value);
    if (!r.technology || !r.parameter || r.value === "" || !Number.isFinite(value)) {
      problems.push(`${file}:${i + 1}: needs technology, parameter and a numeric value`);
      return;
    }
    const rows = table.get(r.technology) ?? new Map<string, CostRow>();
    table.set(r.technology, rows);
    if (rows.has(r.parameter)) {
      problems.push(`${file}:${i + 1}: second row for ${r.technology} / ${r.parameter}`);
    }
    rows.set(r.parameter, {
      technology: r.technology,
      parameter: r.parameter,
      value,
      unit: r.unit ?? "",
      source: (r.source ?? "").trim(),
      description: (r["further description"] ?? "").trim(),
      currency_year: currencyYear(r.currency_year),
    });
  });
  if (problems.length) throw new SyntaxError(`Cannot read ${file}:\n${problems.join("\n")}`);
  return table;
}

/** `2015.0` -> 2015; empty or non-numeric -> null. */
function currencyYear(text: string | undefined): number | null {
  const n = Number(text);
  return text && text.trim() !== "" && Number.isFinite(n) ? Math.trunc(n) : null;
}
