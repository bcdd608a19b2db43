import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { CatalogueError, readCatalogueDir } from "../../../lib/catalogue/loading/catalogue_file.ts";
import {
  INSTANCES_TABLE,
  loadCatalogue,
  readCatalogue,
  readCatalogueFiles,
  TAGS_TABLE,
  TECHNOLOGIES_TABLE,
} from "../../../lib/catalogue/loading/catalogue_store.ts";
import { openStore } from "../../../lib/store/store.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const CATALOGUES = `${ROOT}catalogues`;

Deno.test("loadCatalogue() writes the files and readCatalogue() reads the same technologies", async () => {
  const store = await openStore(":memory:");
  try {
    const result = await loadCatalogue(store, CATALOGUES);
    const expected = (await readCatalogueDir(CATALOGUES)).technologies;
    assert.equal(result.files, 4);
    assert.equal(result.technologies, expected.length);
    assert.equal(result.instances, expected.reduce((n, t) => n + t.instances.length, 0));
    assert.deepEqual(await readCatalogue(store), expected);
    const files = await readCatalogueFiles(store);
    assert.deepEqual(files.map((f) => [f.file, f.format, f.domain]), [
      ["conversion.json", "catalogue", "conversion"],
      ["generation.json", "catalogue", "generation"],
      ["storage.json", "catalogue", "storage"],
      ["transmission.json", "catalogue", "transmission"],
    ]);
    assert.equal(files[1]?.metadata?.fx_rate_usd_per_eur, 1.13);
  } finally {
    await store.close();
  }
});

Deno.test("catalogue tables answer SQL filters by tag, domain and year", async () => {
  const store = await openStore(":memory:");
  try {
    await loadCatalogue(store, CATALOGUES);
    const variable = await store.all<{ technology_id: string }>(
      `SELECT technology_id FROM ${TAGS_TABLE} WHERE tag = 'variable' ORDER BY technology_id`,
    );
    assert.ok(variable.some((r) => r.technology_id === "onshore_wind"));
    assert.ok(!variable.some((r) => r.technology_id === "combined_cycle_gas_turbine_ccgt"));
    const [wind] = await store.all<{ capex_usd_per_kw: number }>(
      `SELECT capex_usd_per_kw FROM ${INSTANCES_TABLE} WHERE instance_id = 'onshore_wind-2025'`,
    );
    assert.equal(wind?.capex_usd_per_kw, 1625.94);
    const [storage] = await store.all<{ n: number }>(
      `SELECT count(*) AS n FROM ${TECHNOLOGIES_TABLE} WHERE domain = 'storage'`,
    );
    assert.equal(storage?.n, 10);
  } finally {
    await store.close();
  }
});

Deno.test("a reload replaces only the catalogue tables; a failed load changes nothing", async () => {
  const store = await openStore(":memory:");
  try {
    await store.run("CREATE TABLE submissions (id INTEGER)");
    await store.run("INSERT INTO submissions VALUES (1), (2)");
    await loadCatalogue(store, CATALOGUES);
    const before = await readCatalogue(store);
    await loadCatalogue(store, CATALOGUES);
    assert.deepEqual(await readCatalogue(store), before);
    const broken = fileURLToPath(new URL("../../fixtures/catalogue/broken", import.meta.url));
    await assert.rejects(() => loadCatalogue(store, broken), CatalogueError);
    assert.deepEqual(await readCatalogue(store), before);
    const [kept] = await store.all<{ n: number }>("SELECT count(*) AS n FROM submissions");
    assert.equal(kept?.n, 2);
  } finally {
    await store.close();
  }
});

Deno.test("legacy files load like catalogue files", async () => {
  const store = await openStore(":memory:");
  try {
    const legacy = fileURLToPath(new URL("../../fixtures/catalogue/legacy", import.meta.url));
    await loadCatalogue(store, legacy);
    const back = await readCatalogue(store);
    assert.deepEqual(back, (await readCatalogueDir(legacy)).technologies);
    assert.deepEqual((await readCatalogueFiles(store)).map((f) => f.format), ["legacy", "legacy"]);
  } finally {
    await store.close();
  }
});
