/**
 * Reads the catalogue's source folders whole: the technology files (`*.json` of the catalogue
 * folder) and the profile files with their index, and checks that every file the folder's
 * `manifest.json` lists is there. Every file is validated; every problem comes back at once, by
 * file and JSON path, with a loading report per file.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { z } from "zod";
import { readProfileCatalogue } from "../../profiles/catalogue_read.ts";
import { readCatalogueDir } from "../loading/catalogue_file.ts";
import type { FuelRecord } from "../schema/fuel_schema.ts";
import { formatLoadProblem, type LoadProblem } from "../loading/load_problem.ts";
import { checkManifest } from "../loading/manifest.ts";
import { profileMetadata, serveCatalogueProfile, type ServedProfile } from "./served_profile.ts";
import type { Technology } from "../schema/technology_schema.ts";

/** One data file's loading status. */
export const dataFileReportSchema = z.object({
  path: z.string(),
  kind: z.enum(["technologies", "profiles"]),
  format: z.enum(["catalogue", "legacy", "profile", "profile_index"]).nullable().describe(
    "Format detected; null when the file is not a JSON object",
  ),
  version: z.string().nullable().describe("metadata.version of a catalogue-format file"),
  technologies: z.number().int(),
  instances: z.number().int(),
  profiles: z.number().int(),
  errors: z.array(z.string()).describe("`file: path: message`, one per problem"),
});

/** One data file's loading status. */
export type DataFileReport = z.infer<typeof dataFileReportSchema>;

/** The validated content of the source files. */
export interface SourceData {
  technologies: Technology[];
  /** Fuel records of the catalogue files (`fuels`), in file order. */
  fuels: FuelRecord[];
  profiles: ServedProfile[];
  files: DataFileReport[];
  /** `metadata.version` values of the catalogue files, distinct and sorted. */
  versions: string[];
  /** Whether the catalogue folder has a `manifest.json` (whose files were all there). */
  manifest: boolean;
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
  const fuels = read.files.flatMap((f) => f.fuels);
  return { technologies: [...read.technologies], fuels, versions, files, problems };
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

/** Options of readSources. */
export interface ReadSourcesOptions {
  /**
   * A missing `manifest.json` is a problem (a reload of a catalogue that was loaded with one);
   * otherwise a folder without a manifest is read without that check.
   */
  requireManifest?: boolean;
}

/**
 * Reads and validates both folders: technologies (`*.json` in `catalogueDir`) and profiles, and
 * checks the manifest: a file it lists that is missing is a problem naming that file.
 */
export async function readSources(
  catalogueDir: string,
  profilesDir: string,
  options: ReadSourcesOptions = {},
): Promise<SourceRead> {
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
  const required = options.requireManifest === true;
  const [technologies, profiles, manifest] = await Promise.all([
    readTechnologyFiles(catalogueDir).catch(folderProblem(catalogueDir)),
    readProfileFiles(profilesDir).catch(folderProblem(profilesDir)),
    checkManifest(catalogueDir, profilesDir, { required }).catch((error: unknown) => ({
      present: required,
      ...folderProblem(catalogueDir)(error),
      missing: [],
    })),
  ]);
  // A listed file that is missing has no report of its own yet: it gets one with its problem.
  const missingFiles: DataFileReport[] = manifest.missing
    .filter(({ path }) => ![...technologies.files, ...profiles.files].some((f) => f.path === path))
    .map(({ path, kind }) => ({
      path,
      kind,
      format: null,
      version: null,
      technologies: 0,
      instances: 0,
      profiles: 0,
      errors: manifest.problems.filter((p) => p.file === path).map(formatLoadProblem),
    }));
  const files = [...technologies.files, ...profiles.files, ...missingFiles];
  const problems = [...technologies.problems, ...profiles.problems, ...manifest.problems];
  if (problems.length > 0 || !("technologies" in technologies) || !("profiles" in profiles)) {
    return { ok: false, problems, files };
  }

  const techs = technologies.technologies;
  const served = profiles.profiles.map(serveCatalogueProfile);
  const hash = createHash("sha256");
  hash.update(JSON.stringify(techs));
  hash.update(JSON.stringify(technologies.fuels));
  for (const p of served) {
    hash.update(JSON.stringify(profileMetadata(p)));
    hash.update(new Uint8Array(Float64Array.from(p.values).buffer));
  }
  const versions = [...new Set(technologies.versions)].sort();
  return {
    ok: true,
    data: {
      technologies: techs,
      fuels: technologies.fuels,
      profiles: served,
      files,
      versions,
      manifest: manifest.present,
      fingerprint: hash.digest("hex"),
      loaded_at: at,
      load_ms: performance.now() - start,
    },
  };
}
