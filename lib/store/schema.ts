/**
 * Table definitions for the store: column types and the CREATE TABLE statement built from them.
 */
import { quoteIdent, type Store } from "./store.ts";

/** DuckDB column types the store writes. */
export type ColumnType = "DOUBLE" | "INTEGER" | "BIGINT" | "VARCHAR" | "BOOLEAN";

/** One column of a table. */
export interface ColumnDef {
  readonly name: string;
  readonly type: ColumnType;
  readonly notNull?: boolean;
}

/** The CREATE TABLE statement for `table` with `columns`, and an optional primary key. */
export function createTableSql(
  table: string,
  columns: readonly ColumnDef[],
  primaryKey?: readonly string[],
): string {
  if (columns.length === 0) throw new TypeError(`Table ${table} needs at least one column`);
  const parts = columns.map((c) =>
    `${quoteIdent(c.name)} ${c.type}${c.notNull ? " NOT NULL" : ""}`
  );
  if (primaryKey?.length) parts.push(`PRIMARY KEY (${primaryKey.map(quoteIdent).join(", ")})`);
  return `CREATE TABLE ${quoteIdent(table)} (\n  ${parts.join(",\n  ")}\n)`;
}

/** Creates `table` (it must not exist yet). */
export async function createTable(
  store: Store,
  table: string,
  columns: readonly ColumnDef[],
  primaryKey?: readonly string[],
): Promise<void> {
  await store.run(createTableSql(table, columns, primaryKey));
}

/** Names of the tables in the store's main schema, sorted. */
export async function tableNames(store: Store): Promise<string[]> {
  const rows = await store.all<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'main'" +
      " ORDER BY table_name",
  );
  return rows.map((r) => r.name);
}
