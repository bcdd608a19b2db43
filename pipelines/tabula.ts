/**
 * TABULA check: reads the source CSVs, validates every row against the parameter schema and
 * prints every problem, then a summary; exits 1 on any problem. Building the store is
 * `pipelines/build_store.ts`.
 *
 * Usage: `deno run -A pipelines/tabula.ts [dir]`; the folder defaults to `data/tabula` in the
 * repository (layout: see lib/heat/tabula/tabula_sources.ts).
 */
import { join } from "node:path";
import { readTabulaSources } from "../lib/heat/tabula/tabula_sources.ts";
import { formatProblem } from "../lib/validation/problems.ts";

if (import.meta.main) {
  const dir = Deno.args[0] ?? join(import.meta.dirname ?? ".", "..", "data", "tabula");
  const sources = await readTabulaSources(dir);
  for (const p of sources.problems) console.error(formatProblem(p));
  const variants = sources.countries.reduce((n, c) => n + c.rows.length, 0);
  console.log(
    `tabula: ${sources.files.length} files, ${sources.rowCount} rows (${variants} variants in` +
      ` ${sources.countries.length} countries, ${sources.references.length} references),` +
      ` ${sources.problems.length} problems`,
  );
  if (sources.problems.length > 0) Deno.exit(1);
}
