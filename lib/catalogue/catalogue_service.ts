/**
 * The served catalogue: technologies and profiles read from the source files, plus the
 * additions approved since (technology submissions, scraper candidates, time-series
 * submissions), held in memory as one immutable snapshot.
 *
 * Every change builds a new snapshot and swaps one reference, so a request always sees one
 * consistent catalogue. A reload reads and validates every file first; when any file has a
 * problem nothing is swapped and the previous catalogue keeps being served.
 *
 * Merge rule for additions, applied in approval order: an addition whose technology is not in
 * the catalogue adds the technology (a technology submission carries the whole record); one whose
 * technology exists adds its instances to it, keeping the technology's own fields. An instance
 * whose id the technology already has, a scraper instance whose technology is gone, and a
 * submitted profile whose id a file now uses are skipped and reported (`skipped`): the files win.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { readProfileCatalogue } from "../profiles/catalogue_read.ts";
import type { CatalogueProfile } from "../profiles/profile_schema.ts";
import { readCatalogueDir } from "./catalogue_file.ts";
import {
  type Instance,
  type Lifecycle,
  SPEC_INSTANCE_NUMBER_FIELDS,
  type Technology,
} from "./technology_schema.ts";

/** The spec's instance fields: a null among them is listed in `missing_fields`. */
export const SPEC_INSTANCE_FIELDS = [
  ...SPEC_INSTANCE_NUMBER_FIELDS,
  "reference_source",
] as const satisfies readonly (keyof Instance)[];

/** A spec instance field. */
export type SpecInstanceField = typeof SPEC_INSTANCE_FIELDS[number];

/** An instance as served: its fields plus the spec fields the source lacks. */
export type ServedInstance = Instance & { missing_fields: SpecInstanceField[] };

/** A technology as served (detail): all fields and its instances. */
export type ServedTechnology = Omit<Technology, "instances"> & { instances: ServedInstance[] };

/** A technology in a list: its fields without the instances, and how many it has. */
export type TechnologySummary = Omit<Technology, "instances"> & { instance_count: number };

/** Where a served profile comes from. */
export type ProfileOrigin = "catalogue" | "submission";

/** Profile metadata as served; a member the source lacks is null. */
export interface ServedProfileMetadata {
  profile_id: string;
  name: string;
  type: string | null;
  resolution: string;
  location: string | null;
  carrier: string | null;
  year: number | null;
  n_timesteps: number;
  source: string | null;
  unit: string | null;
  start: string | null;
  end: string | null;
  notes: string[];
  origin: ProfileOrigin;
}

/** A full served profile: the metadata and one value per step. */
export type ServedProfile = ServedProfileMetadata & { values: number[] };

/** Where an approved addition comes from. */
export type AdditionOrigin = "technology_submission" | "scraper_candidate";

/** An approved addition to the technology catalogue, as stored. */
export interface CatalogueAddition {
  /** Approval order. */
  seq: number;
  origin: AdditionOrigin;
  /** The submission or candidate id. */
  origin_id: string;
  technology_id: string;
  /** The whole record (technology submissions); null when only instances are added. */
  technology: Technology | null;
  /** The instances to add to the technology. */
  instances: Instance[];
  added_at: string;
  /** Subject of the admin who approved it. */
  added_by: string;
}

/** One data file's loading status. */
export interface DataFileReport {
  path: string;
  kind: "technologies" | "profiles";
  /** `catalogue`, `legacy`, `profile`, `profile_index`; null when the file is not a JSON object. */
  format: "catalogue" | "legacy" | "profile" | "profile_index" | null;
  /** `metadata.version` of a catalogue-format file. */
  version: string | null;
  technologies: number;
  instances: number;
  profiles: number;
  errors: string[];
}

/** A problem that stops a load: file, JSON path ("" for the whole file) and message. */
export interface LoadProblem {
  file: string;
  path: string;
  message: string;
}

/** An addition (or submitted profile) that was not applied, and why. */
export interface SkippedAddition {
  origin: AdditionOrigin | "timeseries_submission";
  origin_id: string;
  reason: string;
}

