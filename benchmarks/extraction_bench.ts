/**
 * Extraction of Vaduz (9.50,47.12,9.55,47.16; about 2,500 buildings in the 2024-03-04 extract)
 * from an in-memory OSM store holding Liechtenstein, including the link to the heating demand
 * (TABULA AT, since LI has no typology). Target (issue 12, section 5): under 2 s per run.
 *
 *   deno bench -A benchmarks/extraction_bench.ts
 *
 * "extractBox" is one run with the typology already prepared (the service prepares it once per
 * run); "typology + extractBox" also reads and prepares the typology from data/store.duckdb.
 */
import { DEFAULT_EXTRACTION_OPTIONS } from "../lib/extraction/building_record.ts";
import { extractBox, type LonLatBox } from "../lib/extraction/extract_box.ts";
import { loadTabulaForRun } from "../lib/extraction/tabula_link.ts";
import { importOsmExtract } from "../lib/osm/import_region.ts";
import { defaultSteps } from "../lib/data_sets.ts";
import { ensureStore } from "../lib/store/build_store.ts";
import { openStore } from "../lib/store/store.ts";

const PBF = new URL(
  "../data/geo/liechtenstein/osm/liechtenstein-2024-03-04.osm.pbf",
  import.meta.url,
).pathname;
const DATA_STORE = Deno.env.get("STORE_PATH") ??
  new URL("../data/store.duckdb", import.meta.url).pathname;
const VADUZ: LonLatBox = [9.50, 47.12, 9.55, 47.16];

const osm = await openStore(":memory:");
await importOsmExtract(osm, PBF, { regionPath: "Europe/Liechtenstein" });
await ensureStore(DATA_STORE, { steps: defaultSteps() });
const data = await openStore(DATA_STORE, { readOnly: true });
const prepared = await loadTabulaForRun(data, "LI", "AT");
if ("error" in prepared) throw new Error(prepared.error);
const heat = prepared;
const request = { country: "LI", bbox: VADUZ, options: DEFAULT_EXTRACTION_OPTIONS };

// One run outside the bench: the count it works on, and that it stays under the 2 s target.
const t0 = performance.now();
const first = await extractBox(osm, heat, request);
const ms = performance.now() - t0;
console.log(
  `Vaduz: ${first.buildings.length} buildings (${first.footprints} footprints read) ` +
    `in ${ms.toFixed(0)} ms (target < 2000 ms)`,
);
if (first.buildings.length < 1500) throw new Error(`only ${first.buildings.length} buildings`);

Deno.bench(
  { name: "extractBox Vaduz with the heat link", group: "extraction", baseline: true },
  async () => {
    await extractBox(osm, heat, request);
  },
);

Deno.bench(
  { name: "typology + extractBox Vaduz", group: "extraction" },
  async () => {
    const deps = await loadTabulaForRun(data, "LI", "AT");
    if ("error" in deps) throw new Error(deps.error);
    await extractBox(osm, deps, request);
  },
);
