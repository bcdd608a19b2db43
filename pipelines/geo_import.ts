/**
 * `deno task geo-import FILE [--region Europe/Liechtenstein] [--store data/osm.duckdb]`:
 * imports an OSM extract (.osm.pbf or .osm) into the OSM store as one region.
 * `[--memory-limit 1GB]` bounds DuckDB's memory (it spills to disk beyond it).
 */
import { parseArgs } from "node:util";
import { basename } from "node:path";
import { importOsmExtract, type ImportResult } from "../lib/osm/import_region.ts";
import { openStore } from "../lib/store/store.ts";
import { loadRegionsDb, regionOfFile, SHIPPED_GEOFABRIK_INDEX } from "../lib/osm/regions_db.ts";

/** The store path unless --store says otherwise: OSM_STORE_PATH or data/osm.duckdb. */
export function defaultOsmStorePath(): string {
  return Deno.env.get("OSM_STORE_PATH") ?? "data/osm.duckdb";
}

/**
 * DuckDB's memory limit for an import unless --memory-limit says otherwise: OSM_STORE_MEMORY or
 * 1 GB. Beyond it DuckDB spills to disk, so a country-sized extract imports in bounded memory.
 */
export function defaultOsmMemoryLimit(): string {
  return Deno.env.get("OSM_STORE_MEMORY") ?? "1GB";
}

/**
 * A region path from a file name: the Geofabrik region whose download file it is
 * ("liechtenstein-2024-03-04.osm.pbf" -> "Europe/Liechtenstein", the path the download route
 * gives it), else the file's stem as one component ("my_area.osm" -> "My area").
 */
export async function regionFromFile(file: string): Promise<string> {
  const region = regionOfFile(await loadRegionsDb(SHIPPED_GEOFABRIK_INDEX), basename(file));
  return region?.path ?? stemOfFile(file);
}

function stemOfFile(file: string): string {
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
    options: {
      region: { type: "string" },
      store: { type: "string" },
      "memory-limit": { type: "string" },
    },
  });
  const file = positionals[0];
  if (!file || positionals.length > 1) {
    throw new TypeError(
      "usage: geo-import FILE [--region Europe/Liechtenstein] [--store PATH] [--memory-limit 1GB]",
    );
  }
  const path = values.store ?? defaultOsmStorePath();
  const store = await openStore(path, {
    memoryLimit: values["memory-limit"] ?? defaultOsmMemoryLimit(),
  }).catch((error) => {
    // DuckDB allows one writing process per file: the running backend holds the store.
    if (/lock/i.test(String(error))) {
      throw new Error(
        `The OSM store ${path} is open in another process (a running backend?): stop it, ` +
          `or import through the backend with POST /api/osm/download, or use --store`,
      );
    }
    throw error;
  });
  try {
    const result = await importOsmExtract(store, file, {
      regionPath: values.region ?? await regionFromFile(file),
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
