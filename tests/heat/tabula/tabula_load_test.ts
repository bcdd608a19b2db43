import assert from "node:assert/strict";
import { join } from "node:path";
import { loadTabula } from "../../../lib/heat/tabula/tabula_load.ts";
import { readTabulaSources } from "../../../lib/heat/tabula/tabula_sources.ts";
import { tableNames } from "../../../lib/store/schema.ts";
import { openStore } from "../../../lib/store/store.ts";
import { DataValidationError } from "../../../lib/validation/problems.ts";

const FIXTURES = new URL("../../fixtures/tabula/", import.meta.url).pathname;
const GOOD = join(FIXTURES, "good");
const BROKEN = join(FIXTURES, "broken");

Deno.test("loadTabula writes the variants, country views and references", async () => {
  const store = await openStore(":memory:");
  try {
    const sources = await readTabulaSources(GOOD);
    await loadTabula(store, sources);
    assert.deepEqual(await tableNames(store), [
      "tabula_countries",
      "tabula_de",
      "tabula_fr",
      "tabula_reference",
      "tabula_variants",
    ]);
    assert.deepEqual(await store.all("SELECT * FROM tabula_countries ORDER BY iso2"), [
      { iso2: "DE", name: "germany", table_name: "tabula_de", variant_count: 3 },
      { iso2: "FR", name: "france", table_name: "tabula_fr", variant_count: 2 },
    ]);
    const [de] = await store.all<Record<string, unknown>>(
      'SELECT * FROM tabula_de WHERE "Code_BuildingVariant" = $1',
      ["DE.N.AB.02.Gen.ReEx.001.002"],
    );
    assert.equal(de!["source_row"], 2);
    assert.equal(de!["R_PredefinedMeasure_Roof_1"], 2.4365482);
    assert.equal(de!["Year1_Building"], 1860);
    assert.equal(de!["iso2"], undefined, "the view hides the country column");
    const types = await store.all<{ column_name: string; data_type: string }>(
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_name =" +
        " 'tabula_variants' AND column_name IN ('theta_i', 'n_Apartment', 'Code_Roof_1')" +
        " ORDER BY column_name",
    );
    assert.deepEqual(types.map((c) => [c.column_name, c.data_type]), [
      ["Code_Roof_1", "VARCHAR"],
      ["n_Apartment", "INTEGER"],
      ["theta_i", "DOUBLE"],
    ]);
    assert.deepEqual(await store.all("SELECT count(*) AS n FROM tabula_reference"), [{ n: 2 }]);

    await loadTabula(store, { ...sources, countries: sources.countries.slice(1) });
    assert.deepEqual(
      await tableNames(store),
      ["tabula_countries", "tabula_de", "tabula_reference", "tabula_variants"],
      "a reload replaces every TABULA table and view",
    );
  } finally {
    await store.close();
  }
});

Deno.test("loadTabula refuses sources with problems and writes nothing", async () => {
  const store = await openStore(":memory:");
  try {
    const sources = await readTabulaSources(BROKEN);
    await assert.rejects(() => loadTabula(store, sources), (error: unknown) => {
      assert.ok(error instanceof DataValidationError);
      assert.equal(error.problems.length, 7);
      assert.match(error.message, /7 problem\(s\)/);
      return true;
    });
    assert.deepEqual(await tableNames(store), []);
  } finally {
    await store.close();
  }
});
