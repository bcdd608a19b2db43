import assert from "node:assert/strict";
import { join } from "node:path";
import {
  main,
  parseBbox,
  parseExtractArgs,
  parseOptions,
  summarize,
  surfacesPath,
  UsageError,
} from "../../pipelines/extract.ts";
import { DEFAULT_EXTRACTION_OPTIONS } from "../../lib/extraction/building_record.ts";
import { BUILDING_COLUMNS, SURFACE_COLUMNS } from "../../lib/extraction/building_table.ts";
import { extractBox } from "../../lib/extraction/extract_box.ts";
import { loadTabulaForRun } from "../../lib/extraction/tabula_link.ts";
import { importOsmExtract } from "../../lib/osm/import_region.ts";
import { openStore, type PlainValue } from "../../lib/store/store.ts";
import { dataStorePath } from "../server/extraction/_fixture.ts";

const PBF =
  new URL("../../data/geo/liechtenstein/osm/liechtenstein-2024-03-04.osm.pbf", import.meta.url)
    .pathname;
// The shipped build of the heat data store, or one built into a temporary folder on a clean clone.
const DATA_STORE = await dataStorePath();
const TRIESEN = [9.50, 47.08, 9.56, 47.13] as const;
const TRIESEN_ARG = TRIESEN.join(",");

// One import of Liechtenstein into a temporary OSM store file, shared by the tests of this file.
const dir = await Deno.makeTempDir({ prefix: "extract_test_" });
const OSM_STORE = join(dir, "osm.duckdb");
const imported = (async () => {
  const store = await openStore(OSM_STORE);
  try {
    await importOsmExtract(store, PBF, { regionPath: "Europe/Liechtenstein" });
  } finally {
    await store.close();
  }
})();

const NO_ENV = { get: (_: string) => undefined };

/** Runs main() with console output captured. */
async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [], err: string[] = [];
  const { log, error } = console;
  console.log = (...a: unknown[]) => out.push(a.join(" "));
  console.error = (...a: unknown[]) => err.push(a.join(" "));
  try {
    const code = await main(args, NO_ENV);
    return { code, out: out.join("\n"), err: err.join("\n") };
  } finally {
    console.log = log;
    console.error = error;
  }
}

async function query(sql: string): Promise<Record<string, PlainValue>[]> {
  const db = await openStore(":memory:", { readers: 0 });
  try {
    return await db.all(sql);
  } finally {
    await db.close();
  }
}

/** extractBox on the same stores, for the totals the files must match. */
async function reference() {
  const osm = await openStore(OSM_STORE, { readOnly: true, readers: 1 });
  const data = await openStore(DATA_STORE, { readOnly: true, readers: 1 });
  try {
    const heat = await loadTabulaForRun(data, "LI", "AT");
    if ("error" in heat) throw new Error(heat.error);
    return await extractBox(osm, heat, {
      country: "LI",
      bbox: TRIESEN,
      options: DEFAULT_EXTRACTION_OPTIONS,
    });
  } finally {
    await osm.close();
    await data.close();
  }
}

