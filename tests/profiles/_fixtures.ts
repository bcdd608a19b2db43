/** Shared helpers of the profile tests: the fixture tables and a catalogue built from them. */
import { fileURLToPath } from "node:url";
import { buildCatalogue, type BuiltCatalogue } from "../../lib/profiles/build_catalogue.ts";
import { COUNTRIES } from "../../lib/profiles/countries.ts";
import { parseSourceTable, type SourceTable } from "../../lib/profiles/source_table.ts";
import { catalogueFiles } from "../../pipelines/profiles_build.ts";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The folder of the profile fixtures. */
export const FIXTURES = fileURLToPath(new URL("../fixtures/profiles/", import.meta.url));

/** Reads a fixture CSV as a source table. */
export async function fixtureTable(file: string, time_column = "timestamp"): Promise<SourceTable> {
  return parseSourceTable(file, await Deno.readTextFile(FIXTURES + file), time_column);
}

/** A catalogue of AT (leap day rows) and NO (run-of-river above 1) with the GB-start prices. */
export async function fixtureCatalogue(): Promise<BuiltCatalogue> {
  const countries = COUNTRIES.filter((c) => c.iso === "AT" || c.iso === "NO");
  const tables = new Map([
    ["AT", await fixtureTable("AT_2016_leap_day.csv")],
    ["NO", await fixtureTable("NO_2016_ror_above_1.csv")],
  ]);
  return buildCatalogue(
    tables,
    await fixtureTable("prices_2016_gb_start.csv", "utc_timestamp"),
    countries,
  );
}

/** Writes the fixture catalogue into a new temporary folder and returns its path. */
export async function fixtureCatalogueDir(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "profiles_test_" });
  for (const [name, text] of catalogueFiles(await fixtureCatalogue())) {
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
  return dir;
}
