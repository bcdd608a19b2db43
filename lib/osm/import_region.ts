/**
 * Imports an OSM extract (`.osm.pbf` or `.osm` XML) into the store as one region: the raw
 * elements in batches, then the map layers assembled from them in SQL + small JS steps, all in
 * one transaction so that a re-import replaces the region atomically and other regions stay.
 */
import type { Store } from "../store/store.ts";
import type { OsmElement } from "./osm_element.ts";
import {
  buildAdminAreas,
  buildBuildings,
  buildPowerLines,
  buildPowerPlants,
  buildSubstations,
  type LayerBuild,
} from "./layers.ts";
import {
  createOsmTables,
  deleteOsmRegion,
  type LayerTable,
  writeImportedRegion,
  writeOsmElements,
} from "./osm_store.ts";
import { readOsmPbf } from "./read_osm_pbf.ts";
import { readOsmXml } from "./read_osm_xml.ts";

/** Options of importOsmExtract. */
export interface ImportOptions {
  /** Region path such as "Europe/Liechtenstein"; the key that a re-import replaces. */
  readonly regionPath: string;
  /** Where the extract came from, recorded with the region (default: the file's path). */
  readonly sourceUrl?: string;
  /** Progress lines (phases, element counts). */
  readonly log?: (message: string) => void;
}

/** What an import produced. */
export interface ImportResult {
  readonly regionPath: string;
  /** Features per layer. */
  readonly counts: Record<LayerTable, number>;
  /** Elements read, by type. */
  readonly elements: { nodes: number; ways: number; relations: number };
  /** Wall time of the whole import. */
  readonly seconds: number;
  /** Features that could not be assembled completely (unclosed rings, missing nodes). */
  readonly problems: string[];
}

/** The element batches of `file`, by its extension (.pbf, else OSM XML). */
export function readOsmFile(file: string): AsyncGenerator<OsmElement[]> {
  if (/\.pbf$/i.test(file)) return readOsmPbf(file);
  if (/\.(osm|xml)$/i.test(file)) return readOsmXml(file);
  throw new TypeError(`Cannot import "${file}": expected an .osm.pbf or .osm file`);
}

/**
 * Imports `file` into `store` as region `regionPath`, replacing that region's previous data in
 * one transaction (a failure leaves the previous data as it was).
 */
export async function importOsmExtract(
  store: Store,
  file: string,
  options: ImportOptions,
): Promise<ImportResult> {
  const { regionPath } = options;
  const log = options.log ?? (() => {});
  if (!/^[\p{L}\p{N} _-]{1,80}(\/[\p{L}\p{N} _-]{1,80})*$/u.test(regionPath)) {
    throw new RangeError(`Region path ${JSON.stringify(regionPath)} is not a path of names`);
  }
  const started = performance.now();
  const elements = { nodes: 0, ways: 0, relations: 0 };
  await createOsmTables(store);
  return await store.transaction(async (tx) => {
    await deleteOsmRegion(tx, regionPath);
    log(`reading ${file}`);
    for await (const batch of readOsmFile(file)) {
      for (const e of batch) {
        if (e.type === "node") elements.nodes++;
        else if (e.type === "way") elements.ways++;
        else elements.relations++;
      }
      await writeOsmElements(tx, regionPath, batch);
    }
    log(`read ${elements.nodes} nodes, ${elements.ways} ways, ${elements.relations} relations`);
    const builds: [LayerTable, () => Promise<LayerBuild>][] = [
      ["substations", () => buildSubstations(tx, regionPath)],
      ["power_plants", () => buildPowerPlants(tx, regionPath)],
      ["power_lines", () => buildPowerLines(tx, regionPath)],
      ["communes", () => buildAdminAreas(tx, regionPath, "communes")],
      ["districts", () => buildAdminAreas(tx, regionPath, "districts")],
      ["buildings", () => buildBuildings(tx, regionPath)],
    ];
    const counts = {} as Record<LayerTable, number>;
    const problems: string[] = [];
    for (const [layer, build] of builds) {
      const result = await build();
      counts[layer] = result.count;
      problems.push(...result.problems.map((p) => `${layer}: ${p}`));
      log(`${layer}: ${result.count} features`);
    }
    for (const p of problems) log(`problem: ${p}`);
    const [extent] = await tx.all<Record<"a" | "b" | "c" | "d", number | null>>(
      `SELECT min(lon) a, min(lat) b, max(lon) c, max(lat) d FROM osm_nodes WHERE region_path = ?`,
      [regionPath],
    );
    const bbox = extent?.a == null || extent.b == null || extent.c == null || extent.d == null
      ? null
      : [extent.a, extent.b, extent.c, extent.d] as [number, number, number, number];
    await writeImportedRegion(tx, {
      region_path: regionPath,
      name: regionPath.split("/").at(-1)!,
      source_url: options.sourceUrl ?? file,
      imported_at: new Date().toISOString(),
      counts,
      bbox,
    });
    return {
      regionPath,
      counts,
      elements,
      seconds: (performance.now() - started) / 1000,
      problems,
    };
  });
}
