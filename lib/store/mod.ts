/**
 * The DuckDB store: opening it, table definitions, the `meta` key/value table and batched
 * appends of log-like rows.
 */
export * from "./store.ts";
export * from "./schema.ts";
export * from "./meta.ts";
export * from "./batch_appender.ts";
