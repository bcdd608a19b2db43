/**
 * Checks every data file without building the store: each row against its schema, and the
 * committed JSON Schemas against the generated ones. Prints every problem as
 * `file:row: column: message` (row = 1-based data row, 0 = whole file), then a one-line summary;
 * exits 1 on any problem.
 *
 * Each data set contributes a ValidationCheck: TABULA, the technology catalogue with the manifest
 * of its served files, the profiles, the committed JSON Schemas, and the generated files against
 * a rebuild from their sources.
 * Usage: `deno run -A pipelines/validate.ts [tabula-dir]` (with a folder: TABULA only).
 */
import { fileURLToPath } from "node:url";
import { DEFAULT_SCHEMA_DIR, generatedSchemas, schemaDrift } from "./export_schemas.ts";
import { formatProblem, type Problem } from "../lib/validation/problems.ts";
import { readTabulaSources } from "../lib/heat/tabula/tabula_sources.ts";
import { checkManifest } from "../lib/catalogue/loading/manifest.ts";
import { checkCatalogueSchemaFiles, validateCatalogueDir } from "./catalogue_validate.ts";
import { CATALOGUE_FILES } from "./catalogue_build.ts";
import { validateProfilesDir } from "./profiles_validate.ts";
import { PROFILE_FILES } from "./profiles_build.ts";
import { checkGeneratedFiles } from "./generated_files.ts";
import { templatesDrift } from "./templates_build.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/** Default TABULA source folder: `data/tabula` in the repository. */
export const DEFAULT_TABULA_DIR = fileURLToPath(new URL("../data/tabula", import.meta.url));

/** What one check (or all of them) found: files and data rows read, and every problem. */
export interface ValidationSummary {
  readonly files: number;
  readonly rows: number;
  readonly problems: readonly Problem[];
}

/** One data set's validation. */
export interface ValidationCheck {
  readonly name: string;
  run(): Promise<ValidationSummary>;
}

/** Checks every TABULA source file below `dir`. */
export function tabulaCheck(dir: string = DEFAULT_TABULA_DIR): ValidationCheck {
  return {
    name: "tabula",
    async run() {
      const sources = await readTabulaSources(dir);
      return { files: sources.files.length, rows: sources.rowCount, problems: sources.problems };
    },
  };
}

/** Checks that the committed JSON Schemas in `dir` equal the generated ones. */
export function schemaCheck(dir: string = DEFAULT_SCHEMA_DIR): ValidationCheck {
  return {
    name: "schemas",
    async run() {
      return { files: generatedSchemas().length, rows: 0, problems: await schemaDrift(dir) };
    },
  };
}

/** A whole-file problem of a data set whose checks report lines, not rows. */
function fileProblem(file: string, message: string): Problem {
  return { file, row: 0, column: "", message };
}

/**
 * Checks the technology catalogue files (both formats), the manifest of the served files (it
 * must be there, and every file it lists) and the committed JSON Schemas.
 */
export function catalogueCheck(root: string = REPO): ValidationCheck {
  return {
    name: "catalogue",
    async run() {
      const dir = `${root}/catalogues`;
      const { files, problems } = await validateCatalogueDir(dir);
      const manifest = await checkManifest(dir, `${dir}/profiles`, { required: true });
      const schemaProblems = await checkCatalogueSchemaFiles(root);
      return {
        files: files.length + (manifest.present ? 1 : 0),
        rows: files.reduce((n, f) => n + f.instances, 0),
        problems: [
          ...[...problems, ...manifest.problems].map((p) => ({
            file: p.file,
            row: 0,
            column: p.path,
            message: p.message,
          })),
          ...schemaProblems.map((line) => fileProblem("data/schemas", line)),
        ],
      };
    },
  };
}

/** Checks every profile file and the profile index. */
export function profilesCheck(root: string = REPO): ValidationCheck {
  return {
    name: "profiles",
    async run() {
      const dir = `${root}/catalogues/profiles`;
      const problems = await validateProfilesDir(dir);
      let files = 0;
      for await (const e of Deno.readDir(dir)) if (e.name.endsWith(".json")) files++;
      return { files, rows: 0, problems: problems.map((line) => fileProblem(dir, line)) };
    },
  };
}

/**
 * Checks that the generated catalogue and profile files equal a rebuild from their sources, so
 * nobody edits a generated file by hand or forgets to rebuild.
 */
export function generatedFilesCheck(root: string = REPO): ValidationCheck {
  return {
    name: "generated files",
    async run() {
      let files = 0;
      const differences: string[] = [];
      for (const set of [CATALOGUE_FILES, PROFILE_FILES]) {
        const built = await set.build(root);
        files += built.size;
        differences.push(...await checkGeneratedFiles(root, built, set));
      }
      return {
        files,
        rows: 0,
        problems: differences.map((line) => fileProblem(line.split(":")[0] ?? "", line)),
      };
    },
  };
}

/** Checks that the committed template defaults equal a fresh build from the catalogue. */
export function templatesCheck(root: string = REPO): ValidationCheck {
  return {
    name: "templates",
    async run() {
      return { files: 1, rows: 0, problems: await templatesDrift(root) };
    },
  };
}

/** Every check of the repository's data. */
export function allChecks(): ValidationCheck[] {
  return [
    tabulaCheck(),
    schemaCheck(),
    catalogueCheck(),
    profilesCheck(),
    generatedFilesCheck(),
    templatesCheck(),
  ];
}

/** Runs every check (default: all data sets) and adds up what they found. */
export async function validateData(
  checks: readonly ValidationCheck[] = allChecks(),
): Promise<ValidationSummary> {
  let files = 0;
  let rows = 0;
  const problems: Problem[] = [];
  for (const check of checks) {
    const found = await check.run();
    files += found.files;
    rows += found.rows;
    problems.push(...found.problems);
  }
  return { files, rows, problems };
}

/** The one-line summary printed after the problems. */
export function summaryLine(s: ValidationSummary): string {
  return `validate: ${s.files} files, ${s.rows} rows, ${s.problems.length} problems`;
}

if (import.meta.main) {
  const summary = await validateData(
    Deno.args[0] ? [tabulaCheck(Deno.args[0]), schemaCheck()] : allChecks(),
  );
  for (const p of summary.problems) console.error(formatProblem(p));
  console.log(summaryLine(summary));
  if (summary.problems.length > 0) Deno.exit(1);
}
