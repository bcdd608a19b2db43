/**
 * Region downloads in the background, as jobs of the job engine (`lib/jobs/`): fetch a Geofabrik extract to a temporary file with byte
 * progress, verify it against the `.md5` the server offers, import it into the store, and keep
 * each download's status and event history so that any number of clients can follow it, late
 * ones first getting everything they missed. A download goes on when its caller goes away; a
 * second start for a region that is already on its way attaches to the running download.
 * Imports run one at a time: they share the store's one writer.
 *
 * Bounds: at most `maxRunning` downloads at once (a further start is refused with
 * DownloadsBusyError), at most `maxBytes` per extract (by Content-Length and by counting),
 * a deadline for the server's answer and one for a body that stops flowing. A failed download
 * removes its temporary file; a new manager removes the ones a killed process left behind.
 *
 * Beside it: download_record.ts (one download's state and frames), fetch_extract.ts (the
 * transfer), extract_checksum.ts (the `.md5` check), fetch_with_deadlines.ts (the deadlines).
 */
import { JobQueue } from "../../jobs/job_queue.ts";
import { JobRefusedError } from "../../jobs/job_engine.ts";
import type { Store } from "../../store/store.ts";
import {
  Download,
  DownloadError,
  type DownloadFrame,
  finalFrame,
  isFinalFrame,
  type RegionDownload,
  STOPPED_MESSAGE,
} from "./download_record.ts";
import { verifyChecksum } from "./extract_checksum.ts";
import { fetchExtract } from "./fetch_extract.ts";
import { importOsmExtract, type ImportResult } from "../import_region.ts";
import { DownloadRows, storedDownload } from "./download_rows.ts";
import type { Region } from "../regions_db.ts";

export { STOPPED_MESSAGE } from "./download_record.ts";
export type {
  DownloadFrame,
  DownloadStatus,
  DownloadView,
  RegionDownload,
} from "./download_record.ts";

/** What a download manager is built with. */
export interface RegionDownloadOptions {
  /** The OSM store the extracts are imported into. */
  readonly store: Store;
  /** Reaches the download server (tests: a local fake). */
  readonly fetch: typeof fetch;
  /** Where the temporary extract files go (each removed when its download ends). */
  readonly downloadDir: string;
  /** Called after an import has committed, with the region path. */
  readonly onImported?: (regionPath: string) => void;
  /** The service's stop: running downloads fail with it. */
  readonly signal?: AbortSignal;
  /** Service log lines (one per download start and end). */
  readonly log?: (message: string) => void;
  /** How long a finished download stays readable, ms (default one hour). */
  readonly keepFinishedMs?: number;
  /** Most finished downloads kept, the oldest dropped first (default 100). */
  readonly maxFinished?: number;
  /** Least time between two progress frames, ms (default 250: about four a second). */
  readonly progressIntervalMs?: number;
  /** Most downloads queued or running at once (OSM_DOWNLOADS_MAX, default 2). */
  readonly maxRunning?: number;
  /** Largest extract, bytes (OSM_DOWNLOAD_MAX_MB, default 8 GiB). */
  readonly maxBytes?: number;
  /** Longest wait for the server's answer (status and headers), ms (default 30 s). */
  readonly firstByteTimeoutMs?: number;
  /** Longest pause in a body, ms (default 60 s). */
  readonly stallTimeoutMs?: number;
}

/** The downloads of a service. */
export interface RegionDownloads {
  /**
   * Starts downloading `region`, or attaches to its download that is queued or running:
   * `attached` says which. Throws DownloadsBusyError when a new download would be one more
   * than `maxRunning`.
   */
  start(region: Region): { download: RegionDownload; attached: boolean };
  /** The download with this id, while it runs and for a while after (see keepFinishedMs). */
  get(id: string): RegionDownload | undefined;
  /**
   * Fails the downloads a stopped process left unfinished (`interrupted by restart`) and makes
   * the ones it finished within keepFinishedMs readable again; answers how many were failed.
   */
  restore(): Promise<number>;
  /** Fails the running downloads (as the stop signal does) and waits until they have ended. */
  close(): Promise<void>;
}

