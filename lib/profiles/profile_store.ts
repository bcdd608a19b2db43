/**
 * The catalogue profiles in the DuckDB store: table `profiles`, one row per profile, with the
 * metadata columns, `notes VARCHAR[]` and `values DOUBLE[]`. `start` and `end` stay ISO text, as
 * in the files. Profiles submitted by users live in other tables.
 */
import { quoteIdent, type Store } from "../store/store.ts";
import { readProfileCatalogue } from "./catalogue_read.ts";
import { METADATA_KEYS } from "./profile_json.ts";
import type { CatalogueMetadata, CatalogueProfile } from "./profile_schema.ts";

/** The table of catalogue profiles. */
export const PROFILES_TABLE = "profiles";

/** Column type of each metadata member. */
const COLUMN_TYPES: Readonly<Record<keyof CatalogueMetadata, string>> = {
  profile_id: "VARCHAR PRIMARY KEY",
  name: "VARCHAR NOT NULL",
  type: "VARCHAR NOT NULL",
  resolution: "VARCHAR NOT NULL",
  location: "VARCHAR NOT NULL",
  carrier: "VARCHAR NOT NULL",
  year: "INTEGER NOT NULL",
  n_timesteps: "INTEGER NOT NULL",
  source: "VARCHAR NOT NULL",
  unit: "VARCHAR NOT NULL",
  start: "VARCHAR NOT NULL",
  end: "VARCHAR NOT NULL",
  notes: "VARCHAR[] NOT NULL",
};

const METADATA_SELECT = METADATA_KEYS.map(quoteIdent).join(", ");
const VALUES = quoteIdent("values");

/** Replaces the `profiles` table with the given profiles (in one transaction). */
export async function writeProfiles(
  store: Store,
  profiles: readonly CatalogueProfile[],
): Promise<void> {
  const columns = METADATA_KEYS.map((k) => `${quoteIdent(k)} ${COLUMN_TYPES[k]}`);
  // Lists go in as JSON text and are cast by DuckDB, which parses numbers exactly.
  const slots = METADATA_KEYS.map((k, i) =>
    k === "notes" ? `$${i + 1}::JSON::VARCHAR[]` : `$${i + 1}`
  );
  const insert = `INSERT INTO ${PROFILES_TABLE} (${METADATA_SELECT}, ${VALUES}) VALUES (` +
    `${slots.join(", ")}, $${slots.length + 1}::DOUBLE[])`;
  await store.run("BEGIN TRANSACTION");
  try {
    await store.run(`DROP TABLE IF EXISTS ${PROFILES_TABLE}`);
    await store.run(
      `CREATE TABLE ${PROFILES_TABLE} (${columns.join(", ")}, ${VALUES} DOUBLE[] NOT NULL)`,
    );
    for (const p of profiles) {
      const params = METADATA_KEYS.map((k) => k === "notes" ? JSON.stringify(p.notes) : p[k]);
      await store.run(insert, [...params, JSON.stringify(p.values)]);
    }
    await store.run("COMMIT");
  } catch (error) {
    await store.run("ROLLBACK");
    throw error;
  }
}

/**
 * Validates the catalogue folder `dir` and writes its profiles into the store; throws with every
 * problem when the folder is not valid, leaving the store as it was. Returns the profile count.
 */
export async function loadProfiles(store: Store, dir: string): Promise<number> {
  const { profiles, problems } = await readProfileCatalogue(dir);
  if (problems.length > 0) {
    throw new RangeError(
      `Cannot load the profiles in "${dir}": ${problems.length} problem(s)\n${problems.join("\n")}`,
    );
  }
  await writeProfiles(store, profiles);
  return profiles.length;
}

/** Metadata of every catalogue profile, ordered by profile id. */
export async function readProfileIndex(store: Store): Promise<CatalogueMetadata[]> {
  return await store.all<CatalogueMetadata>(
    `SELECT ${METADATA_SELECT} FROM ${PROFILES_TABLE} ORDER BY profile_id`,
  );
}

/** One full catalogue profile, or null when there is none with this id. */
export async function readProfile(store: Store, id: string): Promise<CatalogueProfile | null> {
  const rows = await store.all<CatalogueProfile>(
    `SELECT ${METADATA_SELECT}, ${VALUES} FROM ${PROFILES_TABLE} WHERE profile_id = $1`,
    [id],
  );
  return rows[0] ?? null;
}