/** The validated content of the source files. */
export interface SourceData {
  technologies: Technology[];
  profiles: ServedProfile[];
  files: DataFileReport[];
  /** `metadata.version` values of the catalogue files, distinct and sorted. */
  versions: string[];
  /** SHA-256 (hex) over the normalised content. */
  fingerprint: string;
  /** When the files were read (ISO 8601) and how long reading took, ms. */
  loaded_at: string;
  load_ms: number;
}

/** Outcome of reading the source folders. */
export type SourceRead =
  | { ok: true; data: SourceData }
  | { ok: false; problems: LoadProblem[]; files: DataFileReport[] };

/** Filters of the technology lists. */
export interface TechnologyFilter {
  domain?: string | undefined;
  tag?: string | undefined;
  /** Matches the technology's own stage or any instance's `lifecycle_stage`. */
  lifecycle?: Lifecycle | undefined;
}

/** Filters of the profile list. */
export interface ProfileFilter {
  type?: string | undefined;
  location?: string | undefined;
}

/** One consistent view of the served catalogue. */
export interface CatalogueSnapshot {
  /** `<file versions>+<12 hex digits>`: changes with any file content or approved addition. */
  readonly version: string;
  readonly source: SourceData;
  readonly technologies: readonly ServedTechnology[];
  readonly summaries: readonly TechnologySummary[];
  readonly profiles: readonly ServedProfileMetadata[];
  readonly counts: { technologies: number; instances: number; profiles: number };
  readonly additions: { applied: number; instances_added: number; profiles_added: number };
  readonly skipped: readonly SkippedAddition[];
  technology(id: string): ServedTechnology | undefined;
  profile(id: string): ServedProfile | undefined;
  /** The detail response of a technology as JSON text, made once per snapshot. */
  technologyJson(id: string): string | undefined;
  /** `GET /timeseries/{id}/data` as JSON text, made once per profile. */
  profileDataJson(id: string): string | undefined;
}

/** Outcome of a reload. */
export type ReloadResult =
  | { ok: true; snapshot: CatalogueSnapshot; ms: number }
  | { ok: false; problems: LoadProblem[]; files: DataFileReport[]; ms: number };

/** The served catalogue and the ways it changes. */
export interface CatalogueService {
  /** The snapshot in force. */
  current(): CatalogueSnapshot;
  /** Reads and validates every file; swaps only when all are valid. Reloads run one at a time. */
  reload(): Promise<ReloadResult>;
  /** Applies an approved addition (in memory; the caller has stored it). */
  addAddition(addition: CatalogueAddition): CatalogueSnapshot;
  /** Serves an approved submitted profile (in memory; the caller has stored it). */
  addProfile(profile: ServedProfile): CatalogueSnapshot;
  /** Result of the last reload attempt, for diagnostics; undefined before the first reload. */
  lastReload(): { at: string; ok: boolean; ms: number; problems: LoadProblem[] } | undefined;
}

/** Thrown when the files are invalid at start-up; carries every problem. */
export class CatalogueLoadError extends Error {
  readonly problems: readonly LoadProblem[];

  constructor(problems: readonly LoadProblem[]) {
    const head = problems.slice(0, 20).map(formatLoadProblem).join("\n");
    const more = problems.length > 20 ? `\n... and ${problems.length - 20} more` : "";
    super(
      `Cannot serve the catalogue: ${problems.length} problem(s) in the data files:\n${head}${more}`,
    );
    this.name = "CatalogueLoadError";
    this.problems = problems;
  }
}

/** `file: path: message`, or `file: message` for the whole file. */
export function formatLoadProblem(p: LoadProblem): string {
  return p.path ? `${p.file}: ${p.path}: ${p.message}` : `${p.file}: ${p.message}`;
}

/** The spec instance fields an instance leaves null. */
export function missingFields(instance: Instance): SpecInstanceField[] {
  return SPEC_INSTANCE_FIELDS.filter((field) => instance[field] === null);
}

function serveInstance(instance: Instance): ServedInstance {
  return { ...instance, missing_fields: missingFields(instance) };
}

function serveTechnology(t: Technology): ServedTechnology {
  return { ...t, instances: t.instances.map(serveInstance) };
}

function summarise(t: ServedTechnology): TechnologySummary {
  const { instances, ...fields } = t;
  return { ...fields, instance_count: instances.length };
}

