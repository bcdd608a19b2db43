/**
 * Child process of read_osm_pbf_test.ts: imports each corrupt extract into an in-memory store
 * and prints one JSON line per extract, `{name, error}`, then exits 0. Before issue 18 the
 * first corrupt extract made the process exit with an uncaught error from the PBF parser.
 */
import { importOsmExtract } from "../../lib/osm/import_region.ts";
import { openStore } from "../../lib/store/store.ts";
import { corruptExtracts } from "./_corrupt_pbf.ts";

const dir = await Deno.makeTempDir({ prefix: "corrupt_pbf" });
const store = await openStore(":memory:");
try {
  for (const [name, bytes] of Object.entries(corruptExtracts())) {
    const file = `${dir}/extract.osm.pbf`;
    await Deno.writeFile(file, bytes);
    let error: string | null = null;
    try {
      await importOsmExtract(store, file, { regionPath: "Europe/Liechtenstein" });
    } catch (e) {
      error = `${(e as Error).name}: ${(e as Error).message}`;
    }
    console.log(JSON.stringify({ name, error }));
  }
} finally {
  await store.close();
  await Deno.remove(dir, { recursive: true });
}
