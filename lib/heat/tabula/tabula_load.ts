/**
 * Loading validated TABULA sources into the store: the variants table with one view per country,
 * the country list and the reference rows, replacing whatever TABULA data the store held.
 */
import { PARAMETERS, REFERENCE_COLUMNS } from "../parameters/parameters.ts";
import {
  COUNTRY_COLUMN,
  COUNTRY_COLUMNS,
  COUNTRY_TABLE,
  REFERENCE_TABLE,
  REFERENCE_TABLE_COLUMNS,
  VARIANT_COLUMNS,
  VARIANT_TABLE,
} from "./tabula_tables.ts";
import type { TabulaSources } from "./tabula_sources.ts";
import { createTable } from "../../store/schema.ts";
import { quoteIdent, type SqlValue, type Store } from "../../store/store.ts";
import { DataValidationError } from "../../validation/problems.ts";

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
