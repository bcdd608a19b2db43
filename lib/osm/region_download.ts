/**
 * Region downloads in the background: fetch a Geofabrik extract to a temporary file with byte
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
 */
import { createHash } from "node:crypto";
import type { Store } from "../store/store.ts";
import { importOsmExtract } from "./import_region.ts";
import type { Region } from "./regions_db.ts";

/** Where a download is. */
export type DownloadStatus = "queued" | "downloading" | "importing" | "completed" | "failed";

/**
 * One event of a download, as the existing frontend reads it (`{type, message}`); progress
 * frames add `bytes`, `total_bytes` and `percent`, the done frame the region and its counts.
 */
export interface DownloadFrame {
  readonly type: "log" | "progress" | "done" | "error";
  readonly message: string;
  readonly [extra: string]: unknown;
}

/** A download's state, as `GET /api/osm/download/{id}` answers it. */
export interface DownloadView {
  id: string;
  /** Region path, e.g. "Europe/Liechtenstein". */
  region: string;
  status: DownloadStatus;
  /** Bytes received so far. */
  bytes: number;
  /** The extract's size from Content-Length; null when the server did not say. */
  total_bytes: number | null;
  /** Why it failed; absent unless status is failed. */
  error?: string;
  /** ISO 8601 UTC. */
  started_at: string;
  /** ISO 8601 UTC; null while it runs. */
  finished_at: string | null;
}

/** One download: its state, its events, and when it ends. */
export interface RegionDownload {
  readonly id: string;
  readonly region: Region;
  /** A snapshot of the state. */
  view(): DownloadView;
  /** Every frame so far, in order. */
  history(): readonly DownloadFrame[];
  /**
   * Calls `listener` with every frame so far (synchronously), then with each new one until the
   * final done or error frame; returns the unsubscribe function.
   */
  subscribe(listener: (frame: DownloadFrame) => void): () => void;
  /** Resolves when the download has completed or failed (never rejects). */
  readonly finished: Promise<void>;
}

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

/** The error of a download ended by the service's stop. */
export const STOPPED_MESSAGE = "The service is stopping; the download was abandoned";

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

const MB = 1024 * 1024;

function megabytes(bytes: number): string {
  return (bytes / MB).toFixed(1);
}

function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

/** A failure whose message is already the frame's message. */
class DownloadError extends Error {}

/**
 * A deadline that can be re-armed: its signal aborts with a DownloadError carrying the
 * message of the deadline that passed.
 */
class Deadline {
  readonly #controller = new AbortController();
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly signal = this.#controller.signal;

  arm(ms: number, message: () => string): void {
    this.clear();
    this.#timer = setTimeout(() => this.#controller.abort(new DownloadError(message())), ms);
  }

