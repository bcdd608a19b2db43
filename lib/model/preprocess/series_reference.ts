/**
 * References from a constraint or cost value to a column of `timeSeries`: Calliope's
 * `file=ID.csv:column` (without the column, the column named after the location) or
 * `ts:ID:column`. A reference that names no series or no column is a problem; other data is
 * never substituted.
 */
import type { TimeSeries } from "../model_config.ts";

/** A parsed reference. */
export interface SeriesReference {
  /** The text as written. */
  readonly text: string;
  /** The id of the referenced series as written (`demand` for `file=demand.csv:x`). */
  readonly file: string;
  /** Column; undefined when `file=ID.csv` named none (then: the location id). */
  readonly column?: string;
}

/** True when `value` is written as a series reference. */
export function isSeriesReference(value: unknown): value is string {
  return typeof value === "string" && (value.startsWith("file=") || value.startsWith("ts:"));
}

/** Parses `file=ID.csv[:column]` or `ts:ID:column`; undefined when malformed. */
export function parseSeriesReference(text: string): SeriesReference | undefined {
  if (text.startsWith("file=")) {
    const rest = text.slice("file=".length);
    // Calliope splits on the last colon (`rsplit(":", 1)`).
    const colon = rest.lastIndexOf(":");
    const file = colon < 0 ? rest : rest.slice(0, colon);
    const column = colon < 0 ? undefined : rest.slice(colon + 1);
    if (file === "" || column === "") return undefined;
    return column === undefined ? { text, file } : { text, file, column };
  }
  if (text.startsWith("ts:")) {
    const rest = text.slice(3);
    const colon = rest.indexOf(":");
    if (colon <= 0 || colon === rest.length - 1) return undefined;
    return { text, file: rest.slice(0, colon), column: rest.slice(colon + 1) };
  }
  return undefined;
}

/** The timeSeries entry a reference names: by id, by id without `.csv`, or by the full name. */
export function findSeries(
  series: readonly TimeSeries[],
  file: string,
): { index: number; entry: TimeSeries } | undefined {
  const bare = file.toLowerCase().endsWith(".csv") ? file.slice(0, -4) : file;
  for (const candidates of [[file], [bare, `${bare}.csv`]]) {
    const index = series.findIndex((s) => candidates.includes(s.id));
    if (index >= 0) return { index, entry: series[index]! };
  }
  return undefined;
}
