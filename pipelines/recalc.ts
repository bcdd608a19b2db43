/**
 * Batch recalculation: every variant (or one country's), or a building stock from CSV, written
 * to CSV or Parquet with the reference and the deviation.
 *
 *   deno task recalc [--country DE] [--input stock.csv] [--out results.csv|results.parquet]
 *
 * Exit code 1 on invalid input (every problem named with its row), 0 otherwise.
 */
import Papa from "papaparse";
import { parseArgs } from "node:util";
import { openStore } from "../lib/store/store.ts";
import { type TableColumn, writeTableFile } from "../lib/store/table_file.ts";
import { loadTypology } from "../lib/heat/typology/typology.ts";
import { readStock } from "../lib/heat/calculation/stock.ts";
import type { Overrides } from "../lib/heat/calculation/overrides.ts";
import { type RecalcResult, recalculate, summarize } from "../lib/heat/calculation/recalc.ts";
import { defaultSteps } from "../lib/data_sets.ts";
import { ensureStore } from "../lib/store/build_store.ts";

const COLUMNS = ["code", "q_h_nd", "reference_q_h_nd", "deviation"];

/**
 * Draws a progress bar on stderr, redrawn in place at most every 1 %; on a log file (no
 * terminal) it stays silent rather than writing a hundred lines.
 */
function progressBar(label: string): (done: number, total: number) => void {
  const encoder = new TextEncoder();
  if (!Deno.stderr.isTerminal()) return () => {};
  let shown = -1;
  return (done, total) => {
    const percent = Math.floor((done / total) * 100);
    if (percent === shown && done !== total) return;
    shown = percent;
    const filled = Math.round(percent / 4);
    const bar = "#".repeat(filled) + " ".repeat(25 - filled);
    const end = done === total ? "\n" : "";
    Deno.stderr.writeSync(encoder.encode(`\r${label} [${bar}] ${done}/${total}${end}`));
  };
}

/** Writes results as CSV, or as Parquet through DuckDB when the path ends in .parquet. */
export async function writeResults(path: string, results: readonly RecalcResult[]): Promise<void> {
  const rows = results.map((r) => [r.code, r.q_h_nd, r.reference, r.deviation]);
  if (path.toLowerCase().endsWith(".parquet")) {
    const store = await openStore(":memory:");
    try {
      const types = ["VARCHAR", "DOUBLE", "DOUBLE", "DOUBLE"];
      const columns = COLUMNS.map((name, i): TableColumn => [name, types[i]!]);
      await writeTableFile(store, { name: "results", columns, rows }, path, "parquet");
    } finally {
      await store.close();
    }
    return;
  }
  const csv = Papa.unparse({ fields: COLUMNS, data: rows.map((r) => r.map((v) => v ?? "")) });
  await Deno.writeTextFile(path, csv + "\n");
}

interface Item {
  code: string;
  overrides?: Overrides;
  label?: string;
}

/** Runs the CLI with the given arguments; returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      country: { type: "string" },
      input: { type: "string" },
      out: { type: "string", default: "recalc.csv" },
      store: { type: "string", default: Deno.env.get("STORE_PATH") ?? "data/store.duckdb" },
    },
  });
  await ensureStore(values.store, { steps: defaultSteps() });
  const store = await openStore(values.store);
  const typology = await loadTypology(store).finally(() => store.close());

  let items: Item[];
  if (values.input) {
    const text = await Deno.readTextFile(values.input);
    const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
    const { items: stock, problems } = readStock(parsed.data);
    for (const e of parsed.errors) {
      problems.push({ row: (e.row ?? 0) + 1, column: "(csv)", message: e.message });
    }
    for (const item of stock) {
      if (!typology.variant(item.code)) {
        problems.push({ row: item.row, column: "code", message: `unknown variant "${item.code}"` });
      }
    }
    if (problems.length > 0) {
      problems.sort((a, b) => a.row - b.row);
      for (const p of problems) {
        console.error(`${values.input}:${p.row}: ${p.column}: ${p.message}`);
      }
      console.error(`${problems.length} problem(s); nothing was calculated.`);
      return 1;
    }
    items = stock.map((s) => ({
      code: s.code,
      overrides: s.overrides,
      label: `${values.input}:${s.row}`,
    }));
  } else {
    let codes: readonly string[];
    if (values.country) {
      const country = typology.country(values.country);
      if (!country) {
        console.error(`Unknown country "${values.country}"`);
        return 1;
      }
      codes = typology.variantCodes(country.iso2);
    } else {
      codes = typology.allVariants().map((v) => String(v.Code_BuildingVariant));
    }
    items = codes.map((code) => ({ code }));
  }

  const results = recalculate(typology, items, progressBar("recalc"));
  await writeResults(values.out, results);
  const s = summarize(results);
  console.error(
    `${s.count} buildings -> ${values.out}; ` +
      `${s.within05} of ${s.withReference} with a reference within 0.5 %`,
  );
  for (const w of s.worst) {
    const percent = (w.deviation! * 100).toFixed(2);
    console.error(
      `  ${w.code}: ${w.q_h_nd.toFixed(2)} vs ${w.reference?.toFixed(2)} (${percent} %)`,
    );
  }
  return 0;
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    Deno.exit(1);
  }
}
