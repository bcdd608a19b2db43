/**
 * The technology catalogue in the DuckDB store: `loadCatalogue` writes the files of a catalogue
 * folder into four tables, `readCatalogue` reads the technologies back in the internal shape.
 *
 * The tables are derived from the files only and are replaced as a whole on every load (inside one
 * transaction, so a failed load leaves the previous tables). User state that lives in the same
 * store (submissions, approved additions) belongs in other tables, which a load never touches.
 */
import { relative } from "node:path";
import { type ColumnDef, createTable } from "../../store/schema.ts";
import { quoteIdent, type SqlValue, type Store } from "../../store/store.ts";
import { CatalogueError, type CatalogueFormat, readCatalogueDir } from "./catalogue_file.ts";
import {
  type CatalogueMetadata,
  type Domain,
  type Instance,
  INSTANCE_NUMBER_FIELDS,
  type Lifecycle,
  type Technology,
} from "../schema/technology_schema.ts";

/** One row per catalogue file. */
export const FILES_TABLE = "catalogue_files";
/** One row per technology, with its full record as JSON. */
export const TECHNOLOGIES_TABLE = "catalogue_technologies";
/** One row per technology and tag, for the `tag` filter. */
export const TAGS_TABLE = "catalogue_technology_tags";
/** One row per instance, with every instance field as a column. */
export const INSTANCES_TABLE = "catalogue_instances";

/** Every table this module owns; nothing else in the store is touched by a load. */
export const CATALOGUE_TABLES = [FILES_TABLE, TECHNOLOGIES_TABLE, TAGS_TABLE, INSTANCES_TABLE];

const FILE_COLUMNS: readonly ColumnDef[] = [
  { name: "file", type: "VARCHAR", notNull: true },
  { name: "format", type: "VARCHAR", notNull: true },
  { name: "domain", type: "VARCHAR" },
  { name: "version", type: "VARCHAR" },
  { name: "technologies", type: "INTEGER", notNull: true },
  { name: "metadata_json", type: "VARCHAR" },
];

const TECHNOLOGY_COLUMNS: readonly ColumnDef[] = [
  { name: "technology_id", type: "VARCHAR", notNull: true },
  { name: "position", type: "INTEGER", notNull: true },
  { name: "technology_name", type: "VARCHAR", notNull: true },
  { name: "domain", type: "VARCHAR", notNull: true },
  { name: "carrier", type: "VARCHAR", notNull: true },
  { name: "carrier_in_json", type: "VARCHAR" },
  { name: "carrier_out_json", type: "VARCHAR" },
  { name: "oeo_class", type: "VARCHAR" },
  { name: "oeo_uri", type: "VARCHAR" },
  { name: "description", type: "VARCHAR" },
  { name: "tags_json", type: "VARCHAR", notNull: true },
  { name: "lifecycle", type: "VARCHAR" },
  { name: "profile_key", type: "VARCHAR" },
  { name: "instance_count", type: "INTEGER", notNull: true },
  { name: "file", type: "VARCHAR", notNull: true },
  { name: "format", type: "VARCHAR", notNull: true },
  { name: "record_json", type: "VARCHAR", notNull: true },
];

const TAG_COLUMNS: readonly ColumnDef[] = [
  { name: "technology_id", type: "VARCHAR", notNull: true },
  { name: "tag", type: "VARCHAR", notNull: true },
];

const INSTANCE_COLUMNS: readonly ColumnDef[] = [
  { name: "technology_id", type: "VARCHAR", notNull: true },
  { name: "instance_index", type: "INTEGER", notNull: true },
  { name: "instance_id", type: "VARCHAR", notNull: true },
  { name: "instance_name", type: "VARCHAR", notNull: true },
  { name: "year", type: "INTEGER" },
  { name: "lifecycle_stage", type: "VARCHAR" },
  { name: "capacity_basis", type: "VARCHAR" },
  { name: "capacity_unit", type: "VARCHAR" },
  { name: "fuel", type: "VARCHAR" },
  ...INSTANCE_NUMBER_FIELDS.map((name): ColumnDef => ({ name, type: "DOUBLE" })),
  { name: "reference_source", type: "VARCHAR" },
  { name: "source_technologies_json", type: "VARCHAR", notNull: true },
  { name: "notes_json", type: "VARCHAR", notNull: true },
];

const names = (columns: readonly ColumnDef[]) => columns.map((c) => c.name);

/** Counts of what loadCatalogue wrote. */
export interface CatalogueLoadResult {
  readonly files: number;
  readonly technologies: number;
  readonly instances: number;
}

/**
 * Validates every `*.json` file directly in `dir` (both formats) and replaces the catalogue
 * tables with them. Throws CatalogueError, listing every problem, before touching the store.
 */
