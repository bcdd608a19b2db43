/**
 * The `file=` time series a Calliope 0.6 model refers to, read from its timeseries_data_path
 * into ModelConfig `timeSeries` entries (only the files referenced).
 */
import { dirname, isAbsolute, join } from "node:path";
import Papa from "papaparse";
import { type AttrDict, getKey } from "./calliope_yaml.ts";
import type { ModelConfig } from "../model_config.ts";

/** The folder of the series: `model.timeseries_data_path`, relative to the model file. */
export function timeseriesDir(config: AttrDict, modelFile: string): string {
  const path = getKey(config, "model.timeseries_data_path");
  const dir = typeof path === "string" ? path : ".";
  return isAbsolute(dir) ? dir : join(dirname(modelFile), dir);
}

const FILE_REFERENCE = /^file=([^:]+)(?::(.+))?$/;

/** Every `file=` name referenced by a value of the model, in first-seen order. */
function referencedFiles(model: ModelConfig): string[] {
  const files: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") {
      const m = FILE_REFERENCE.exec(value.trim());
      if (m && !files.includes(m[1]!)) files.push(m[1]!);
      else if (value.startsWith("df=")) {
        throw new TypeError(`"${value}": df= references (Python dataframes) are not supported`);
      }
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(walk);
  };
  walk(model.technologies);
  walk(model.locations);
  walk(model.links);
  // apply_clustering's `clustering_func: file=DAYS.csv:column` (the cluster of each day).
  walk(model.parameters.time);
  return files;
}

/** The series of every `file=` reference of `model`, read from `dir`. */
export async function readReferencedSeries(model: ModelConfig, dir: string) {
  const series = [];
  for (const file of referencedFiles(model)) {
    series.push(await readSeriesFile(join(dir, file), file.replace(/\.csv$/i, "")));
  }
  return series;
}

/** `2005-01-01 00:00[:00]` (or with `T`, or a bare date) as `2005-01-01T00:00:00`. */
export function isoTimestamp(text: string): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?)?$/.exec(
    text.trim(),
  );
  if (!m) return undefined;
  return `${m[1]}T${m[2] ?? "00"}:${m[3] ?? "00"}:${m[4] ?? "00"}`;
}

/** Reads a Calliope time-series CSV (first column the timestamps) into a timeSeries entry. */
export async function readSeriesFile(
  path: string,
  id: string,
): Promise<{ id: string; timestamps: string[]; columns: Record<string, number[]> }> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Deno.errors.NotFound(`Cannot read time series "${path}": no such file`);
    }
    throw error;
  }
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { skipEmptyLines: true });
  const rows = parsed.data;
  const header = rows[0];
  if (!header || header.length < 2) {
    throw new SyntaxError(`${path}: a time series needs a header of timestamp and value columns`);
  }
  const names = header.slice(1).map((h) => h.trim());
  const timestamps: string[] = [];
  const columns: Record<string, number[]> = {};
  for (const name of names) columns[name] = [];
  for (let r = 1; r < rows.length; r++) {
    const row = rows[r]!;
    const stamp = isoTimestamp(row[0] ?? "");
    if (!stamp) throw new SyntaxError(`${path}:${r + 1}: cannot read timestamp "${row[0]}"`);
    timestamps.push(stamp);
    names.forEach((name, c) => {
      const cell = (row[c + 1] ?? "").trim();
      const value = Number(cell);
      if (cell === "" || Number.isNaN(value)) {
        throw new SyntaxError(`${path}:${r + 1}: column "${name}": "${cell}" is not a number`);
      }
      // -0 (as in "-0.0") is 0: keeps series equal after a CSV round trip.
      columns[name]!.push(value === 0 ? 0 : value);
    });
  }
  if (timestamps.length === 0) throw new SyntaxError(`${path}: no rows`);
  return { id, timestamps, columns };
}
