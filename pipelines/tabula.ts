/**
 * TABULA pipeline: read the source CSVs, validate every row against the parameter schema
 * (collecting every problem at once), and load valid data into the store.
 *
 * Source layout below `dir`: `city2tabula/<country>.csv` (one file per country, named as in
 * countries.ts) and `tsib/episcope.csv` (reference rows). Usage: `deno run -A pipelines/tabula.ts
 * [dir]` validates and prints a summary; building the store is `pipelines/build_store.ts`.
 */
import { join, relative } from "node:path";
import { type Country, countryByName, countryOfVariant } from "../lib/heat/countries.ts";
import {
  isIgnoredColumn,
  PARAMETERS,
  REFERENCE_COLUMNS,
  type ReferenceRow,
  referenceRowSchema,
  type VariantRow,
  variantRowSchema,
} from "../lib/heat/parameters.ts";
import {
  COUNTRY_COLUMN,
  COUNTRY_COLUMNS,
  COUNTRY_TABLE,
  REFERENCE_TABLE,
  REFERENCE_TABLE_COLUMNS,
  VARIANT_COLUMNS,
  VARIANT_TABLE,
} from "../lib/heat/tabula_tables.ts";
import { createTable } from "../lib/store/schema.ts";
import { quoteIdent, type SqlValue, type Store } from "../lib/store/store.ts";
import type { BuildStep } from "./build_step.ts";
import { type CsvFile, readCsv } from "./csv.ts";
import { DataValidationError, formatProblem, type Problem } from "./problems.ts";

/** A validated row with its 1-based data-row number in the source file. */
export interface SourceRow<T> {
  readonly sourceRow: number;
  readonly row: T;
}

/** The validated variants of one country file. */
export interface CountryRows {
  readonly country: Country;
  readonly file: string;
  readonly rows: readonly SourceRow<VariantRow>[];
}

/** Everything read from a TABULA source directory. */
export interface TabulaSources {
  /** Every file read. */
  readonly files: readonly string[];
  /** Data rows read, valid or not. */
  readonly rowCount: number;
  /** Valid variants per country, countries by name. */
  readonly countries: readonly CountryRows[];
  readonly references: readonly SourceRow<ReferenceRow>[];
  /** Every problem found; when non-empty nothing may be loaded. */
  readonly problems: readonly Problem[];
}

/** The city2tabula export escapes quotes in quoted fields with an apostrophe (see SOURCE.md). */
const VARIANT_CSV = { escapeChar: "'" } as const;

const displayPath = (path: string) => {
  const rel = relative(Deno.cwd(), path);
  return rel.startsWith("..") ? path : rel;
};

/** Problems with the header: missing expected columns and unknown ones. */
function headerProblems(
  file: string,
  fields: readonly string[],
  expected: readonly string[],
  ignored: (column: string) => boolean,
): Problem[] {
  const present = new Set(fields);
  const known = new Set(expected);
  return [
    ...expected.filter((c) => !present.has(c)).map((column) => ({
      file,
      row: 0,
      column,
      message: "column missing from the header",
    })),
    ...fields.filter((c) => !known.has(c) && !ignored(c)).map((column) => ({
      file,
      row: 0,
      column,
      message: "unknown column (not in the parameter schema)",
    })),
  ];
}

/** Validates each record with `schema`, skipping rows the CSV parser already flagged. */
function validateRows<T>(
  csv: CsvFile,
  file: string,
  parse: (record: Record<string, string>) => ReturnType<typeof variantRowSchema.safeParse>,
  problems: Problem[],
): SourceRow<T>[] {
  const broken = new Set(csv.problems.map((p) => p.row));
  const rows: SourceRow<T>[] = [];
  csv.records.forEach((record, i) => {
    const sourceRow = i + 1;
    if (broken.has(sourceRow)) return;
    const result = parse(record);
    if (result.success) {
      rows.push({ sourceRow, row: result.data as T });
      return;
    }
    for (const issue of result.error.issues) {
      problems.push({
        file,
        row: sourceRow,
        column: String(issue.path[0] ?? ""),
        message: issue.message,
      });
    }
  });
  return rows;
}