/** Default time a finished download stays readable, ms. */
export const KEEP_FINISHED_MS = 60 * 60 * 1000;

/** Default number of finished downloads kept. */
export const MAX_FINISHED = 100;

/** Default number of downloads at once. */
export const MAX_RUNNING = 2;

/** Default largest extract, bytes: every country's extract fits, no continent's does. */
export const MAX_DOWNLOAD_BYTES = 8 * 1024 * 1024 * 1024;

/** Default deadline for the server's answer, ms. */
export const FIRST_BYTE_TIMEOUT_MS = 30_000;

/** Default deadline for a body that has stopped, ms. */
export const STALL_TIMEOUT_MS = 60_000;

/** The error of a download a stopped process left unfinished. */
export const INTERRUPTED_BY_RESTART = "interrupted by restart";

/** A start refused because `maxRunning` downloads are queued or running. */
export class DownloadsBusyError extends Error {
  constructor(readonly running: number, readonly max: number) {
    super(
      `${running} download(s) are running, at most ${max} at once (OSM_DOWNLOADS_MAX); ` +
        "try again when one has ended",
    );
    this.name = "DownloadsBusyError";
  }
}

/** Names of the temporary extract files (see removeLeftovers). */
const TEMP_PREFIX = "region-";
const TEMP_SUFFIX = ".osm.pbf";

/**
 * Removes the temporary extract files in `dir` that a previous process left (killed while it
 * downloaded); other files stay. Returns the names removed.
 */
export function removeLeftovers(dir: string): string[] {
  const removed: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return removed;
    throw error;
  }
  for (const entry of entries) {
    if (!entry.isFile || !entry.name.startsWith(TEMP_PREFIX)) continue;
    if (!entry.name.endsWith(TEMP_SUFFIX)) continue;
    try {
      Deno.removeSync(`${dir}/${entry.name}`);
      removed.push(entry.name);
    } catch {
      // Gone meanwhile, or not ours to remove: nothing to clean.
    }
  }
  return removed;
}

