/**
 * Reading the TABULA source CSVs and validating every row against the parameter schema,
 * collecting every problem at once (file, 1-based data row, column, message).
 *
 * Source layout below `dir`: `city2tabula/<country>.csv` (one file per country, named as in
 * countries.ts) and `tsib/episcope.csv` (reference rows). Loading the result into the store is
 * `tabula_load.ts`; the CLI that prints the problems is `pipelines/tabula.ts`.
 */
import { join, relative } from "node:path";
import { type Country, countryByName, countryOfVariant } from "./countries.ts";
import {
  isIgnoredColumn,
  PARAMETERS,
  REFERENCE_COLUMNS,
  type ReferenceRow,
  referenceRowSchema,
  type VariantRow,
  variantRowSchema,
} from "../parameters/parameters.ts";
import { type CsvFile, readCsv } from "../../csv/parse_csv.ts";
import type { Problem } from "../../validation/problems.ts";

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