function serveCatalogueProfile(p: CatalogueProfile): ServedProfile {
  return {
    profile_id: p.profile_id,
    name: p.name,
    type: p.type,
    resolution: p.resolution,
    location: p.location,
    carrier: p.carrier,
    year: p.year,
    n_timesteps: p.n_timesteps,
    source: p.source,
    unit: p.unit,
    start: p.start,
    end: p.end,
    notes: p.notes,
    origin: "catalogue",
    values: p.values,
  };
}

/** The metadata of a full profile (without `values`). */
export function profileMetadata(profile: ServedProfile): ServedProfileMetadata {
  const { values: _values, ...metadata } = profile;
  return metadata;
}

/** Problems of the profile reader come as `name: message`; this splits them by file. */
function profileProblem(dir: string, text: string): LoadProblem {
  const at = text.indexOf(": ");
  if (at < 0) return { file: dir, path: "", message: text };
  const rest = text.slice(at + 2);
  const file = join(dir, text.slice(0, at));
  const path = /^[A-Za-z_][\w.[\]]*(?=: )/.exec(rest)?.[0];
  return path
    ? { file, path, message: rest.slice(path.length + 2) }
    : { file, path: "", message: rest };
}

async function readTechnologyFiles(dir: string) {
  const read = await readCatalogueDir(dir);
  const problems: LoadProblem[] = read.problems.map((p) => ({ ...p }));
  const files: DataFileReport[] = read.files.map((f) => ({
    path: f.file,
    kind: "technologies",
    format: f.format,
    version: f.metadata?.version ?? null,
    technologies: f.technologies.length,
    instances: f.technologies.reduce((n, t) => n + t.instances.length, 0),
    profiles: 0,
    errors: problems.filter((p) => p.file === f.file).map(formatLoadProblem),
  }));
  const versions = read.files.flatMap((f) => f.metadata ? [f.metadata.version] : []);
  return { technologies: [...read.technologies], versions, files, problems };
}

async function readProfileFiles(dir: string) {
  const read = await readProfileCatalogue(dir);
  const problems = read.problems.map((text) => profileProblem(dir, text));
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && e.name.endsWith(".json")) names.push(e.name);
  }
  names.sort();
  const loaded = new Set(read.profiles.map((p) => `${p.profile_id}.json`));
  const files: DataFileReport[] = names.map((name) => {
    const path = join(dir, name);
    const isIndex = name === "index.json";
    return {
      path,
      kind: "profiles",
      format: isIndex ? "profile_index" : "profile",
      version: null,
      technologies: 0,
      instances: 0,
      profiles: isIndex ? (read.index?.profiles.length ?? 0) : (loaded.has(name) ? 1 : 0),
      errors: problems.filter((p) => p.file === path).map(formatLoadProblem),
    };
  });
  // Problems that name no file of the folder (e.g. a missing index) go to the folder itself.
  const orphans = problems.filter((p) => !files.some((f) => f.path === p.file));
  if (orphans.length > 0) {
    files.push({
      path: dir,
      kind: "profiles",
      format: null,
      version: null,
      technologies: 0,
      instances: 0,
      profiles: 0,
      errors: orphans.map(formatLoadProblem),
    });
  }
  return { profiles: read.profiles, files, problems };
}

/** Reads and validates both folders: technologies (`*.json` in `catalogueDir`) and profiles. */
export async function readSources(catalogueDir: string, profilesDir: string): Promise<SourceRead> {
  const start = performance.now();
  const at = new Date().toISOString();
  // A folder that cannot be read at all (missing, no permission) is one problem of that folder.
  const folderProblem = (dir: string) => (error: unknown) => ({
    files: [],
    problems: [{
      file: dir,
      path: "",
      message: error instanceof Error ? error.message : String(error),
    }],
  });
  const [technologies, profiles] = await Promise.all([
    readTechnologyFiles(catalogueDir).catch(folderProblem(catalogueDir)),
    readProfileFiles(profilesDir).catch(folderProblem(profilesDir)),
  ]);
  const files = [...technologies.files, ...profiles.files];
  const problems = [...technologies.problems, ...profiles.problems];
  if (problems.length > 0 || !("technologies" in technologies) || !("profiles" in profiles)) {
    return { ok: false, problems, files };
  }

  const techs = technologies.technologies;
  const served = profiles.profiles.map(serveCatalogueProfile);
  const hash = createHash("sha256");
  hash.update(JSON.stringify(techs));
  for (const p of served) {
    hash.update(JSON.stringify(profileMetadata(p)));
    hash.update(new Uint8Array(Float64Array.from(p.values).buffer));
  }
  const versions = [...new Set(technologies.versions)].sort();
  return {
    ok: true,
    data: {
      technologies: techs,
      profiles: served,
      files,
      versions,
      fingerprint: hash.digest("hex"),
      loaded_at: at,
      load_ms: performance.now() - start,
    },
  };
}