async function listCsv(dir: string, problems: Problem[]): Promise<string[]> {
  try {
    const names: string[] = [];
    for await (const e of Deno.readDir(dir)) {
      if (e.isFile && e.name.endsWith(".csv")) names.push(e.name);
    }
    if (names.length === 0) {
      problems.push({ file: displayPath(dir), row: 0, column: "", message: "no CSV files found" });
    }
    return names.sort();
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    problems.push({ file: displayPath(dir), row: 0, column: "", message: "directory not found" });
    return [];
  }
}

async function readCountryFiles(dir: string, problems: Problem[]) {
  const expected = PARAMETERS.map((p) => p.column);
  const files: string[] = [];
  const byCountry = new Map<
    string,
    { country: Country; file: string; rows: SourceRow<VariantRow>[] }
  >();
  const firstSeen = new Map<string, string>();
  let rowCount = 0;
  const sourceDir = join(dir, "city2tabula");
  for (const name of await listCsv(sourceDir, problems)) {
    const path = join(sourceDir, name);
    const file = displayPath(path);
    files.push(file);
    const fileCountry = countryByName(name.replace(/\.csv$/, ""));
    if (!fileCountry) {
      problems.push({
        file,
        row: 0,
        column: "",
        message: "file name is not a known country name (see lib/heat/countries.ts)",
      });
    }
    const csv = await readCsv(path, VARIANT_CSV);
    rowCount += csv.records.length;
    problems.push(...csv.problems);
    const header = headerProblems(file, csv.fields, expected, isIgnoredColumn);
    problems.push(...header);
    if (header.some((p) => p.message.startsWith("column missing"))) continue;
    const rows = validateRows<VariantRow>(
      csv,
      file,
      (r) => variantRowSchema.safeParse(r),
      problems,
    );
    for (const { sourceRow, row } of rows) {
      const code = row["Code_BuildingVariant"] as string;
      const at = `${file}:${sourceRow}`;
      const country = countryOfVariant(code);
      const problem = (message: string) =>
        problems.push({ file, row: sourceRow, column: "Code_BuildingVariant", message });
      if (!country) {
        problem(`unknown country code ${code.slice(0, 2)} (see lib/heat/countries.ts)`);
      } else if (fileCountry && country !== fileCountry) {
        problem(`variant of ${country.name} in the file of ${fileCountry.name}`);
      } else if (firstSeen.has(code)) {
        problem(`duplicate variant code ${code}, first at ${firstSeen.get(code)}`);
      } else {
        firstSeen.set(code, at);
        const entry = byCountry.get(country.iso2) ?? { country, file, rows: [] };
        entry.rows.push({ sourceRow, row });
        byCountry.set(country.iso2, entry);
      }
    }
  }
  const countries = [...byCountry.values()].sort((a, b) =>
    a.country.name.localeCompare(b.country.name)
  );
  return { files, rowCount, countries };
}

