/**
 * Rows written to a Parquet or CSV file through DuckDB's COPY, as the batch tasks (recalc,
 * model-run, extract) hand their results to analysts: a table is created in the given store
 * (usually an in-memory one), filled with the appender, then copied to the file.
 */
import { quoteIdent, type SqlValue, type Store } from "./store.ts";

/** The file formats COPY writes here. */
export type TableFileFormat = "parquet" | "csv";

/** A column: its name and SQL type. */
export type TableColumn = readonly [name: string, type: string];

/** The COPY options of a format: CSV with a header line. */
function copyOptions(format: TableFileFormat): string {
  return format === "parquet" ? "FORMAT parquet" : "FORMAT csv, HEADER true";
}

/**
 * Creates table `name` in `store` with `columns`, appends `rows`, and copies it to `path` as
 * `format`; `select` (default `SELECT * FROM name`) may change columns on the way out.
 */
export async function writeTableFile(
  store: Store,
  table: { name: string; columns: readonly TableColumn[]; rows: Iterable<readonly SqlValue[]> },
  path: string,
  format: TableFileFormat,
  select?: string,
): Promise<void> {
  const name = quoteIdent(table.name);
  await store.run(
    `CREATE TABLE ${name} (${
      table.columns.map(([column, type]) => `${quoteIdent(column)} ${type}`).join(", ")
    })`,
  );
  await store.appendRows(table.name, table.columns.map(([column]) => column), table.rows);
  await store.run(
    `COPY (${select ?? `SELECT * FROM ${name}`}) TO '${path.replaceAll("'", "''")}' (${
      copyOptions(format)
    })`,
  );
}
