/**
 * Reads a profile catalogue folder (`catalogues/profiles/`) and checks it whole: every file
 * against the profile schema, the index against the index schema, and the two against each
 * other (every index entry has its file with the same metadata, every file has an entry, no
 * unpublished series has a file). Problems come back all at once, each naming file and path.
 */
import { METADATA_KEYS } from "./profile_json.ts";
import {
  type CatalogueProfile,
  catalogueProfileSchema,
  describeProfileIssues,
  type ProfileIndex,
  profileIndexSchema,
} from "./profile_schema.ts";

/** The valid profiles of a folder, its index when valid, and every problem found. */
export interface CatalogueRead {
  index: ProfileIndex | null;
  profiles: CatalogueProfile[];
  problems: string[];
}

/** The index file's name inside the folder. */
export const INDEX_FILE = "index.json";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

async function readJson(dir: string, file: string, problems: string[]): Promise<unknown> {
  let text: string;
  try {
    text = await Deno.readTextFile(`${dir}/${file}`);
  } catch (e) {
    problems.push(`${file}: cannot be read: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    problems.push(`${file}: not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}

/** Index entries that are objects with a string id, with their position. */
function indexEntries(index: unknown): { at: number; id: string; entry: Json }[] {
  const list = isObject(index) && Array.isArray(index["profiles"]) ? index["profiles"] : [];
  return list.flatMap((entry, at) =>
    isObject(entry) && typeof entry["profile_id"] === "string"
      ? [{ at, id: entry["profile_id"], entry }]
      : []
  );
}

function unpublishedIds(index: unknown): string[] {
  const list = isObject(index) && Array.isArray(index["not_published"])
    ? index["not_published"]
    : [];
  return list.flatMap((u) =>
    isObject(u) && typeof u["profile_id"] === "string" ? [u.profile_id] : []
  );
}

/** Index against files; `files` maps every file name to its JSON (undefined when unreadable). */
function checkConsistency(index: unknown, files: ReadonlyMap<string, unknown>): string[] {
  const problems: string[] = [];
  const listed = new Set<string>();
  for (const { at, id, entry } of indexEntries(index)) {
    const where = `${INDEX_FILE}: profiles[${at}] (${id})`;
    if (listed.has(id)) problems.push(`${where}: listed more than once`);
    listed.add(id);
    const file = `${id}.json`;
    if (!files.has(file)) {
      problems.push(`${where}: no file ${file}`);
      continue;
    }
    const content = files.get(file);
    // A file that is not a JSON object has its own problem already.
    if (!isObject(content)) continue;
    for (const key of METADATA_KEYS) {
      const a = JSON.stringify(entry[key]);
      const b = JSON.stringify(content[key]);
      if (a !== b) problems.push(`${where}.${key}: ${a} in the index, ${b} in ${file}`);
    }
  }
  for (const file of files.keys()) {
    if (!listed.has(file.slice(0, -".json".length))) {
      problems.push(`${file}: not listed in ${INDEX_FILE}`);
    }
  }
  for (const id of unpublishedIds(index)) {
    if (listed.has(id)) problems.push(`${INDEX_FILE}: ${id} is both listed and not published`);
    if (files.has(`${id}.json`)) problems.push(`${id}.json: its series is listed as not published`);
  }
  return problems;
}

/** Reads and checks the catalogue in `dir`; never throws for bad content, only lists it. */
export async function readProfileCatalogue(dir: string): Promise<CatalogueRead> {
  const problems: string[] = [];
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && entry.name.endsWith(".json") && entry.name !== INDEX_FILE) {
      names.push(entry.name);
    }
  }
  names.sort();

  const rawIndex = await readJson(dir, INDEX_FILE, problems);
  let index: ProfileIndex | null = null;
  if (rawIndex !== undefined) {
    const parsed = profileIndexSchema.safeParse(rawIndex);
    if (parsed.success) index = parsed.data;
    else {
      problems.push(
        ...describeProfileIssues(parsed.error.issues).map((m) => `${INDEX_FILE}: ${m}`),
      );
    }
  }

  const files = new Map<string, unknown>();
  const profiles: CatalogueProfile[] = [];
  for (const name of names) {
    const raw = await readJson(dir, name, problems);
    files.set(name, raw);
    if (raw === undefined) continue;
    const parsed = catalogueProfileSchema.safeParse(raw);
    if (!parsed.success) {
      problems.push(...describeProfileIssues(parsed.error.issues).map((m) => `${name}: ${m}`));
      continue;
    }
    const stem = name.slice(0, -".json".length);
    if (parsed.data.profile_id !== stem) {
      problems.push(
        `${name}: profile_id: "${parsed.data.profile_id}" does not match the file name`,
      );
      continue;
    }
    profiles.push(parsed.data);
  }
  problems.push(...checkConsistency(rawIndex, files));
  return { index, profiles, problems };
}
