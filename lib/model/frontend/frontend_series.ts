/**
 * Time series as the existing modelling frontend sends them (research notes `tempo_client.md`
 * section 1.6) read into the canonical `{id, timestamps, columns}`.
 *
 * The frontend's entry: `{id, name, fileName: "NAME.csv", file, data, columns, dateColumn,
 * dataColumns, ...}` where `data` is an array of row objects
 * (`{time: "2005-01-01 00:00:00", demand: -25284.48}`) or of row arrays in `columns` order. The
 * canonical id is `NAME` (the file name without `.csv`), so `file=NAME.csv:column` refers to it.
 * Template entries whose `data` is a bare number array (no dates; their `file` is a folder) cannot
 * be placed in time and are skipped with a note, as that client's runner could not write them
 * either.
 */
import { frontendKey } from "./frontend_ids.ts";
import { isPlainObject } from "./frontend_infinity.ts";
import type { TimeSeries } from "../model_config.ts";
import type { ModelProblem } from "../model_problem.ts";

/** What reading the frontend's `timeSeries` gives. */
export interface FrontendSeriesResult {
  readonly series: TimeSeries[];
  readonly notes: string[];
  readonly problems: ModelProblem[];
}

/** At most this many value problems are reported per entry (a bad column repeats on every row). */
const MAX_VALUE_PROBLEMS = 5;

/**
 * The canonical series id of a frontend entry: `fileName`, else `file`, else `name`, else `id`,
 * without folder and `.csv`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(seriesIdOf({ fileName: "demand-1.csv" }), "demand-1");
 * ```
 */
export function seriesIdOf(entry: Record<string, unknown>): string | undefined {
  for (const key of ["fileName", "file", "name", "id"]) {
    const value = entry[key];
    if (typeof value !== "string" && typeof value !== "number") continue;
    const base = String(value).split(/[\\/]/).pop()!.replace(/\.csv$/i, "");
    if (base !== "") return base;
  }
  return undefined;
}

/**
 * Every usable entry of the frontend's `timeSeries` as a canonical series. Column names are kept
 * as written; where the frontend runner's lower-cased safe id of a column differs and names no
 * other column, the same values are also offered under that name, since that runner wrote CSV
 * headers through it and models referring to the lower-cased name ran there.
 */
export function readFrontendSeries(entries: unknown, path = "timeSeries"): FrontendSeriesResult {
  const series: TimeSeries[] = [];
  const notes: string[] = [];
  const problems: ModelProblem[] = [];
  if (entries === undefined || entries === null) return { series, notes, problems };
  if (!Array.isArray(entries)) {
    problems.push({ path, message: "timeSeries must be a list of time-series entries" });
    return { series, notes, problems };
  }
  const seen = new Set<string>();
  entries.forEach((entry, i) => {
    const at = `${path}[${i}]`;
    if (!isPlainObject(entry)) {
      problems.push({ path: at, message: "a time-series entry must be an object" });
      return;
    }
    const id = seriesIdOf(entry);
    if (id === undefined) {
      problems.push({ path: at, message: "a time-series entry needs a fileName, file or name" });
      return;
    }
    if (seen.has(id)) {
      notes.push(`${at}: a second series "${id}" was skipped; the first one is used`);
      return;
    }
    const read = readEntry(entry, at);
    if ("skip" in read) {
      notes.push(`${at} ("${id}") skipped: ${read.skip}`);
      return;
    }
    if (read.problems.length > 0) {
      problems.push(...read.problems);
      return;
    }
    seen.add(id);
    series.push({ id, timestamps: read.timestamps, columns: withLowerCaseAliases(read.columns) });
  });
  return { series, notes, problems };
}

type EntryRead =
  | { skip: string }
  | { timestamps: string[]; columns: Record<string, number[]>; problems: ModelProblem[] };

function readEntry(entry: Record<string, unknown>, at: string): EntryRead {
  const data = entry["data"];
  if (!Array.isArray(data) || data.length === 0) return { skip: "it has no data rows" };
  const first = data[0];
  if (typeof first === "number") {
    return { skip: "its data is a number array without dates (a template entry)" };
  }
  if (Array.isArray(first)) return readArrayRows(entry, data, at);
  if (isPlainObject(first)) return readObjectRows(entry, data, at);
  return { skip: "its data rows are neither objects nor arrays" };
}

