/**
 * Layout of the TABULA data in the store, shared by the loader (`tabula_load.ts`) and the reader
 * (`../typology/typology.ts`).
 *
 * All variants live in one table, `tabula_variants`, with a view per country named by
 * countries.ts (`tabula_de`, ...): one wide table writes about 3x faster and 18x smaller than
 * twenty (DuckDB keeps storage per table and column). `tabula_countries` lists the loaded
 * countries, `tabula_reference` holds the reference rows.
 */
import type { ColumnDef } from "../../store/schema.ts";
import { PARAMETERS } from "../parameters/parameter_list.ts";
import { isReferenceTextColumn, REFERENCE_COLUMNS } from "../parameters/reference_row.ts";

/** Table of every variant of every country. */
export const VARIANT_TABLE = "tabula_variants";

/** Column of the variant table holding the country code (upper case). */
export const COUNTRY_COLUMN = "iso2";

/** Table listing the loaded countries: iso2, name, table_name (the view), variant_count. */
export const COUNTRY_TABLE = "tabula_countries";

/** Table of the reference rows (tsib/episcope.csv). */
export const REFERENCE_TABLE = "tabula_reference";

/** Extra column of the variant and reference tables: 1-based data row in the source file. */
export const ROW_COLUMN = "source_row";

/** Columns of the country table. */
export const COUNTRY_COLUMNS: readonly ColumnDef[] = [
  { name: "iso2", type: "VARCHAR", notNull: true },
  { name: "name", type: "VARCHAR", notNull: true },
  { name: "table_name", type: "VARCHAR", notNull: true },
  { name: "variant_count", type: "INTEGER", notNull: true },
];

/** Columns of the variant table: country, source row, then every parameter column. */
export const VARIANT_COLUMNS: readonly ColumnDef[] = [
  { name: COUNTRY_COLUMN, type: "VARCHAR", notNull: true },
  { name: ROW_COLUMN, type: "INTEGER", notNull: true },
  ...PARAMETERS.map((p): ColumnDef => ({
    name: p.column,
    type: p.type === "string" ? "VARCHAR" : p.type === "integer" ? "INTEGER" : "DOUBLE",
    // Numbers are required by validation; text may be empty (null).
    notNull: p.type !== "string" || p.required === true,
  })),
];

/** Columns of the reference table: the source row, then every reference column. */
export const REFERENCE_TABLE_COLUMNS: readonly ColumnDef[] = [
  { name: ROW_COLUMN, type: "INTEGER", notNull: true },
  ...REFERENCE_COLUMNS.map((c): ColumnDef => ({
    name: c,
    type: isReferenceTextColumn(c) ? "VARCHAR" : "DOUBLE",
  })),
];
