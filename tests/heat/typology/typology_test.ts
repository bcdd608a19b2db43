import assert from "node:assert/strict";
import {
  COUNTRIES,
  countryByIso2,
  countryByName,
  tableName,
} from "../../../lib/heat/tabula/countries.ts";
import { loadTypology, typologyFromRows } from "../../../lib/heat/typology/typology.ts";
import { openStore } from "../../../lib/store/store.ts";
import { loadTabula } from "../../../lib/heat/tabula/tabula_load.ts";
import { readTabulaSources } from "../../../lib/heat/tabula/tabula_sources.ts";

const GOOD = new URL("../../fixtures/tabula/good", import.meta.url).pathname;
const DATA = new URL("../../../data/tabula", import.meta.url).pathname;

const row = (code: string, extra: Record<string, string | number | null> = {}) => ({
  Code_BuildingVariant: code,
  ...extra,
});

Deno.test("countries map ISO2 codes, names and tables", () => {
  assert.equal(COUNTRIES.length, 20);
  assert.deepEqual(countryByIso2("gb"), {
    iso2: "GB",
    name: "united_kingdom",
    table: "tabula_gb",
  });
  assert.equal(countryByIso2("GR")?.name, "greece");
  assert.equal(countryByIso2("RS")?.name, "serbia");
  assert.equal(countryByIso2("CZ")?.name, "czechia");
  assert.equal(countryByIso2("XX"), undefined);
  assert.equal(countryByName("germany")?.iso2, "DE");
  assert.equal(tableName("DE"), "tabula_de");
  const files = [...Deno.readDirSync(`${DATA}/city2tabula`)].map((e) => e.name).sort();
  assert.deepEqual(files, COUNTRIES.map((c) => `${c.name}.csv`).sort());
});

Deno.test("typologyFromRows indexes variants and references", async (t) => {
  const typology = typologyFromRows(
    [
      row("DE.N.SFH.01.Gen.ReEx.001.002", { U_Roof_1: 0.3 }),
      row("AT.N.SFH.01.Gen.ReEx.001.001"),
      row("DE.N.SFH.01.Gen.ReEx.001.001", { U_Roof_1: 1.4 }),
    ],
    [row("DE.N.SFH.01.Gen.ReEx.001.001", { q_h_nd: 250.5 })],
  );
  await t.step("countries by name with counts", () => {
    assert.deepEqual(typology.countries().map((c) => [c.name, c.variantCount]), [
      ["austria", 1],
      ["germany", 2],
    ]);
    assert.equal(typology.country("de")?.table, "tabula_de");
    assert.equal(typology.country("FR"), undefined, "no data, no country");
  });
  await t.step("variant codes keep the given order", () => {
    assert.deepEqual(typology.variantCodes("DE"), [
      "DE.N.SFH.01.Gen.ReEx.001.002",
      "DE.N.SFH.01.Gen.ReEx.001.001",
    ]);
    assert.deepEqual(typology.variantCodes("de"), typology.variantCodes("DE"));
    assert.deepEqual(typology.variantCodes("FR"), []);
  });
  await t.step("lookups by exact code", () => {
    assert.equal(typology.variant("DE.N.SFH.01.Gen.ReEx.001.001")?.["U_Roof_1"], 1.4);
    assert.equal(typology.variant("de.n.sfh.01.gen.reex.001.001"), undefined);
    assert.equal(typology.reference("DE.N.SFH.01.Gen.ReEx.001.001")?.["q_h_nd"], 250.5);
    assert.equal(typology.reference("DE.N.SFH.01.Gen.ReEx.001.002"), undefined);
  });
  await t.step("allVariants: countries by name, each in order", () => {
    assert.deepEqual(typology.allVariants().map((r) => r["Code_BuildingVariant"]), [
      "AT.N.SFH.01.Gen.ReEx.001.001",
      "DE.N.SFH.01.Gen.ReEx.001.002",
      "DE.N.SFH.01.Gen.ReEx.001.001",
    ]);
  });
  await t.step("rows are frozen copies", () => {
    const v = typology.variant("AT.N.SFH.01.Gen.ReEx.001.001")!;
    assert.ok(Object.isFrozen(v));
    assert.ok(Object.isFrozen(typology.variantCodes("DE")));
  });
});

Deno.test("typologyFromRows refuses duplicates and unknown countries", () => {
  assert.throws(
    () =>
      typologyFromRows([row("DE.N.SFH.01.Gen.ReEx.001.001"), row("DE.N.SFH.01.Gen.ReEx.001.001")]),
    { name: "RangeError", message: /Duplicate variant code/ },
  );
  assert.throws(() => typologyFromRows([row("XX.N.SFH.01.Gen.ReEx.001.001")]), {
    name: "RangeError",
    message: /unknown country XX/,
  });
  assert.throws(
    () => typologyFromRows([], [row("DE.A.001.001"), row("DE.A.001.001")]),
    /Duplicate reference code/,
  );
});

Deno.test("loadTypology reads back exactly what the pipeline loaded", async () => {
  const sources = await readTabulaSources(GOOD);
  assert.deepEqual(sources.problems, []);
  const store = await openStore(":memory:");
  try {
    await loadTabula(store, sources);
    const typology = await loadTypology(store);
    assert.deepEqual(typology.countries().map((c) => [c.iso2, c.variantCount]), [
      ["FR", 2],
      ["DE", 3],
    ]);
    for (const { country, rows } of sources.countries) {
      assert.deepEqual(
        typology.variantCodes(country.iso2),
        rows.map((r) => r.row["Code_BuildingVariant"]),
      );
      for (const { row } of rows) {
        assert.deepEqual(typology.variant(row["Code_BuildingVariant"] as string), row);
      }
    }
    for (const { row } of sources.references) {
      assert.deepEqual(typology.reference(row["Code_BuildingVariant"] as string), row);
    }
  } finally {
    await store.close();
  }
});

Deno.test("loadTypology holds all 2,147 real variants and 836 references", async () => {
  const store = await openStore(":memory:");
  try {
    await loadTabula(store, await readTabulaSources(DATA));
    const typology = await loadTypology(store);
    assert.equal(typology.countries().length, 20);
    assert.equal(typology.allVariants().length, 2147);
    assert.equal(typology.country("DE")?.variantCount, 232);
    assert.equal(typology.variantCodes("DE")[0], "DE.N.AB.02.Gen.ReEx.001.001");
    const v = typology.variant("DE.N.AB.02.Gen.ReEx.001.002")!;
    assert.equal(v["R_PredefinedMeasure_Roof_1"], 2.4365482);
    assert.equal(v["Description_BuildingVariant"], "0");
    assert.equal(v["Date_Change"], null);
    const fr = typology.variant("FR.N.AB.10.Gen.ReEx.001.002")!;
    assert.equal(
      fr["Description_BuildingVariant"],
      'Thermal enveloppe according to label "Effinergie+"',
    );
    assert.equal(typology.reference("DE.N.AB.02.Gen.ReEx.001.001")?.["Code_Country"], "DE");
    assert.equal(typeof typology.reference("DE.N.AB.02.Gen.ReEx.001.001")?.["q_h_nd"], "number");
  } finally {
    await store.close();
  }
});
