/**
 * One region download's record: its state, its event history and its listeners. Any number of
 * clients can follow it, late ones first getting every frame they missed; the final done or
 * error frame ends it.
 */
import type { Region } from "../regions_db.ts";

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

/** A failure whose message is already the frame's message. */
export class DownloadError extends Error {}

/** The state and event history of one download. */
export class Download implements RegionDownload {
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
