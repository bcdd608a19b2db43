/**
 * `deno task geo-import FILE [--region Europe/Liechtenstein] [--store data/osm.duckdb]`:
 * imports an OSM extract (.osm.pbf or .osm) into the OSM store as one region.
 */
import { parseArgs } from "node:util";
import { basename } from "node:path";
import { importOsmExtract, type ImportResult } from "../lib/osm/import_region.ts";
import { openStore } from "../lib/store/store.ts";

/** The store path unless --store says otherwise: OSM_STORE_PATH or data/osm.duckdb. */
export function defaultOsmStorePath(): string {
  return Deno.env.get("OSM_STORE_PATH") ?? "data/osm.duckdb";
}

/** A region path from a file name: "liechtenstein-2024-03-04.osm.pbf" -> "Liechtenstein". */
export function regionFromFile(file: string): string {
  const stem = basename(file).replace(/\.osm(\.pbf)?$|\.pbf$/i, "").replace(
    /-(latest|\d{4}-\d{2}-\d{2})$/,
    "",
  )
    .replace(/_/g, " ");
  return stem.charAt(0).toUpperCase() + stem.slice(1);
}

/** Runs the import for command-line `args`; returns the result (also printed). */
export async function main(args: readonly string[]): Promise<ImportResult> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { region: { type: "string" }, store: { type: "string" } },
  });
  const file = positionals[0];
  if (!file || positionals.length > 1) {
    throw new TypeError("usage: geo-import FILE [--region Europe/Liechtenstein] [--store PATH]");
  }
  const store = await openStore(values.store ?? defaultOsmStorePath());
  try {
    const result = await importOsmExtract(store, file, {
      regionPath: values.region ?? regionFromFile(file),
      log: (m) => console.error(m),
    });
    const total = result.elements.nodes + result.elements.ways + result.elements.relations;
    console.log(JSON.stringify(
      {
        ...result,
        elements_per_second: Math.round(total / result.seconds),
        peak_rss_mb: Math.round(Deno.memoryUsage().rss / 1e6),
      },
      null,
      2,
    ));
    return result;
  } finally {
    await store.close();
  }
}

if (import.meta.main) {
  try {
    await main(Deno.args);
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    Deno.exit(1);
  }
}
