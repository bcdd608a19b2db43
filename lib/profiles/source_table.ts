/**
 * Reads one hourly source CSV (`{ISO}_2016.csv` or `prices_2016.csv`) into its timestamps and
 * numeric columns. A blank cell becomes null; anything that is not a plain decimal number is a
 * SyntaxError naming file, line and column; timestamps must be consecutive UTC hours.
 */
import Papa from "papaparse";

/** The timestamps and numeric columns of a source file; null marks a blank cell. */
export interface SourceTable {
  file: string;
  timestamps: string[];
  columns: Map<string, (number | null)[]>;
}

const HOUR_MS = 3_600_000;
const UTC_HOUR = /^\d{4}-\d\d-\d\dT\d\d:00:00Z$/;

/** Plain decimal notation; rejects "1,5", "NaN", "Infinity", "0x10". */
const DECIMAL = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** Parses CSV text whose first column, `time_column`, holds hour starts in UTC. */
export function parseSourceTable(file: string, text: string, time_column: string): SourceTable {
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: true });
  const first = parsed.errors[0];
  if (first) {
    throw new SyntaxError(`Cannot read "${file}": line ${(first.row ?? 0) + 1}: ${first.message}`);
  }
  const [header, ...rows] = parsed.data;
  if (!header || header[0] !== time_column) {
    throw new SyntaxError(`Cannot read "${file}": the first column must be "${time_column}"`);
  }
  const names = header.slice(1);
  const cells = names.map(() => [] as (number | null)[]);
  const timestamps: string[] = [];
  let previous = NaN;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] ?? [];
    const line = r + 2;
    if (row.length !== header.length) {
      throw new SyntaxError(
        `Cannot read "${file}": line ${line} has ${row.length} cells, the header ${header.length}`,
      );
    }
    const time = row[0] ?? "";
    const ms = Date.parse(time);
    if (!UTC_HOUR.test(time) || Number.isNaN(ms)) {
      throw new SyntaxError(`Cannot read "${file}": line ${line}: "${time}" is not a UTC hour`);
    }
    if (r > 0 && ms !== previous + HOUR_MS) {
      throw new RangeError(
        `Cannot read "${file}": line ${line}: ${time} does not follow the previous hour`,
      );
    }
    previous = ms;
    timestamps.push(time);
    for (let c = 0; c < names.length; c++) {
      const cell = (row[c + 1] ?? "").trim();
      if (cell !== "" && !DECIMAL.test(cell)) {
        throw new SyntaxError(
          `Cannot read "${file}": line ${line}, column ${names[c]}: "${cell}" is not a number`,
        );
      }
      cells[c]?.push(cell === "" ? null : Number(cell));
    }
  }
  const columns = new Map(names.map((name, c) => [name, cells[c] ?? []]));
  return { file, timestamps, columns };
}
