/**
 * Validates the profile catalogue folder: every file against the profile schema and the index
 * against the files, all problems at once.
 *
 *   deno run -A pipelines/profiles_validate.ts [catalogues/profiles]
 *
 * Exit code 1 when there is any problem (each printed with its file and path), 0 otherwise.
 */
import { readProfileCatalogue } from "../lib/profiles/catalogue_read.ts";

/** The default catalogue folder, relative to the repository root. */
export const PROFILES_DIR = "catalogues/profiles";

/**
 * Every problem of the catalogue in `dir`, e.g.
 * `DE_solar_pv_2016.json: values[123]: 1.2 is above 1 for a capacity factor`; empty when valid.
 */
export async function validateProfilesDir(dir: string): Promise<string[]> {
  return (await readProfileCatalogue(dir)).problems;
}

/** Runs the CLI with the given arguments; returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const dir = args[0] ?? PROFILES_DIR;
  const problems = await validateProfilesDir(dir);
  if (problems.length > 0) {
    console.error(`${dir}: ${problems.length} problem(s)\n${problems.join("\n")}`);
    return 1;
  }
  console.log(`${dir}: valid`);
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