/** A download manager over `options.store`; see RegionDownloads. */
export function createRegionDownloads(options: RegionDownloadOptions): RegionDownloads {
  const keepMs = options.keepFinishedMs ?? KEEP_FINISHED_MS;
  const maxFinished = options.maxFinished ?? MAX_FINISHED;
  const maxRunning = options.maxRunning ?? MAX_RUNNING;
  const serviceLog = options.log ?? (() => {});
  const leftovers = removeLeftovers(options.downloadDir);
  if (leftovers.length > 0) {
    serviceLog(`removed ${leftovers.length} unfinished download(s) left by an earlier run`);
  }
  const downloads = new Map<string, Download>();
  const running = new Map<string, Download>(); // by region path, lower case
  const stop = new AbortController();
  const onStop = () => stop.abort();
  options.signal?.addEventListener("abort", onStop, { once: true });
  if (options.signal?.aborted) stop.abort();
  // What the extract's and the checksum's transfers are made with; the stop fails them.
  const transfer = {
    fetch: options.fetch,
    stop: stop.signal,
    firstByteMs: options.firstByteTimeoutMs ?? FIRST_BYTE_TIMEOUT_MS,
    stallMs: options.stallTimeoutMs ?? STALL_TIMEOUT_MS,
    maxBytes: options.maxBytes ?? MAX_DOWNLOAD_BYTES,
    progressIntervalMs: options.progressIntervalMs ?? 250,
  };
  // Imports wait on this chain: one at a time on the store's writer.
  let importTail: Promise<unknown> = Promise.resolve();

  const runImport = <T>(task: () => Promise<T>): Promise<T> => {
    const result = importTail.then(task);
    importTail = result.catch(() => {});
    return result;
  };

  const execute = async (d: Download): Promise<ImportResult> => {
    const signal = stop.signal;
    let file: string | undefined;
    try {
      file = await Deno.makeTempFile({
        dir: options.downloadDir,
        prefix: TEMP_PREFIX,
        suffix: TEMP_SUFFIX,
      });
      const md5 = await fetchExtract(d, file, transfer);
      await verifyChecksum(d, md5, transfer);
      if (signal.aborted) throw new DownloadError(STOPPED_MESSAGE);
      const result = await runImport(async () => {
        if (signal.aborted) throw new DownloadError(STOPPED_MESSAGE);
        d.stage = "importing";
        d.emit({ type: "log", message: `importing ${d.region.path}` });
        return await importOsmExtract(options.store, file!, {
          regionPath: d.region.path,
          sourceUrl: d.region.url,
          log: (message) => d.emit({ type: "log", message }),
        });
      });
      options.onImported?.(d.region.path);
      return result;
    } catch (error) {
      throw new DownloadError(
        signal.aborted
          ? STOPPED_MESSAGE
          : error instanceof DownloadError
          ? error.message
          : `Import of ${d.region.path} failed: ${(error as Error)?.message ?? String(error)}`,
      );
    } finally {
      if (file !== undefined) await Deno.remove(file).catch(() => {});
    }
  };

  // Every download is written to the OSM store; an earlier process's are read back by restore().
  const rows = new DownloadRows(options.store, (id) => downloads.get(id), serviceLog);
  const restored = new Map<string, RegionDownload>();
  const engine = new JobQueue<Region, ImportResult, DownloadFrame>({
    store: rows,
    restartRule: { state: "failed", error: INTERRUPTED_BY_RESTART },
    work: (_region, context) => execute(downloads.get(context.id)!),
    events: { isFinal: isFinalFrame },
    maxRunning,
    // Beyond `maxRunning` a start is refused, never queued.
    maxQueued: 0,
    ttlMs: keepMs,
    maxFinished,
    finalEvent: (job) =>
      finalFrame(
        downloads.get(job.id)!.region.path,
        job.state === "succeeded" ? job.result : undefined,
        job.error,
      ),
    onFinished: (job) => {
      const d = downloads.get(job.id)!;
      const key = d.region.path.toLowerCase();
      if (running.get(key) === d) running.delete(key);
      serviceLog(`download ${d.id}: ${d.status}${d.error ? `: ${d.error}` : ""}`);
    },
    onForgotten: (job) => downloads.delete(job.id),
  });

  return {
    start(region) {
      engine.prune();
      const key = region.path.toLowerCase();
      const current = running.get(key);
      if (current && current.finishedAt === null) return { download: current, attached: true };
      let d: Download | undefined;
      try {
        // The work looks its download up by id: it is registered before the work begins.
        const job = engine.submit(region, (job) => {
          d = new Download(job, region);
          downloads.set(job.id, d);
          running.set(key, d);
          serviceLog(`download ${job.id}: ${region.path} from ${region.url}`);
          d.emit({ type: "log", message: `queued ${region.path}` });
        });
        d ??= downloads.get(job.id)!;
      } catch (error) {
        if (error instanceof JobRefusedError && error.reason === "closed") {
          throw new DownloadError(STOPPED_MESSAGE);
        }
        if (error instanceof JobRefusedError) {
          throw new DownloadsBusyError(engine.active, maxRunning);
        }
        throw error;
      }
      return { download: d, attached: false };
    },
    get(id) {
      engine.prune();
      const live = downloads.get(id);
      if (live) return live;
      const old = restored.get(id);
      const finished = old ? Date.parse(old.view().finished_at ?? "") : NaN;
      if (old && !(Date.now() - finished < keepMs)) restored.delete(id);
      return restored.get(id);
    },
    async restore() {
      const interrupted = await engine.recover();
      for (const row of await rows.kept(keepMs, maxFinished)) {
        restored.set(row.view.id, storedDownload(row));
      }
      if (interrupted > 0) {
        serviceLog(`${interrupted} download(s) left unfinished by an earlier run: failed`);
      }
      return interrupted;
    },
    async close() {
      stop.abort();
      options.signal?.removeEventListener("abort", onStop);
      await engine.close({ running: "finish" });
      await rows.flush();
    },
  };
}
