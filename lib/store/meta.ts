/**
 * The store's `meta` table: key/value facts about the store itself, such as the fingerprint of
 * the source files it was built from.
 */
import { tableNames } from "./schema.ts";
import type { Store } from "./store.ts";

/** Name of the key/value table. */
export const META_TABLE = "meta";

/** Creates the `meta` table if it does not exist yet. */
export async function ensureMeta(store: Store): Promise<void> {
  await store.run(
    `CREATE TABLE IF NOT EXISTS ${META_TABLE} (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)`,
  );
}

/** The value stored under `key`, or undefined when the key or the table is absent. */
export async function readMeta(store: Store, key: string): Promise<string | undefined> {
  if (!(await tableNames(store)).includes(META_TABLE)) return undefined;
  const rows = await store.all<{ value: string }>(
    `SELECT value FROM ${META_TABLE} WHERE key = $1`,
    [key],
  );
  return rows[0]?.value;
}

/** Stores `value` under `key`, replacing an earlier value. */
export async function writeMeta(store: Store, key: string, value: string): Promise<void> {
  await ensureMeta(store);
  await store.run(`INSERT OR REPLACE INTO ${META_TABLE} VALUES ($1, $2)`, [key, value]);
}