const close = (a: number, b: number, what: string) =>
  assert.ok(Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

Deno.test("extract writes Triesen's buildings and surfaces through DuckDB", async (t) => {
  await imported;
  const expected = await reference();
  const base = [
    "--country",
    "LI",
    "--heat-country",
    "AT",
    "--bbox",
    TRIESEN_ARG,
    "--osm-store",
    OSM_STORE,
    "--store",
    DATA_STORE,
  ];
  const buildings = expected.buildings.length;
  const surfaces = expected.buildings.reduce((s, b) => s + b.surfaces.length, 0);
  const sums = summarize(expected.buildings, 0);

  await t.step("Parquet: one row per building, totals equal extractBox's", async () => {
    const out = join(dir, "triesen.parquet");
    const r = await run([...base, "--out", out]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, new RegExp(`^buildings: ${buildings} `, "m"));
    assert.match(r.out, /q_h_nd: median \d+\.\d, reference-area-weighted mean \d+\.\d/);
    assert.match(r.err, /100% linked to the heating demand/);
    assert.doesNotMatch(r.err, /no heat link/);
    const columns = await query(`DESCRIBE SELECT * FROM read_parquet('${out}')`);
    assert.deepEqual(columns.map((c) => c["column_name"]), BUILDING_COLUMNS.map(([n]) => n));
    const [row] = await query(
      `SELECT count(*)::INT AS n, sum(footprint_area) AS footprint, sum(exposed_wall_n) AS n_,
         sum(exposed_wall_e) AS e_, sum(exposed_wall_s) AS s_, sum(exposed_wall_w) AS w_,
         sum(party_wall_area) AS party, count(q_h_nd)::INT AS linked,
         sum(q_h_nd * reference_area) / 1000 AS mwh, count(DISTINCT id)::INT AS ids
       FROM read_parquet('${out}')`,
    );
    assert.equal(row!["n"], buildings);
    assert.equal(row!["ids"], buildings);
    assert.ok(buildings > 2500, `${buildings} buildings`);
    close(row!["footprint"] as number, sums.footprint_area_m2, "footprint");
    close(row!["n_"] as number, sums.exposed_wall_m2.N, "N");
    close(row!["e_"] as number, sums.exposed_wall_m2.E, "E");
    close(row!["s_"] as number, sums.exposed_wall_m2.S, "S");
    close(row!["w_"] as number, sums.exposed_wall_m2.W, "W");
    close(row!["party"] as number, sums.party_wall_m2, "party walls");
    close(row!["mwh"] as number, sums.heat_demand_mwh, "demand");
    assert.equal(row!["linked"], buildings - sums.without_heat_link);
    // Every exposed wall falls in one quarter: the quarters add up to the exposed wall area.
    const [check] = await query(
      `SELECT max(abs(exposed_wall_n + exposed_wall_e + exposed_wall_s + exposed_wall_w
         - exposed_wall_area)) AS gap FROM read_parquet('${out}')`,
    );
    assert.ok((check!["gap"] as number) < 1e-6);
  });

  await t.step("--surfaces writes <stem>_surfaces beside the buildings", async () => {
    const out = join(dir, "with_surfaces.parquet");
    const r = await run([...base, "--out", out, "--surfaces"]);
    assert.equal(r.code, 0, r.err);
    const file = join(dir, "with_surfaces_surfaces.parquet");
    const columns = await query(`DESCRIBE SELECT * FROM read_parquet('${file}')`);
    assert.deepEqual(columns.map((c) => c["column_name"]), SURFACE_COLUMNS.map(([n]) => n));
    const [row] = await query(
      `SELECT count(*)::INT AS n, count(DISTINCT building_id)::INT AS b,
         sum(area) FILTER (type = 'wall' AND NOT adiabatic) AS exposed,
         count(*) FILTER (type = 'window' AND parent IS NULL)::INT AS orphans,
         count(*) FILTER (type = 'floor' AND azimuth IS NOT NULL)::INT AS floor_azimuths
       FROM read_parquet('${file}')`,
    );
    assert.equal(row!["n"], surfaces);
    assert.equal(row!["b"], buildings);
    const e = sums.exposed_wall_m2;
    close(row!["exposed"] as number, e.N + e.E + e.S + e.W, "exposed walls");
    assert.equal(row!["orphans"], 0);
    assert.equal(row!["floor_azimuths"], 0);
  });

  await t.step("CSV by the extension, with a header", async () => {
    const out = join(dir, "triesen.csv");
    const r = await run([...base, "--out", out, "--surfaces"]);
    assert.equal(r.code, 0, r.err);
    const text = await Deno.readTextFile(out);
    assert.equal(text.split("\n")[0], BUILDING_COLUMNS.map(([n]) => n).join(","));
    const [row] = await query(`SELECT count(*)::INT AS n FROM read_csv('${out}')`);
    assert.equal(row!["n"], buildings);
    const [srow] = await query(
      `SELECT count(*)::INT AS n FROM read_csv('${join(dir, "triesen_surfaces.csv")}')`,
    );
    assert.equal(srow!["n"], surfaces);
  });

  await t.step("options change the run: keeping small and unheated buildings", async () => {
    const out = join(dir, "all.parquet");
    const r = await run([...base, "--out", out, "--option", "keep_small_and_unheated=true"]);
    assert.equal(r.code, 0, r.err);
    const [row] = await query(`SELECT count(*)::INT AS n FROM read_parquet('${out}')`);
    assert.ok((row!["n"] as number) > buildings);
  });

  // Issue 18: LI without --heat-country was exit 1 ("No heat link for LI").
  await t.step(
    "LI without --heat-country writes every building, each saying why it has no heat link (issue 18)",
    async () => {
      const out = join(dir, "no_typology.parquet");
      const r = await run([...base.slice(0, 2), ...base.slice(4), "--out", out]);
      assert.equal(r.code, 0, r.err);
      assert.match(
        r.out,
        new RegExp(`^buildings: ${buildings} \\(\\d+ surfaces, ${buildings} without q_h_nd`, "m"),
      );
      assert.match(
        r.err,
        /^problem: no heat link: LI has no TABULA typology: name one with heat_country, e\.g\. AT/m,
      );
      const [row] = await query(
        `SELECT count(*)::INT AS n, count(q_h_nd)::INT AS linked, count(tabula_variant)::INT AS variants,
         count(DISTINCT tabula_absent_reason)::INT AS reasons, min(tabula_absent_reason) AS reason,
         sum(footprint_area) AS footprint
       FROM read_parquet('${out}')`,
      );
      assert.deepEqual([row!["n"], row!["linked"], row!["variants"], row!["reasons"]], [
        buildings,
        0,
        0,
        1,
      ]);
      assert.match(String(row!["reason"]), /^LI has no TABULA typology/);
      close(row!["footprint"] as number, sums.footprint_area_m2, "footprint");
    },
  );

  await t.step("a --heat-country without a typology is exit 1 listing those with one", async () => {
    const r = await run([
      ...base.slice(0, 3),
      "XX",
      ...base.slice(4),
      "--out",
      join(dir, "xx.parquet"),
    ]);
    assert.equal(r.code, 1);
    assert.match(r.err, /--heat-country XX has no TABULA typology; one of AT, BE, /);
  });

  await t.step("a box without an imported region is exit 1 naming geo-import", async () => {
    const r = await run([
      ...base.slice(0, 4),
      "--bbox",
      "8.50,47.30,8.60,47.40",
      ...base.slice(6),
      "--out",
      join(dir, "zurich.parquet"),
    ]);
    assert.equal(r.code, 1);
    assert.match(r.err, /No imported OSM region .* covers the box/);
    assert.match(r.err, /deno task geo-import/);
    const missing = await run([
      "--country",
      "LI",
      "--bbox",
      TRIESEN_ARG,
      "--osm-store",
      join(dir, "missing.duckdb"),
      "--out",
      join(dir, "x.parquet"),
    ]);
    assert.equal(missing.code, 1);
    assert.match(missing.err, /does not exist: run `deno task geo-import/);
  });

  await t.step("usage errors are exit 2 naming the argument", async () => {
    const cases: [string[], RegExp][] = [
      [["--bbox", "9.56,47.08,9.50,47.13"], /--bbox: xmin < xmax/],
      [["--bbox", "9.3,47.0,9.6,47.1"], /--bbox: at most 0.2 x 0.2 degrees/],
      [["--bbox", "9.5,47.0,9.6"], /--bbox: four numbers/],
      [["--out", "x.json"], /--out: a .parquet or .csv file/],
      [["--option", "storey_height=0.5"], /--option storey_height:/],
      [["--option", "colour=red"], /--option colour:/],
      [["--country", "LIE"], /--country: an ISO 3166-1 alpha-2 code/],
    ];
    for (const [override, message] of cases) {
      const args = [...base, "--out", join(dir, "u.parquet"), ...override];
      const r = await run(args);
      assert.equal(r.code, 2, args.join(" "));
      assert.match(r.err, message);
      assert.match(r.err, /usage: deno task extract/);
    }
  });
});

Deno.test("parseExtractArgs() reads the command line with its defaults", () => {
  const parsed = parseExtractArgs(
    ["--country", "li", "--bbox", TRIESEN_ARG, "--out", "a/t.parquet", "--surfaces"],
    { get: (k) => (k === "OSM_STORE_PATH" ? "/x/osm.duckdb" : undefined) },
  );
  assert.equal(parsed.country, "LI");
  assert.equal(parsed.heatCountry, undefined);
  assert.deepEqual(parsed.bbox, TRIESEN);
  assert.equal(parsed.format, "parquet");
  assert.equal(parsed.surfacesOut, "a/t_surfaces.parquet");
  assert.equal(parsed.store, "data/store.duckdb");
  assert.deepEqual(parsed.options, DEFAULT_EXTRACTION_OPTIONS);
  assert.throws(() => parseExtractArgs(["--bbox", TRIESEN_ARG, "--out", "t.csv"]), UsageError);
});

Deno.test("parseOptions() converts values and validates them by the schema", () => {
  const options = parseOptions([
    "storey_height=2.8",
    "untagged_roof_shape=gabled",
    "keep_small_and_unheated=true",
    "year=1975",
  ]);
  assert.equal(options.storey_height, 2.8);
  assert.equal(options.untagged_roof_shape, "gabled");
  assert.equal(options.keep_small_and_unheated, true);
  assert.equal(options.year, 1975);
  assert.equal(options.default_storeys, 2);
  assert.throws(() => parseOptions(["untagged_roof_shape=dome"]), /untagged_roof_shape/);
  assert.throws(() => parseOptions(["storey_height"]), /key=value/);
});

Deno.test("parseBbox() and surfacesPath()", () => {
  assert.deepEqual(parseBbox(" 9.5, 47.1, 9.7, 47.3 "), [9.5, 47.1, 9.7, 47.3]);
  assert.throws(() => parseBbox("9.5,47.1,9.71,47.3"), /at most 0.2/);
  assert.throws(() => parseBbox("9.5,95,9.6,96"), /latitudes/);
  assert.equal(surfacesPath("out/t.csv"), join("out", "t_surfaces.csv"));
});

globalThis.addEventListener("unload", () => {
  try {
    Deno.removeSync(dir, { recursive: true });
  } catch {
    // already gone
  }
});