/** Adds `incoming` instances to `target` where their ids are new; returns the skipped ids. */
function addInstances(target: ServedTechnology, incoming: readonly Instance[]): string[] {
  const ids = new Set(target.instances.map((i) => i.instance_id));
  const skipped: string[] = [];
  for (const instance of incoming) {
    if (ids.has(instance.instance_id)) skipped.push(instance.instance_id);
    else {
      ids.add(instance.instance_id);
      target.instances.push(serveInstance(instance));
    }
  }
  return skipped;
}

/** JSON text of each profile's data response, kept as long as the profile object lives. */
const profileJsonCache = new WeakMap<ServedProfile, string>();

/** Builds the snapshot of `source` with the additions and submitted profiles applied in order. */
export function buildSnapshot(
  source: SourceData,
  additions: readonly CatalogueAddition[],
  submittedProfiles: readonly ServedProfile[],
): CatalogueSnapshot {
  const technologies = source.technologies.map(serveTechnology);
  const byId = new Map(technologies.map((t) => [t.technology_id, t]));
  const skipped: SkippedAddition[] = [];
  let applied = 0;
  let instancesAdded = 0;
  for (const addition of [...additions].sort((a, b) => a.seq - b.seq)) {
    const existing = byId.get(addition.technology_id);
    const skip = (reason: string) =>
      skipped.push({ origin: addition.origin, origin_id: addition.origin_id, reason });
    if (existing) {
      const before = existing.instances.length;
      const dropped = addInstances(existing, addition.instances);
      instancesAdded += existing.instances.length - before;
      if (dropped.length > 0) {
        skip(
          `technology "${addition.technology_id}" already has instance(s) ${dropped.join(", ")}`,
        );
      }
      if (dropped.length < addition.instances.length) applied++;
    } else if (addition.technology) {
      const added = serveTechnology({ ...addition.technology, instances: addition.instances });
      technologies.push(added);
      byId.set(added.technology_id, added);
      instancesAdded += added.instances.length;
      applied++;
    } else {
      skip(`technology "${addition.technology_id}" is not in the catalogue`);
    }
  }

  const profiles = [...source.profiles];
  const profileById = new Map(profiles.map((p) => [p.profile_id, p]));
  let profilesAdded = 0;
  for (const profile of submittedProfiles) {
    if (profileById.has(profile.profile_id)) {
      skipped.push({
        origin: "timeseries_submission",
        origin_id: profile.profile_id,
        reason: `profile id "${profile.profile_id}" is also in the catalogue files`,
      });
      continue;
    }
    profiles.push(profile);
    profileById.set(profile.profile_id, profile);
    profilesAdded++;
  }

  const versionHash = createHash("sha256").update(source.fingerprint);
  for (const a of additions) versionHash.update(`\n${a.seq}:${a.origin_id}`);
  for (const p of submittedProfiles) versionHash.update(`\nprofile:${p.profile_id}`);
  const version = `${source.versions.join("/") || "0"}+${versionHash.digest("hex").slice(0, 12)}`;

  const technologyJson = new Map<string, string>();
  const metadata = profiles.map(profileMetadata);
  return {
    version,
    source,
    technologies,
    summaries: technologies.map(summarise),
    profiles: metadata,
    counts: {
      technologies: technologies.length,
      instances: technologies.reduce((n, t) => n + t.instances.length, 0),
      profiles: profiles.length,
    },
    additions: { applied, instances_added: instancesAdded, profiles_added: profilesAdded },
    skipped,
    technology: (id) => byId.get(id),
    profile: (id) => profileById.get(id),
    technologyJson(id) {
      let text = technologyJson.get(id);
      if (text === undefined) {
        const technology = byId.get(id);
        if (!technology) return undefined;
        text = JSON.stringify(technology);
        technologyJson.set(id, text);
      }
      return text;
    },
    profileDataJson(id) {
      const profile = profileById.get(id);
      if (!profile) return undefined;
      let text = profileJsonCache.get(profile);
      if (text === undefined) {
        text = JSON.stringify(profile);
        profileJsonCache.set(profile, text);
      }
      return text;
    },
  };
}

