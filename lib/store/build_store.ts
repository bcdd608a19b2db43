/**
 * Builds the DuckDB store from the source data sets when it is missing or stale.
 *
 * Stale means: the SHA-256 fingerprint over the pipeline version and every source file (path
 * relative to its source root, and contents) differs from the one recorded in the store's `meta`
 * table. The build writes a temporary file next to the target and renames it into place, so a
 * failed build never leaves a half-built store and the old store stays as it was.
 *
 * The store runs the steps it is handed and knows no data set: the repository's list is
 * `defaultSteps()` in `lib/data_sets.ts`. The server calls ensureStore() on start;
 * `pipelines/build_store.ts` is the CLI over it.
 */
import { createHash } from "node:crypto";
import { basename, dirname, join, relative } from "node:path";
import type { BuildStep } from "./build_step.ts";
import { readMeta, writeMeta } from "./meta.ts";
import { openStore } from "./store.ts";

/** Bump when the store layout or a loader changes, so existing stores are rebuilt. */
export const PIPELINE_VERSION = "2";

/** `meta` key of the source fingerprint. */
export const FINGERPRINT_KEY = "source_fingerprint";

async function filesBelow(path: string): Promise<string[]> {
  const info = await Deno.stat(path);
  if (info.isFile) return [path];
  const files: string[] = [];
  for await (const e of Deno.readDir(path)) files.push(...await filesBelow(join(path, e.name)));
  return files;
}

/** SHA-256 (hex) over the pipeline version, step names and every source file's path and bytes. */
export async function fingerprint(steps: readonly BuildStep[]): Promise<string> {
  const hash = createHash("sha256");
  hash.update(`pipeline ${PIPELINE_VERSION}\n`);
  for (const step of steps) {
    hash.update(`step ${step.name}\n`);
    for (const source of step.sources) {
      for (const file of (await filesBelow(source)).sort()) {
        const name = relative(source, file) || basename(file);
        const bytes = await Deno.readFile(file);
        hash.update(`file ${name} ${bytes.length}\n`);
        hash.update(bytes);
      }
    }
  }
  return hash.digest("hex");
}

/** The fingerprint recorded in the store at `path`, or undefined if there is no usable store. */
async function recordedFingerprint(path: string): Promise<string | undefined> {
  try {
    await Deno.stat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  try {
    const store = await openStore(path, { readOnly: true });
    try {
      return await readMeta(store, FINGERPRINT_KEY);
    } finally {
      await store.close();
    }
  } catch {
    // An unreadable or foreign file is rebuilt like a missing one.
    return undefined;
  }
}

async function removeIfPresent(path: string): Promise<void> {
  try {
    await Deno.remove(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/** Options of ensureStore. */
export interface EnsureOptions {
  /** Rebuild even when the fingerprint matches. */
  readonly force?: boolean;
  /** Data sets to build, in order (the repository's: `defaultSteps()` in lib/data_sets.ts). */
  readonly steps: readonly BuildStep[];
}

/** Result of ensureStore: whether it built, how long it took (ms) and the fingerprint. */
export interface EnsureResult {
  readonly built: boolean;
  readonly ms: number;
  readonly fingerprint: string;
}

/** Builds the store at `path` when it is missing, stale or `force` is set; else leaves it. */
export async function ensureStore(
  path: string,
  options: EnsureOptions,
): Promise<EnsureResult> {
  const start = performance.now();
  const steps = options.steps;
  const print = await fingerprint(steps);
  if (!options.force && await recordedFingerprint(path) === print) {
    return { built: false, ms: performance.now() - start, fingerprint: print };
  }
  await Deno.mkdir(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${basename(path)}.${Deno.pid}.${crypto.randomUUID()}.tmp`);
  try {
    const store = await openStore(temp);
    try {
      for (const step of steps) await step.load(store);
      await writeMeta(store, FINGERPRINT_KEY, print);
      await writeMeta(store, "pipeline_version", PIPELINE_VERSION);
      await writeMeta(store, "built_at", new Date().toISOString());
    } finally {
      await store.close();
    }
    // A write-ahead log left by an earlier store would be replayed onto the new file.
    await removeIfPresent(`${path}.wal`);
    await Deno.rename(temp, path);
  } finally {
    await removeIfPresent(temp);
    await removeIfPresent(`${temp}.wal`);
  }
  return { built: true, ms: performance.now() - start, fingerprint: print };
}
