/**
 * The data file of a profile upload (OpenTech-DB's `POST /timeseries/upload`), CSV or JSON, read
 * to time stamps and values. Every problem is collected with its row and reported at once (the
 * first MAX_FILE_PROBLEMS one by one, the rest counted).
 *
 * Format: by the file name, `.json` is JSON and `.csv` CSV; any other name is JSON when its text
 * starts with `[` or `{`, else CSV. A byte order mark is dropped.
 *
 * CSV, as the frontend's template (`timestamp,value`, then `2019-01-01 00:00:00,0.142`):
 * - lines end in LF, CRLF or CR; blank lines are skipped; cells may be "double-quoted";
 * - the separator is `;` when the first line has one (then a decimal comma, `0,142`, is read as
 *   `0.142`), else a tab when it has one, else `,`;
 * - a header is optional. The first line is a header when it names a time column (`timestamp`,
 *   `time`, `datetime` or `date`, any case); its `value` (or `v`) column holds the values, or
 *   with two columns the other one. Without a header the first column is the time, the second
 *   the value. A first line that is neither a header nor data is refused as a header naming no
 *   time column.
 * - "row N" is line N of the file (the header is line 1), as an editor counts.
 *
 * JSON, the four shapes the frontend offers: `{"points": [...]}`, an array of
 * `{"timestamp", "value"}` objects (the time also as `time`, `datetime` or `date`, the value as
 * `v`), an array of `[timestamp, value]` pairs, or an object `{"<timestamp>": value}`. A value
 * may be a number or a numeric string; "row N" is the N-th entry, from 1.
 *
 * Every file: time stamps are ISO 8601 (`utc_timestamp.ts`; without a zone, UTC), values finite
 * decimal numbers, 2 to MAX_TIMESTEPS rows (at least 2, as the original backend asks). Values
 * are kept exactly as written (the original rounded them to 6 decimals). The order and spacing
 * of the time stamps are the upload's check (`profile_upload.ts`), which knows the resolution.
 */
import { MAX_TIMESTEPS } from "../../profiles/profile_schema.ts";
import { isoUtc, parseUtcTimestamp } from "./utc_timestamp.ts";

/** Problems named one by one before the rest are counted in one line. */
export const MAX_FILE_PROBLEMS = 20;

/** Fewest rows a profile file may have. */
export const MIN_ROWS = 2;

/** A profile file read: one time stamp (ISO 8601, UTC) and value per row, and the row numbers. */
export type ParsedProfileFile =
  | {
    ok: true;
    /** Start of each step, `2019-01-01T00:00:00Z`. */
    timestamps: string[];
    values: number[];
    /** Milliseconds since the epoch of each time stamp. */
    times: number[];
    /** The row of each point as problems name it: the CSV line or the JSON entry, from 1. */
    rows: number[];
  }
  | { ok: false; problems: string[] };

const TIME_NAMES = new Set(["timestamp", "time", "datetime", "date"]);
const VALUE_NAMES = new Set(["value", "v"]);
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const DECIMAL_COMMA = /^[+-]?\d+,\d+$/;
const TIME_EXAMPLE = "e.g. 2019-01-01 00:00:00 or 2019-01-01T00:00:00Z";

/** Problems collected while reading, the first MAX_FILE_PROBLEMS kept. */
class Problems {
  readonly list: string[] = [];
  #more = 0;
  add(problem: string): void {
    if (this.list.length < MAX_FILE_PROBLEMS) this.list.push(problem);
    else this.#more++;
  }
  get any(): boolean {
    return this.list.length > 0;
  }
  all(): string[] {
    return this.#more === 0 ? this.list : [...this.list, `... and ${this.#more} more problems`];
  }
}

/** A cell as a message shows it: text quoted, a number as written (`Infinity`, not `null`). */
function shown(cell: unknown): string {
  return typeof cell === "number" ? String(cell) : JSON.stringify(cell);
}

/** Rows read so far: the points and the problems. */
class Points {
  readonly timestamps: string[] = [];
  readonly values: number[] = [];
  readonly times: number[] = [];
  readonly rows: number[] = [];
  readonly problems = new Problems();

  /** Adds the row when its time stamp and value are good, else names what is wrong. */
  add(row: number, timestamp: unknown, value: unknown, decimalComma = false): void {
    const t = this.#time(row, timestamp);
    const v = this.#value(row, value, decimalComma);
    if (t === undefined || v === undefined) return;
    this.timestamps.push(isoUtc(t));
    this.values.push(v);
    this.times.push(t);
    this.rows.push(row);
  }

  #time(row: number, timestamp: unknown): number | undefined {
    if (timestamp === undefined || timestamp === null || timestamp === "") {
      this.problems.add(`row ${row}: the time stamp is missing`);
      return undefined;
    }
    const t = typeof timestamp === "string" ? parseUtcTimestamp(timestamp) : undefined;
    if (t === undefined) {
      this.problems.add(
        `row ${row}: time stamp ${shown(timestamp)} is not an ISO 8601 time ` +
          `(${TIME_EXAMPLE})`,
      );
    }
    return t;
  }

  #value(row: number, value: unknown, decimalComma: boolean): number | undefined {
    if (value === undefined || value === null || value === "") {
      this.problems.add(`row ${row}: the value is missing`);
      return undefined;
    }
    let v: number | undefined;
    if (typeof value === "number") v = value;
    else if (typeof value === "string") {
      const text = value.trim();
      if (DECIMAL.test(text)) v = Number(text);
      else if (decimalComma && DECIMAL_COMMA.test(text)) v = Number(text.replace(",", "."));
    }
    if (v === undefined) {
      this.problems.add(`row ${row}: value ${shown(value)} is not a number`);
    } else if (!Number.isFinite(v)) {
      this.problems.add(`row ${row}: value ${shown(value)} is not a finite number`);
      return undefined;
    }
    return v;
  }

  result(): ParsedProfileFile {
    if (!this.problems.any) {
      const n = this.values.length;
      if (n < MIN_ROWS) {
        this.problems.add(`file: has ${n} data rows, at least ${MIN_ROWS} are needed`);
      }
    }
    if (this.problems.any) return { ok: false, problems: this.problems.all() };
    const { timestamps, values, times, rows } = this;
    return { ok: true, timestamps, values, times, rows };
  }
}