  clear(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** The DownloadError of the deadline that passed, or undefined. */
  get passed(): DownloadError | undefined {
    return this.signal.aborted ? this.signal.reason as DownloadError : undefined;
  }
}

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

/** A small text body (a checksum file), read to at most `max` bytes. */
async function smallText(response: Response, max: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(bytes.subarray(0, max));
}

/** The hash of a Geofabrik `.md5` file (`<hash>  <filename>`); throws a SyntaxError otherwise. */
export function parseMd5File(text: string): string {
  const hash = text.trim().split(/\s+/)[0] ?? "";
  if (!/^[0-9a-f]{32}$/i.test(hash)) {
    throw new SyntaxError(`Checksum file does not start with an MD5 hash: ${text.slice(0, 80)}`);
  }
  return hash.toLowerCase();
}

/** A download manager over `options.store`; see RegionDownloads. */
export function createRegionDownloads(options: RegionDownloadOptions): RegionDownloads {
  const keepMs = options.keepFinishedMs ?? KEEP_FINISHED_MS;
  const maxFinished = options.maxFinished ?? MAX_FINISHED;
  const intervalMs = options.progressIntervalMs ?? 250;
  const maxRunning = options.maxRunning ?? MAX_RUNNING;
  const maxBytes = options.maxBytes ?? MAX_DOWNLOAD_BYTES;
  const firstByteMs = options.firstByteTimeoutMs ?? FIRST_BYTE_TIMEOUT_MS;
  const stallMs = options.stallTimeoutMs ?? STALL_TIMEOUT_MS;
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
  // Imports wait on this chain: one at a time on the store's writer.
  let importTail: Promise<unknown> = Promise.resolve();

  const prune = () => {
    const now = Date.now();
    const finished = [...downloads.values()].filter((d) => d.finishedAt !== null);
    const excess = finished.length - maxFinished;
    finished.forEach((d, i) => {
      if (i < excess || now - d.finishedAt! > keepMs) downloads.delete(d.id);
    });
  };

  const runImport = <T>(task: () => Promise<T>): Promise<T> => {
    const result = importTail.then(task);
    importTail = result.catch(() => {});
    return result;
  };

  const execute = async (d: Download) => {
    const signal = stop.signal;
    let file: string | undefined;
    try {
      file = await Deno.makeTempFile({
        dir: options.downloadDir,
        prefix: TEMP_PREFIX,
        suffix: TEMP_SUFFIX,
      });
      const md5 = await fetchExtract(d, file, signal);
      await verifyChecksum(d, md5, signal);
      if (signal.aborted) throw new DownloadError(STOPPED_MESSAGE);
      const result = await runImport(async () => {
        if (signal.aborted) throw new DownloadError(STOPPED_MESSAGE);
        d.status = "importing";
        d.emit({ type: "log", message: `importing ${d.region.path}` });
        return await importOsmExtract(options.store, file!, {
          regionPath: d.region.path,
          sourceUrl: d.region.url,
          log: (message) => d.emit({ type: "log", message }),
        });
      });
      options.onImported?.(d.region.path);
      d.status = "completed";
      d.finish({
        type: "done",
        message: `Imported ${d.region.path} in ${result.seconds.toFixed(1)} s: ` +
          Object.entries(result.counts).map(([layer, n]) => `${n} ${layer}`).join(", "),
        region: d.region.path,
        counts: result.counts,
      });
    } catch (error) {
      const message = signal.aborted
        ? STOPPED_MESSAGE
        : error instanceof DownloadError
        ? error.message
        : `Import of ${d.region.path} failed: ${(error as Error)?.message ?? String(error)}`;
      d.status = "failed";
      d.error = message;
      d.finish({ type: "error", message });
    } finally {
      if (file !== undefined) await Deno.remove(file).catch(() => {});
    }
  };

  /** Streams the extract into `file`; returns its MD5 (hex), computed on the way. */
  const fetchExtract = async (d: Download, file: string, stopSignal: AbortSignal) => {
    const url = d.region.url;
    d.status = "downloading";
    d.emit({ type: "log", message: `downloading ${url}` });
    const deadline = new Deadline();
    const signal = AbortSignal.any([stopSignal, deadline.signal]);
    // A deadline that passed names itself; the stop is rethrown as it is.
    const failure = (error: unknown, message: string) => {
      if (stopSignal.aborted) return error;
      return deadline.passed ?? new DownloadError(`${message}: ${(error as Error)?.message}`);
    };
    try {
      deadline.arm(
        firstByteMs,
        () => `No answer from ${url} within ${seconds(firstByteMs)} s (OSM_DOWNLOAD_FIRST_BYTE_S)`,
      );
      let response: Response;
      try {
        response = await options.fetch(url, { signal });
      } catch (error) {
        throw failure(error, `Cannot reach ${url}`);
      }
      if (!response.ok || response.body === null) {
        await response.body?.cancel().catch(() => {});
        throw new DownloadError(`Download of ${url} failed: HTTP ${response.status}`);
      }
      const length = Number(response.headers.get("content-length"));
      d.totalBytes = response.headers.has("content-length") && Number.isSafeInteger(length)
        ? length
        : null;
      const tooLarge = (what: string) =>
        new DownloadError(
          `Download of ${url} ${what}, over the limit of ${megabytes(maxBytes)} MB ` +
            "(OSM_DOWNLOAD_MAX_MB)",
        );
      if (d.totalBytes !== null && d.totalBytes > maxBytes) {
        await response.body.cancel().catch(() => {});
        throw tooLarge(`is ${megabytes(d.totalBytes)} MB`);
      }
      d.emit({
        type: "log",
        message: d.totalBytes === null
          ? "size unknown (no Content-Length)"
          : `size ${megabytes(d.totalBytes)} MB`,
      });
      const hash = createHash("md5");
      const out = await Deno.open(file, { write: true, truncate: true });
      let lastAt = 0, lastStep = -1;
      const progress = (force: boolean) => {
        const total = d.totalBytes;
        const step = total ? Math.floor((d.bytes / total) * 20) : -1; // 5 % steps
        const now = performance.now();
        if (!force && now - lastAt < intervalMs && step === lastStep) return;
        lastAt = now;
        lastStep = step;
        const percent = total ? Math.round((d.bytes / total) * 1000) / 10 : null;
        d.emit({
          type: "progress",
          message: `${megabytes(d.bytes)}` +
            (total ? ` of ${megabytes(total)} MB (${percent} %)` : " MB"),
          bytes: d.bytes,
          total_bytes: total,
          percent,
        });
      };
      const stalled = () =>
        `Download of ${url} stalled: no data for ${seconds(stallMs)} s after ${d.bytes} bytes ` +
        "(OSM_DOWNLOAD_STALL_S)";
      const reader = response.body.getReader();
      try {
        for (;;) {
          deadline.arm(stallMs, stalled);
          const { done, value: chunk } = await reader.read();
          if (done) break;
          d.bytes += chunk.length;
          if (d.bytes > maxBytes) throw tooLarge(`passed ${megabytes(maxBytes)} MB`);
          hash.update(chunk);
          let written = 0;
          while (written < chunk.length) written += await out.write(chunk.subarray(written));
          progress(false);
        }
      } catch (error) {
        if (error instanceof DownloadError) throw error;
        throw failure(error, `Download of ${url} broke off after ${d.bytes} bytes`);
      } finally {
        out.close();
        await reader.cancel().catch(() => {});
      }
      if (d.totalBytes !== null && d.bytes < d.totalBytes) {
        throw new DownloadError(
          `Download of ${url} broke off: ${d.bytes} of ${d.totalBytes} bytes received`,
        );
      }
      progress(true);
      return hash.digest("hex");
    } finally {
      deadline.clear();
    }
  };

  const verifyChecksum = async (d: Download, md5: string, stopSignal: AbortSignal) => {
    const url = `${d.region.url}.md5`;
    const deadline = new Deadline();
    const signal = AbortSignal.any([stopSignal, deadline.signal]);
    const failure = (error: unknown) => {
      if (stopSignal.aborted) return error;
      return deadline.passed ??
        new DownloadError(`Cannot fetch the checksum ${url}: ${(error as Error)?.message}`);
    };
    let text: string;
    try {
      deadline.arm(
        firstByteMs,
        () => `No answer from ${url} within ${seconds(firstByteMs)} s (OSM_DOWNLOAD_FIRST_BYTE_S)`,
      );
      let response: Response;
      try {
        response = await options.fetch(url, { signal });
      } catch (error) {
        throw failure(error);
      }
      if (response.status === 404) {
        await response.body?.cancel().catch(() => {});
        d.emit({ type: "log", message: `no checksum offered (${url}: 404); not verified` });
        return;
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        throw new DownloadError(`Cannot fetch the checksum ${url}: HTTP ${response.status}`);
      }
      deadline.arm(
        stallMs,
        () => `The checksum ${url} stalled for ${seconds(stallMs)} s (OSM_DOWNLOAD_STALL_S)`,
      );
      try {
        // `<32 hex digits>  <file name>`: a kilobyte is plenty; a longer body is not read.
        text = await smallText(response, 1024);
      } catch (error) {
        throw failure(error);
      }
    } finally {
      deadline.clear();
    }
    let expected: string;
    try {
      expected = parseMd5File(text);
    } catch (error) {
      throw new DownloadError(`${url}: ${(error as Error).message}`);
    }
    if (expected !== md5) {
      throw new DownloadError(
        `Checksum mismatch: ${url} says ${expected}, the download has ${md5}; ` +
          "the region's previous data is kept",
      );
    }
    d.emit({ type: "log", message: `checksum verified (md5 ${md5})` });
  };

  return {
    start(region) {
      prune();
      const key = region.path.toLowerCase();
      const current = running.get(key);
      if (current && current.finishedAt === null) return { download: current, attached: true };
      const active = [...running.values()].filter((r) => r.finishedAt === null).length;
      if (active >= maxRunning) throw new DownloadsBusyError(active, maxRunning);
      const d = new Download(crypto.randomUUID(), region);
      downloads.set(d.id, d);
      running.set(key, d);
      serviceLog(`download ${d.id}: ${region.path} from ${region.url}`);
      d.emit({ type: "log", message: `queued ${region.path}` });
      d.finished = execute(d).finally(() => {
        if (running.get(key) === d) running.delete(key);
        serviceLog(`download ${d.id}: ${d.status}${d.error ? `: ${d.error}` : ""}`);
      });
      return { download: d, attached: false };
    },
    get(id) {
      prune();
      return downloads.get(id);
    },
    async close() {
      stop.abort();
      options.signal?.removeEventListener("abort", onStop);
      await Promise.all([...running.values()].map((d) => d.finished));
    },
  };
}

/** The state and event history of one download. */
class Download implements RegionDownload {
  status: DownloadStatus = "queued";
  bytes = 0;
  totalBytes: number | null = null;
  error: string | undefined;
  readonly startedAt = Date.now();
  finishedAt: number | null = null;
  finished: Promise<void> = Promise.resolve();
  readonly #frames: DownloadFrame[] = [];
  readonly #listeners = new Set<(frame: DownloadFrame) => void>();

  constructor(readonly id: string, readonly region: Region) {}

  view(): DownloadView {
    return {
      id: this.id,
      region: this.region.path,
      status: this.status,
      bytes: this.bytes,
      total_bytes: this.totalBytes,
      ...(this.error === undefined ? {} : { error: this.error }),
      started_at: new Date(this.startedAt).toISOString(),
      finished_at: this.finishedAt === null ? null : new Date(this.finishedAt).toISOString(),
    };
  }

  history(): readonly DownloadFrame[] {
    return [...this.#frames];
  }

  subscribe(listener: (frame: DownloadFrame) => void): () => void {
    for (const frame of this.#frames) listener(frame);
    if (this.finishedAt !== null) return () => {};
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(frame: DownloadFrame): void {
    if (this.finishedAt !== null) return;
    this.#frames.push(frame);
    for (const listener of [...this.#listeners]) listener(frame);
  }

  /** Sends the final frame; no frame follows it. */
  finish(frame: DownloadFrame): void {
    this.emit(frame);
    this.finishedAt = Date.now();
    this.#listeners.clear();
  }
}