async function readReferences(dir: string, problems: Problem[]) {
  const path = join(dir, "tsib", "episcope.csv");
  const file = displayPath(path);
  let csv: CsvFile;
  try {
    csv = await readCsv(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    problems.push({ file, row: 0, column: "", message: "file not found" });
    return { file, rowCount: 0, references: [] };
  }
  problems.push(...csv.problems);
  // The first column is the unnamed index pandas wrote; it carries no data.
  const header = headerProblems(file, csv.fields, REFERENCE_COLUMNS, (c) => c === "");
  problems.push(...header);
  if (header.some((p) => p.message.startsWith("column missing"))) {
    return { file, rowCount: csv.records.length, references: [] };
  }
  const rows = validateRows<ReferenceRow>(
    csv,
    file,
    (r) => referenceRowSchema.safeParse(r),
    problems,
  );
  const firstSeen = new Map<string, number>();
  const references = rows.filter(({ sourceRow, row }) => {
    const code = row["Code_BuildingVariant"] as string;
    const first = firstSeen.get(code);
    if (first === undefined) {
      firstSeen.set(code, sourceRow);
      return true;
    }
    problems.push({
      file,
      row: sourceRow,
      column: "Code_BuildingVariant",
      message: `duplicate variant code ${code}, first at row ${first}`,
    });
    return false;
  });
  return { file, rowCount: csv.records.length, references };
}

/** Reads and validates every TABULA source file below `dir`, collecting every problem. */
export async function readTabulaSources(dir: string): Promise<TabulaSources> {
  const problems: Problem[] = [];
  const variants = await readCountryFiles(dir, problems);
  const reference = await readReferences(dir, problems);
  return {
    files: [...variants.files, reference.file],
    rowCount: variants.rowCount + reference.rowCount,
    countries: variants.countries,
    references: reference.references,
    problems,
  };
}

/** Drops every TABULA view and table (names starting `tabula_`), views first. */
async function dropTabula(store: Store): Promise<void> {
  const objects = await store.all<{ name: string; type: string }>(
    "SELECT table_name AS name, table_type AS type FROM information_schema.tables" +
      " WHERE table_schema = 'main' AND starts_with(table_name, 'tabula_')" +
      " ORDER BY table_type = 'VIEW' DESC",
  );
  for (const o of objects) {
    await store.run(`DROP ${o.type === "VIEW" ? "VIEW" : "TABLE"} ${quoteIdent(o.name)}`);
  }
}

/** Replaces the TABULA tables of the store with `sources`; refuses sources with problems. */
export async function loadTabula(store: Store, sources: TabulaSources): Promise<void> {
  if (sources.problems.length > 0) throw new DataValidationError(sources.problems);
  const variantColumns = VARIANT_COLUMNS.map((c) => c.name);
  const referenceColumns = REFERENCE_TABLE_COLUMNS.map((c) => c.name);
  await store.run("BEGIN TRANSACTION");
  try {
    await dropTabula(store);
    await createTable(store, COUNTRY_TABLE, COUNTRY_COLUMNS, ["iso2"]);
    await store.appendRows(
      COUNTRY_TABLE,
      COUNTRY_COLUMNS.map((c) => c.name),
      sources.countries.map((
        c,
      ) => [c.country.iso2, c.country.name, c.country.table, c.rows.length]),
    );
    await createTable(store, VARIANT_TABLE, VARIANT_COLUMNS, ["Code_BuildingVariant"]);
    await store.appendRows(
      VARIANT_TABLE,
      variantColumns,
      sources.countries.flatMap(({ country, rows }) =>
        rows.map(({ sourceRow, row }) => [
          country.iso2,
          sourceRow,
          ...PARAMETERS.map((p): SqlValue => row[p.column] ?? null),
        ])
      ),
    );
    for (const { country } of sources.countries) {
      await store.run(
        `CREATE VIEW ${quoteIdent(country.table)} AS SELECT * EXCLUDE (${
          quoteIdent(COUNTRY_COLUMN)
        }) FROM ${quoteIdent(VARIANT_TABLE)} WHERE ${
          quoteIdent(COUNTRY_COLUMN)
        } = '${country.iso2}'`,
      );
    }
    await createTable(store, REFERENCE_TABLE, REFERENCE_TABLE_COLUMNS, ["Code_BuildingVariant"]);
    await store.appendRows(
      REFERENCE_TABLE,
      referenceColumns,
      sources.references.map(({ sourceRow, row }) => [
        sourceRow,
        ...REFERENCE_COLUMNS.map((c): SqlValue => row[c] ?? null),
      ]),
    );
    await store.run("COMMIT");
  } catch (error) {
    await store.run("ROLLBACK");
    throw error;
  }
}

/** The build step that validates and loads the TABULA sources below `dir`. */
export function tabulaStep(dir: string): BuildStep {
  return {
    name: "tabula",
    sources: [dir],
    async load(store) {
      await loadTabula(store, await readTabulaSources(dir));
    },
  };
}

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