function tooMany(n: number): ParsedProfileFile {
  return {
    ok: false,
    problems: [`file: has ${n} data rows, at most ${MAX_TIMESTEPS} are allowed`],
  };
}

/** The cells of one CSV line; `"` quotes a cell, `""` inside quotes is one quote. */
function splitCsvLine(line: string, separator: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      cells.push(cell);
      cell = "";
    } else cell += c;
  }
  cells.push(cell);
  return cells.map((s) => s.trim());
}

/** Reads a CSV profile file. */
function parseCsv(text: string): ParsedProfileFile {
  const lines = text.split(/\r\n|\n|\r/);
  const numbered = lines
    .map((line, i) => ({ line, row: i + 1 }))
    .filter(({ line }) => line.trim() !== "");
  const first = numbered[0];
  if (!first) return { ok: false, problems: ["file: is empty"] };
  const separator = first.line.includes(";") ? ";" : first.line.includes("\t") ? "\t" : ",";
  const head = splitCsvLine(first.line, separator);
  const names = head.map((cell) => cell.toLowerCase());
  let timeColumn = 0;
  let valueColumn = 1;
  let data = numbered;
  const named = names.findIndex((name) => TIME_NAMES.has(name));
  if (named >= 0) {
    data = numbered.slice(1);
    timeColumn = named;
    const value = names.findIndex((name) => VALUE_NAMES.has(name));
    valueColumn = value >= 0 ? value : head.length === 2 ? 1 - named : -1;
    if (valueColumn < 0) {
      return {
        ok: false,
        problems: [
          `row ${first.row}: the header ${JSON.stringify(first.line.trim())} names no value ` +
          "column: name it `value`",
        ],
      };
    }
  } else if (parseUtcTimestamp(head[0] ?? "") === undefined && !DECIMAL.test(head[1] ?? "")) {
    return {
      ok: false,
      problems: [
        `row ${first.row}: the header ${JSON.stringify(first.line.trim())} names no time ` +
        "column: name it `timestamp` (then `value`), as in `timestamp,value`",
      ],
    };
  }
  if (data.length > MAX_TIMESTEPS) return tooMany(data.length);
  const points = new Points();
  const needed = Math.max(timeColumn, valueColumn) + 1;
  for (const { line, row } of data) {
    const cells = splitCsvLine(line, separator);
    if (cells.length < needed) {
      const sep = separator === "\t" ? "tab" : `"${separator}"`;
      points.problems.add(
        `row ${row}: expected ${needed} columns separated by ${sep}, found ${cells.length}`,
      );
      continue;
    }
    points.add(row, cells[timeColumn], cells[valueColumn], separator === ";");
  }
  return points.result();
}

/** The first member of `entry` named in `names`, undefined when none. */
function member(entry: Record<string, unknown>, names: readonly string[]): unknown {
  for (const name of names) if (entry[name] !== undefined) return entry[name];
  return undefined;
}

/** Reads a JSON profile file. */
function parseJson(text: string): ParsedProfileFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [`file: is not valid JSON: ${(error as Error).message}`] };
  }
  let entries: unknown[];
  if (Array.isArray(parsed)) entries = parsed;
  else if (parsed !== null && typeof parsed === "object") {
    const object = parsed as Record<string, unknown>;
    if ("points" in object) {
      if (!Array.isArray(object.points)) {
        return { ok: false, problems: ["points: must be an array of {timestamp, value}"] };
      }
      entries = object.points;
    } else entries = Object.entries(object);
  } else {
    return {
      ok: false,
      problems: [
        "file: expected {points: [...]}, an array of {timestamp, value} or [timestamp, value], " +
        "or an object {timestamp: value}",
      ],
    };
  }
  if (entries.length > MAX_TIMESTEPS) return tooMany(entries.length);
  const points = new Points();
  entries.forEach((entry, i) => {
    const row = i + 1;
    if (Array.isArray(entry) && entry.length >= 2) points.add(row, entry[0], entry[1]);
    else if (entry !== null && typeof entry === "object" && !Array.isArray(entry)) {
      const object = entry as Record<string, unknown>;
      points.add(row, member(object, [...TIME_NAMES]), member(object, [...VALUE_NAMES]));
    } else {
      points.problems.add(`row ${row}: expected {timestamp, value} or [timestamp, value]`);
    }
  });
  return points.result();
}

/**
 * Reads an uploaded profile file (CSV or JSON, told by its name or its first character) to its
 * time stamps and values, or every problem found with its row.
 *
 * `parseProfileFile("pv.csv", "timestamp,value\n2019-01-01 00:00:00,0.142\n...")` gives
 * timestamps `["2019-01-01T00:00:00Z", ...]` and values `[0.142, ...]`.
 */
export function parseProfileFile(fileName: string, text: string): ParsedProfileFile {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const name = fileName.toLowerCase();
  const json = name.endsWith(".json") ||
    (!name.endsWith(".csv") && /^\s*[[{]/.test(body));
  return json ? parseJson(body) : parseCsv(body);
}