function readObjectRows(entry: Record<string, unknown>, data: unknown[], at: string): EntryRead {
  const first = data[0] as Record<string, unknown>;
  const keys = Object.keys(first);
  const dateKey = dateColumnOf(entry, keys, (k) => first[k]);
  if (dateKey === undefined) return { skip: "no date column found in its rows" };
  const listed = stringList(entry["dataColumns"]) ?? stringList(entry["columns"]);
  const fromList = listed?.filter((c) => c !== dateKey && c in first) ?? [];
  const names = fromList.length > 0 ? fromList : keys.filter((k) => k !== dateKey);
  return collect(data.length, names, at, (r) => {
    const row = data[r];
    return isPlainObject(row) ? { date: row[dateKey], value: (c) => row[names[c]!] } : undefined;
  });
}

function readArrayRows(entry: Record<string, unknown>, data: unknown[], at: string): EntryRead {
  const header = stringList(entry["columns"]);
  if (header === undefined) return { skip: "its data rows are arrays but it has no columns list" };
  const first = data[0] as unknown[];
  const dateName = dateColumnOf(entry, header, (k) => first[header.indexOf(k)]);
  if (dateName === undefined) return { skip: "no date column found in its rows" };
  const dateIndex = header.indexOf(dateName);
  const indices = header.map((_, j) => j).filter((j) => j !== dateIndex);
  const names = indices.map((j) => header[j]!);
  return collect(data.length, names, at, (r) => {
    const row = data[r];
    return Array.isArray(row)
      ? { date: row[dateIndex], value: (c) => row[indices[c]!] }
      : undefined;
  });
}

/** `dateColumn` if present, else `time`, else an empty header, else the first non-numeric key. */
function dateColumnOf(
  entry: Record<string, unknown>,
  keys: readonly string[],
  valueOf: (key: string) => unknown,
): string | undefined {
  const named = entry["dateColumn"];
  if (typeof named === "string" && keys.includes(named)) return named;
  if (keys.includes("time")) return "time";
  if (keys.includes("")) return "";
  return keys.find((k) => {
    const v = valueOf(k);
    return typeof v === "string" && v.trim() !== "" && !Number.isFinite(Number(v));
  });
}

type RowReader = (r: number) => { date: unknown; value: (c: number) => unknown } | undefined;

function collect(rows: number, names: readonly string[], at: string, row: RowReader): EntryRead {
  const timestamps: string[] = [];
  const columns: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const problems: ModelProblem[] = [];
  const fail = (path: string, message: string) => {
    if (problems.length < MAX_VALUE_PROBLEMS) problems.push({ path, message });
  };
  for (let r = 0; r < rows; r++) {
    const read = row(r);
    if (read === undefined) {
      fail(`${at}.data[${r}]`, "a data row must have the shape of the first row");
      continue;
    }
    if (typeof read.date !== "string" || read.date.trim() === "") {
      fail(`${at}.data[${r}]`, "the row has no timestamp in its date column");
      continue;
    }
    timestamps.push(read.date.trim());
    names.forEach((name, c) => {
      const n = toNumber(read.value(c));
      if (n === undefined) fail(`${at}.data[${r}].${name}`, "not a number");
      else columns[name]!.push(n);
    });
  }
  if (timestamps.length === 0 && problems.length === 0) {
    fail(`${at}.data`, "the series has no rows");
  }
  return { timestamps, columns, problems };
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "") {
    const n = Number(value);
    if (Number.isFinite(n)) return n;
  }
  return undefined;
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === "string")
    ? value as string[]
    : undefined;
}

function withLowerCaseAliases(columns: Record<string, number[]>): Record<string, number[]> {
  const out = { ...columns };
  for (const [name, values] of Object.entries(columns)) {
    const alias = frontendKey(name);
    if (alias !== "" && !(alias in out)) out[alias] = values;
  }
  return out;
}
