/**
 * A run's result JSON as flat tables for files and SQL: each columnar member becomes one long
 * table (`carrier_prod` -> key, timestep, value), each map of numbers a key/value table, each
 * map of maps a group/key/value table. Scalars and small objects stay in the summary.
 */
import type { RunResult } from "./run_result.ts";

/** One table: column names and rows of scalars. */
export interface ResultTable {
  readonly name: string;
  readonly columns: readonly string[];
  readonly rows: (string | number | null)[][];
}

/** Members that repeat others in the frontend's shapes; the tables keep the columnar ones. */
const FRONTEND_VIEWS = new Set([
  "capacities",
  "generation",
  "dispatch",
  "transmission_flow",
  "demand_timeseries",
  "costs_by_tech",
  "costs_by_location",
  "tech_metadata",
  "tech_parents",
]);

function isNumberMap(value: unknown): value is Record<string, number> {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === "number" || v === null);
}

function isSeriesMap(value: unknown): value is Record<string, (number | null)[]> {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    Object.keys(value).length > 0 &&
    Object.values(value).every((v) =>
      Array.isArray(v) && v.every((x) => typeof x === "number" || x === null)
    );
}

function isNestedNumberMap(value: unknown): value is Record<string, Record<string, number>> {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    Object.keys(value).length > 0 && Object.values(value).every(isNumberMap);
}

/**
 * The tables of `result` (timesteps as the result's `timestamps`), and the summary: every
 * member that is not a table.
 */
export function resultTables(
  result: RunResult,
): { tables: ResultTable[]; summary: Record<string, unknown> } {
  const strings = (v: unknown) => Array.isArray(v) ? v as string[] : [];
  // A clustered run's members are on its optimised `timesteps`; `timestamps` is then the
  // rebuilt original timeline of its `reconstructed` members, and the level carried between
  // days is by `datesteps`.
  const timestamps = strings(result["timesteps"] ?? result.timestamps);
  const tables: ResultTable[] = [];
  const summary: Record<string, unknown> = {};
  const seriesTable = (name: string, value: Record<string, (number | null)[]>, at: string[]) => {
    const rows: (string | number | null)[][] = [];
    for (const [key, series] of Object.entries(value)) {
      series.forEach((v, t) => rows.push([key, at[t] ?? t, v]));
    }
    tables.push({ name, columns: ["key", "timestep", "value"], rows });
  };
  for (const [name, value] of Object.entries(result)) {
    if (FRONTEND_VIEWS.has(name) || name === "timestamps") continue;
    if (name === "spores" && Array.isArray(value)) {
      sporesTables(value as Record<string, unknown>[], result, tables);
      summary["spores"] = (value as Record<string, unknown>[]).map((e) => ({
        spore: e["spore"],
        termination: e["termination"],
        objective: e["objective"],
        costs_by_class: e["costs_by_class"],
      }));
      continue;
    }
    if (name === "reconstructed" && typeof value === "object" && value !== null) {
      for (const [member, table] of Object.entries(value)) {
        if (isSeriesMap(table)) {
          seriesTable(`reconstructed_${member}`, table, strings(result.timestamps));
        }
      }
      summary["reconstructed"] = { note: (value as Record<string, unknown>)["note"] };
    } else if (name === "storage_inter_cluster" && isSeriesMap(value)) {
      seriesTable(name, value, strings(result["datesteps"]));
    } else if (isSeriesMap(value)) {
      seriesTable(name, value, timestamps);
    } else if (isNestedNumberMap(value)) {
      const rows: (string | number | null)[][] = [];
      for (const [group, map] of Object.entries(value)) {
        for (const [key, v] of Object.entries(map)) rows.push([group, key, v]);
      }
      tables.push({ name, columns: ["group", "key", "value"], rows });
    } else if (isNumberMap(value) && Object.keys(value).length > 0) {
      tables.push({
        name,
        columns: ["key", "value"],
        rows: Object.entries(value).map(([k, v]) => [k, v]),
      });
    } else {
      summary[name] = value;
    }
  }
  return { tables, summary };
}

/**
 * A SPORES run's tables: each table of every spore's entry as one `spores_<name>` table with a
 * leading `spore` column (the first, cost-optimal solve is also the result's own tables).
 */
function sporesTables(
  entries: readonly Record<string, unknown>[],
  result: RunResult,
  out: ResultTable[],
): void {
  const byName = new Map<string, ResultTable>();
  for (const entry of entries) {
    const { tables } = resultTables(
      { ...entry, timestamps: result.timestamps } as unknown as RunResult,
    );
    for (const t of tables) {
      const name = `spores_${t.name}`;
      let table = byName.get(name);
      if (table === undefined) {
        table = { name, columns: ["spore", ...t.columns], rows: [] };
        byName.set(name, table);
        out.push(table);
      }
      for (const row of t.rows) table.rows.push([entry["spore"] as number, ...row]);
    }
  }
}
