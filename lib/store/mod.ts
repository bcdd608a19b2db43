/** The DuckDB store: opening it, table definitions and the `meta` key/value table. */
export * from "./store.ts";
export * from "./schema.ts";
export * from "./meta.ts";
