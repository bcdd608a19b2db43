/**
 * The served catalogue: technologies and profiles read from the source files, plus the
 * additions approved since (technology submissions, scraper candidates, time-series
 * submissions) and the admins' edits and deletes, held in memory as one immutable snapshot
 * (`catalogue_snapshot.ts`). A reload keeps the additions and edits: they apply over the new
 * files.
 *
 * Every change builds a new snapshot and swaps one reference, so a request always sees one
 * consistent catalogue. A reload reads and validates every file first; when any file has a
 * problem nothing is swapped and the previous catalogue keeps being served. The set of files is
 * part of that check: a file that `manifest.json` lists but the folder lacks is a problem, and so
 * is a missing manifest once the catalogue served was loaded with one (`../loading/manifest.ts`).
 */
import { z } from "zod";
import type { CatalogueAddition } from "./catalogue_addition.ts";
import type { CatalogueEdit } from "./catalogue_edit.ts";
import { buildSnapshot, type CatalogueSnapshot } from "./catalogue_snapshot.ts";
import {
  CatalogueLoadError,
  type LoadProblem,
  loadProblemSchema,
} from "../loading/load_problem.ts";
import { type DataFileReport, readSources } from "./read_sources.ts";
import type { ServedProfile } from "./served_profile.ts";

/** Outcome of a reload. */
export type ReloadResult =
  | { ok: true; snapshot: CatalogueSnapshot; ms: number }
  | { ok: false; problems: LoadProblem[]; files: DataFileReport[]; ms: number };

/** The last reload attempt, as diagnostics report it. */
export const reloadAttemptSchema = z.object({
  at: z.string(),
  ok: z.boolean(),
  ms: z.number(),
  problems: z.array(loadProblemSchema),
});

/** The last reload attempt. */
export type ReloadAttempt = z.infer<typeof reloadAttemptSchema>;

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
  /** Applies an admin edit or delete (in memory; the caller has stored it). */
  applyEdit(edit: CatalogueEdit): CatalogueSnapshot;
  /**
   * Stops serving profile `id` (in memory; the caller has stored the removal): its file profile
   * and the submissions approved so far; one approved later is served.
   */
  removeProfile(id: string): CatalogueSnapshot;
  /** Result of the last reload attempt, for diagnostics; undefined before the first reload. */
  lastReload(): ReloadAttempt | undefined;
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
  /** Admin edits and deletes so far, from the state store (none when not given). */
  edits?: readonly CatalogueEdit[];
  /** Ids of file profiles an admin removed (`applyProfileRemovals`); none when not given. */
  hiddenFileProfiles?: readonly string[];
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
  const edits = [...options.edits ?? []];
  const hidden = new Set(options.hiddenFileProfiles ?? []);
  let snapshot = buildSnapshot(source, additions, submitted, edits, hidden);
  let last: ReloadAttempt | undefined;
  let reloading: Promise<ReloadResult> | undefined;

  const rebuild = () => snapshot = buildSnapshot(source, additions, submitted, edits, hidden);

  const reloadOnce = async (): Promise<ReloadResult> => {
    const start = performance.now();
    const read = await readSources(options.catalogueDir, options.profilesDir, {
      requireManifest: source.manifest,
    });
    const ms = performance.now() - start;
    if (!read.ok) {
      last = { at: now().toISOString(), ok: false, ms, problems: read.problems };
      return { ok: false, problems: read.problems, files: read.files, ms };
    }
    // Built from the additions and edits as they are now, after the await: none made meanwhile
    // is lost.
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
    applyEdit(edit) {
      edits.push(edit);
      return rebuild();
    },
    removeProfile(id) {
      hidden.add(id);
      for (let i = submitted.length - 1; i >= 0; i--) {
        if (submitted[i]!.profile_id === id) submitted.splice(i, 1);
      }
      return rebuild();
    },
    lastReload: () => last,
  };
}
