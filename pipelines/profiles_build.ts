/**
 * Builds the hourly profile catalogue from `data/profiles/`: one file per series in
 * `catalogues/profiles/`, the index and README there, and the JSON Schemas in `data/schemas/`.
 *
 *   deno run -A pipelines/profiles_build.ts [--root .] [--check]
 *
 * `--check` writes nothing into the catalogue: it exits 1 when a rebuild differs from the
 * committed files (rebuilt copies of the differing files go to `profiles-changed/`, git-ignored).
 * Files are written atomically (a temporary file in the same folder, then a rename), the index
 * after the profiles it lists; files the build no longer makes are removed last.
 */
import { buildCatalogue, type BuiltCatalogue } from "../lib/profiles/build_catalogue.ts";
import { INDEX_FILE } from "../lib/profiles/catalogue_read.ts";
import { formatCatalogueReadme } from "../lib/profiles/catalogue_readme.ts";
import { COUNTRIES } from "../lib/profiles/countries.ts";
import { profileJsonSchemaFiles } from "../lib/profiles/json_schema.ts";
import { formatIndexFile, formatProfileFile, metadataOf } from "../lib/profiles/profile_json.ts";
import { catalogueProfileSchema, describeProfileIssues } from "../lib/profiles/profile_schema.ts";
import { parseSourceTable, type SourceTable } from "../lib/profiles/source_table.ts";
import {
  checkGeneratedFiles,
  type GeneratedFileSet,
  runGeneratedFilesCli,
  writeGeneratedFiles,
} from "./generated_files.ts";

/** Where the catalogue files go, relative to the root. */
export const CATALOGUE_DIR = "catalogues/profiles";
const SOURCE_DIR = "data/profiles";
const SCHEMA_DIR = "data/schemas";
const PRICES_FILE = "prices_2016.csv";
const CHANGED_DIR = "profiles-changed";

async function readTable(dir: string, file: string, time_column: string): Promise<SourceTable> {
  return parseSourceTable(file, await Deno.readTextFile(`${dir}/${file}`), time_column);
}

/** The files of a catalogue folder by name: one per profile, `index.json` and `README.md`. */
export function catalogueFiles(catalogue: BuiltCatalogue): Map<string, string> {
  const files = new Map<string, string>();
  for (const p of catalogue.profiles) files.set(`${p.profile_id}.json`, formatProfileFile(p));
  files.set(
    INDEX_FILE,
    formatIndexFile({
      profiles: catalogue.profiles.map(metadataOf),
      not_published: catalogue.not_published,
    }),
  );
  files.set("README.md", formatCatalogueReadme(catalogue));
  return files;
}

/**
 * Every output file's text by path relative to `root`, built from `<root>/data/profiles/`.
 * Throws when a source file cannot be read or a built profile breaks the profile schema.
 */
export async function buildProfileFiles(root: string): Promise<Map<string, string>> {
  const source = `${root}/${SOURCE_DIR}`;
  const tables = new Map<string, SourceTable>();
  for (const c of COUNTRIES) {
    tables.set(c.iso, await readTable(source, `${c.iso}_2016.csv`, "timestamp"));
  }
  const catalogue = buildCatalogue(tables, await readTable(source, PRICES_FILE, "utc_timestamp"));
  const problems = catalogue.profiles.flatMap((p) => {
    const parsed = catalogueProfileSchema.safeParse(p);
    return parsed.success
      ? []
      : describeProfileIssues(parsed.error.issues).map((m) => `${p.profile_id}: ${m}`);
  });
  if (problems.length > 0) {
    throw new RangeError(`Built profiles break the schema:\n${problems.join("\n")}`);
  }
  const files = new Map<string, string>();
  for (const [name, text] of catalogueFiles(catalogue)) files.set(`${CATALOGUE_DIR}/${name}`, text);
  for (const [name, text] of Object.entries(profileJsonSchemaFiles())) {
    files.set(`${SCHEMA_DIR}/${name}`, text);
  }
  return files;
}

/** The profile catalogue as a set of generated files; it owns every file of its folder. */
export const PROFILE_FILES: GeneratedFileSet = {
  label: "Profile catalogue",
  command: "pipelines/profiles_build.ts",
  changedDir: CHANGED_DIR,
  ownedDir: CATALOGUE_DIR,
  build: buildProfileFiles,
};

/**
 * Compares a rebuild with the files under `root`; returns one line per difference (empty when
 * equal) and writes rebuilt copies of differing files under `<root>/profiles-changed/`.
 */
export function checkProfileFiles(
  root: string,
  files: ReadonlyMap<string, string>,
): Promise<string[]> {
  return checkGeneratedFiles(root, files, PROFILE_FILES);
}

/** Writes the files under `root` (atomically) and removes catalogue files the build no longer produces. */
export function writeProfileFiles(root: string, files: ReadonlyMap<string, string>): Promise<void> {
  return writeGeneratedFiles(root, files, PROFILE_FILES);
}

/** Runs the CLI with the given arguments; returns the exit code. */
export function main(args: string[]): Promise<number> {
  return runGeneratedFilesCli(PROFILE_FILES, args);
}

if (import.meta.main) Deno.exit(await main(Deno.args));
