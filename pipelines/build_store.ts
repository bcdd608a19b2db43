/**
 * Builds the DuckDB store from the source data sets when it is missing or stale (see
 * lib/store/build_store.ts); prints every data problem and exits 1 when a source is invalid.
 *
 * Usage: `deno run -A pipelines/build_store.ts [--force] [path]`; the path defaults to
 * `$STORE_PATH`, then `data/store.duckdb` in the repository.
 */
import { join } from "node:path";
import { defaultSteps, REPOSITORY_ROOT } from "../lib/data_sets.ts";
import { ensureStore } from "../lib/store/build_store.ts";
import { DataValidationError, formatProblem } from "../lib/validation/problems.ts";

/** Default store file: `data/store.duckdb` in the repository. */
export const DEFAULT_STORE_PATH = join(REPOSITORY_ROOT, "data", "store.duckdb");

if (import.meta.main) {
  const force = Deno.args.includes("--force");
  const path = Deno.args.find((a) => !a.startsWith("--")) ?? Deno.env.get("STORE_PATH") ??
    DEFAULT_STORE_PATH;
  try {
    const result = await ensureStore(path, { force, steps: defaultSteps() });
    console.log(
      result.built
        ? `store ${path} built in ${Math.round(result.ms)} ms`
        : `store ${path} is up to date`,
    );
  } catch (error) {
    if (!(error instanceof DataValidationError)) throw error;
    for (const p of error.problems) console.error(formatProblem(p));
    console.error(`store ${path} not built: ${error.problems.length} problems`);
    Deno.exit(1);
  }
}