/** Technology summaries matching the filter, in catalogue order. */
export function filterTechnologies(
  snapshot: CatalogueSnapshot,
  filter: TechnologyFilter,
): TechnologySummary[] {
  return snapshot.summaries.filter((summary) => {
    if (filter.domain !== undefined && summary.domain !== filter.domain) return false;
    if (filter.tag !== undefined && !summary.tags.includes(filter.tag)) return false;
    if (filter.lifecycle !== undefined && summary.lifecycle !== filter.lifecycle) {
      const technology = snapshot.technology(summary.technology_id);
      return technology?.instances.some((i) => i.lifecycle_stage === filter.lifecycle) ?? false;
    }
    return true;
  });
}

/** Profile metadata matching the filter, in catalogue order. */
export function filterProfiles(
  snapshot: CatalogueSnapshot,
  filter: ProfileFilter,
): ServedProfileMetadata[] {
  return snapshot.profiles.filter((p) =>
    (filter.type === undefined || p.type === filter.type) &&
    (filter.location === undefined || p.location === filter.location)
  );
}

/** Options of createCatalogueService. */
export interface CatalogueServiceOptions {
  /** Folder of the technology files (`*.json` directly in it). */
  catalogueDir: string;
  /** Folder of the profile files and their `index.json`. */
  profilesDir: string;
  /** Additions approved so far, from the state store. */
  additions: readonly CatalogueAddition[];
  /** Approved submitted profiles so far, in approval order. */
  submittedProfiles: readonly ServedProfile[];
  now?: () => Date;
}

/**
 * Reads the files and builds the first snapshot; throws CatalogueLoadError with every problem
 * when a file is invalid (the server does not start on a broken catalogue).
 */
export async function createCatalogueService(
  options: CatalogueServiceOptions,
): Promise<CatalogueService> {
  const now = options.now ?? (() => new Date());
  const first = await readSources(options.catalogueDir, options.profilesDir);
  if (!first.ok) throw new CatalogueLoadError(first.problems);
  let source = first.data;
  const additions = [...options.additions];
  const submitted = [...options.submittedProfiles];
  let snapshot = buildSnapshot(source, additions, submitted);
  let last: ReturnType<CatalogueService["lastReload"]>;
  let reloading: Promise<ReloadResult> | undefined;

  const rebuild = () => snapshot = buildSnapshot(source, additions, submitted);

  const reloadOnce = async (): Promise<ReloadResult> => {
    const start = performance.now();
    const read = await readSources(options.catalogueDir, options.profilesDir);
    const ms = performance.now() - start;
    if (!read.ok) {
      last = { at: now().toISOString(), ok: false, ms, problems: read.problems };
      return { ok: false, problems: read.problems, files: read.files, ms };
    }
    // Built from the additions as they are now, after the await: none approved meanwhile is lost.
    source = read.data;
    rebuild();
    last = { at: now().toISOString(), ok: true, ms, problems: [] };
    return { ok: true, snapshot, ms: performance.now() - start };
  };

  return {
    current: () => snapshot,
    reload() {
      // Reloads run one at a time; a reload asked for during another waits for it, then reads.
      const previous = reloading ?? Promise.resolve(undefined);
      const next = previous.then(reloadOnce, reloadOnce);
      reloading = next;
      void next.finally(() => {
        if (reloading === next) reloading = undefined;
      }).catch(() => undefined);
      return next;
    },
    addAddition(addition) {
      additions.push(addition);
      return rebuild();
    },
    addProfile(profile) {
      submitted.push(profile);
      return rebuild();
    },
    lastReload: () => last,
  };
}
