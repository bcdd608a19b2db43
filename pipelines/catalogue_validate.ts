/**
 * Validation of the technology catalogue folder: every `*.json` file directly in it, in either
 * format (catalogue or legacy), checked against the schemas and the rules across records and
 * files, with every problem reported at once by file and JSON path. Also the JSON Schemas of both
 * formats for editors (`data/schemas/catalogue.schema.json`, `catalogue_legacy.schema.json`) and
 * the check that the committed copies equal the generated ones.
 *
 *   deno run -A pipelines/catalogue_validate.ts [dir] [--root .]
 */
import { parseArgs } from "node:util";
import { z } from "@hono/zod-openapi";
import {
  type CatalogueFormat,
  type CatalogueProblem,
  formatCatalogueProblem,
  readCatalogueDir,
} from "../lib/catalogue/loading/catalogue_file.ts";
import { legacyTechnologySchema } from "../lib/catalogue/schema/legacy_schema.ts";
import { catalogueFileSchema } from "../lib/catalogue/schema/technology_schema.ts";

/** Default catalogue folder, relative to the repository root. */
export const CATALOGUE_DIR = "catalogues";

/** Where the JSON Schemas go, relative to the repository root. */
export const SCHEMA_DIR = "data/schemas";

function document(schema: z.ZodType, title: string, description: string): string {
  // The file-level title and description replace the schema's own short description.
  const { $schema, description: _short, ...rest } = z.toJSONSchema(schema) as Record<
    string,
    unknown
  >;
  return JSON.stringify({ $schema, title, description, ...rest }, null, 2) + "\n";
}

/** The JSON Schema files by name, as written to `data/schemas/`. */
export function catalogueJsonSchemaFiles(): Record<string, string> {
  return {
    "catalogue.schema.json": document(
      catalogueFileSchema,
      "Technology catalogue file",
      "catalogues/<domain>.json: metadata plus technology records with flat instance fields. " +
        "Also checked by the pipeline, not expressible here: every technology's domain equals " +
        "metadata.domain; technology ids are unique across the folder and instance ids within " +
        "their technology; oeo_class and oeo_uri name the same class.",
    ),
    "catalogue_legacy.schema.json": document(
      legacyTechnologySchema,
      "Legacy technology file",
      "Legacy individual format: one technology per file, recognised by having neither a " +
        "metadata nor a technologies member. Also checked by the pipeline: instance ids are " +
        "unique; ramp_up_rate equals ramp_down_rate when both are given.",
    ),
  };
}

/** Summary of one file of the folder. */
export interface CatalogueFileReport {
  readonly path: string;
  /** null when the file is not a JSON object. */
  readonly format: CatalogueFormat | null;
  /** Technologies read (0 when the file has problems). */
  readonly technologies: number;
  /** Instances read (0 when the file has problems). */
  readonly instances: number;
  /** Problems found in this file. */
  readonly errors: number;
}

/** Result of validateCatalogueDir: one report per file and every problem. */
export interface CatalogueValidation {
  readonly files: readonly CatalogueFileReport[];
  readonly problems: readonly CatalogueProblem[];
}

/** Reads and checks every `*.json` file directly in `dir`; sub-folders are not read. */
export async function validateCatalogueDir(dir: string): Promise<CatalogueValidation> {
  const result = await readCatalogueDir(dir);
  return {
    files: result.files.map((f) => ({
      path: f.file,
      format: f.format,
      technologies: f.technologies.length,
      instances: f.technologies.reduce((n, t) => n + t.instances.length, 0),
      errors: result.problems.filter((p) => p.file === f.file).length,
    })),
    problems: result.problems,
  };
}

/** One line per schema file under `root` that is missing or differs from the generated one. */
export async function checkCatalogueSchemaFiles(root: string): Promise<string[]> {
  const differences: string[] = [];
  for (const [name, text] of Object.entries(catalogueJsonSchemaFiles())) {
    const path = `${SCHEMA_DIR}/${name}`;
    let committed: string | null = null;
    try {
      committed = await Deno.readTextFile(`${root}/${path}`);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound)) throw e;
    }
    if (committed !== text) {
      differences.push(
        `${path}: ${committed === null ? "missing" : "differs from the schema in the code"} ` +
          "(rebuild with pipelines/catalogue_build.ts)",
      );
    }
  }
  return differences;
}

/** Runs the CLI; returns the exit code (1 on any problem). */
export async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { root: { type: "string", default: "." } },
  });
  const dir = positionals[0] ?? `${values.root}/${CATALOGUE_DIR}`;
  const { files, problems } = await validateCatalogueDir(dir);
  for (const f of files) {
    console.log(
      `${f.path}: ${f.format ?? "unreadable"}, ${f.technologies} technologies, ` +
        `${f.instances} instances, ${f.errors} problems`,
    );
  }
  const schemaProblems = await checkCatalogueSchemaFiles(values.root);
  for (const p of problems) console.error(formatCatalogueProblem(p));
  for (const line of schemaProblems) console.error(line);
  const total = problems.length + schemaProblems.length;
  if (total > 0) {
    console.error(`Technology catalogue: ${total} problem(s).`);
    return 1;
  }
  console.log(`Technology catalogue valid: ${files.length} files.`);
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