export async function loadCatalogue(store: Store, dir: string): Promise<CatalogueLoadResult> {
  const read = await readCatalogueDir(dir);
  if (read.problems.length > 0) throw new CatalogueError(read.problems);
  const fileRows: SqlValue[][] = [];
  const technologyRows: SqlValue[][] = [];
  const tagRows: SqlValue[][] = [];
  const instanceRows: SqlValue[][] = [];
  let position = 0;
  for (const f of read.files) {
    const file = relative(dir, f.file);
    const format = f.format as CatalogueFormat;
    fileRows.push([
      file,
      format,
      f.metadata?.domain ?? null,
      f.metadata?.version ?? null,
      f.technologies.length,
      f.metadata ? JSON.stringify(f.metadata) : null,
    ]);
    for (const t of f.technologies) {
      technologyRows.push([
        t.technology_id,
        position++,
        t.technology_name,
        t.domain,
        t.carrier,
        t.carrier_in ? JSON.stringify(t.carrier_in) : null,
        t.carrier_out ? JSON.stringify(t.carrier_out) : null,
        t.oeo_class,
        t.oeo_uri,
        t.description,
        JSON.stringify(t.tags),
        t.lifecycle,
        t.profile_key,
        t.instances.length,
        file,
        format,
        JSON.stringify(t),
      ]);
      for (const tag of new Set(t.tags)) tagRows.push([t.technology_id, tag]);
      t.instances.forEach((i, index) => {
        instanceRows.push([
          t.technology_id,
          index,
          i.instance_id,
          i.instance_name,
          i.year,
          i.lifecycle_stage,
          i.capacity_basis,
          i.capacity_unit ?? null,
          i.fuel ?? null,
          ...INSTANCE_NUMBER_FIELDS.map((n) => i[n]),
          i.reference_source,
          JSON.stringify(i.source_technologies),
          JSON.stringify(i.notes),
        ]);
      });
    }
  }
  await store.run("BEGIN TRANSACTION");
  try {
    for (const table of CATALOGUE_TABLES) {
      await store.run(`DROP TABLE IF EXISTS ${quoteIdent(table)}`);
    }
    await createTable(store, FILES_TABLE, FILE_COLUMNS, ["file"]);
    await createTable(store, TECHNOLOGIES_TABLE, TECHNOLOGY_COLUMNS, ["technology_id"]);
    await createTable(store, TAGS_TABLE, TAG_COLUMNS, ["technology_id", "tag"]);
    await createTable(store, INSTANCES_TABLE, INSTANCE_COLUMNS, ["technology_id", "instance_id"]);
    await store.appendRows(FILES_TABLE, names(FILE_COLUMNS), fileRows);
    await store.appendRows(TECHNOLOGIES_TABLE, names(TECHNOLOGY_COLUMNS), technologyRows);
    await store.appendRows(TAGS_TABLE, names(TAG_COLUMNS), tagRows);
    await store.appendRows(INSTANCES_TABLE, names(INSTANCE_COLUMNS), instanceRows);
    await store.run("COMMIT");
  } catch (error) {
    await store.run("ROLLBACK");
    throw error;
  }
  return {
    files: fileRows.length,
    technologies: technologyRows.length,
    instances: instanceRows.length,
  };
}

/** A catalogue file as recorded in the store. */
export interface StoredCatalogueFile {
  /** File name relative to the catalogue folder. */
  readonly file: string;
  readonly format: CatalogueFormat;
  readonly domain: Domain | null;
  readonly version: string | null;
  readonly technologies: number;
  readonly metadata: CatalogueMetadata | null;
}

/** The files of the last load, by name. */
export async function readCatalogueFiles(store: Store): Promise<StoredCatalogueFile[]> {
  const rows = await store.all<{
    file: string;
    format: CatalogueFormat;
    domain: Domain | null;
    version: string | null;
    technologies: number;
    metadata_json: string | null;
  }>(`SELECT * FROM ${FILES_TABLE} ORDER BY file`);
  return rows.map(({ metadata_json, ...r }) => ({
    ...r,
    metadata: metadata_json ? JSON.parse(metadata_json) as CatalogueMetadata : null,
  }));
}

type TechnologyRow = {
  technology_id: string;
  technology_name: string;
  domain: Domain;
  carrier: string;
  carrier_in_json: string | null;
  carrier_out_json: string | null;
  oeo_class: string | null;
  oeo_uri: string | null;
  description: string | null;
  tags_json: string;
  lifecycle: Lifecycle | null;
  profile_key: string | null;
};

type InstanceRow = Omit<Instance, "source_technologies" | "notes"> & {
  technology_id: string;
  source_technologies_json: string;
  notes_json: string;
};

/** Every technology of the store with its instances, in load order, in the internal shape. */
export async function readCatalogue(store: Store): Promise<Technology[]> {
  const technologies = await store.all<TechnologyRow>(
    `SELECT * FROM ${TECHNOLOGIES_TABLE} ORDER BY position`,
  );
  const instances = await store.all<InstanceRow>(
    `SELECT * FROM ${INSTANCES_TABLE} ORDER BY technology_id, instance_index`,
  );
  const byTechnology = new Map<string, Instance[]>();
  for (const r of instances) {
    const list = byTechnology.get(r.technology_id) ?? [];
    byTechnology.set(r.technology_id, list);
    const numbers = Object.fromEntries(INSTANCE_NUMBER_FIELDS.map((n) => [n, r[n]]));
    list.push({
      instance_id: r.instance_id,
      instance_name: r.instance_name,
      year: r.year,
      lifecycle_stage: r.lifecycle_stage,
      capacity_basis: r.capacity_basis,
      capacity_unit: r.capacity_unit ?? null,
      fuel: r.fuel ?? null,
      ...numbers as Pick<Instance, typeof INSTANCE_NUMBER_FIELDS[number]>,
      reference_source: r.reference_source,
      source_technologies: JSON.parse(r.source_technologies_json),
      notes: JSON.parse(r.notes_json),
    } as Instance);
  }
  return technologies.map((t) => ({
    technology_id: t.technology_id,
    technology_name: t.technology_name,
    domain: t.domain,
    carrier: t.carrier,
    carrier_in: t.carrier_in_json ? JSON.parse(t.carrier_in_json) : null,
    carrier_out: t.carrier_out_json ? JSON.parse(t.carrier_out_json) : null,
    oeo_class: t.oeo_class,
    oeo_uri: t.oeo_uri,
    description: t.description,
    tags: JSON.parse(t.tags_json),
    lifecycle: t.lifecycle,
    profile_key: t.profile_key,
    instances: byTechnology.get(t.technology_id) ?? [],
  }));
}
