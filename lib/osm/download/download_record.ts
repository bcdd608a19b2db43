/**
 * One region download: a job of the job engine (`lib/jobs/`) named in the download's words, with
 * its byte counts. Any number of clients can follow it, late ones first getting every frame
 * they missed; the final done or error frame ends it.
 */
import type { Job } from "../../jobs/job.ts";
import type { ImportResult } from "../import_region.ts";
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

/** The error of a download ended by the service's stop. */
export const STOPPED_MESSAGE = "The service is stopping; the download was abandoned";

/**
 * The frame that ends a download: `done` with the import's counts, or `error` with why. The
 * live history and the record kept in the store both end with it.
 */
export function finalFrame(
  regionPath: string,
  result: ImportResult | undefined,
  error: string | null,
): DownloadFrame {
  if (result === undefined) return { type: "error", message: error ?? STOPPED_MESSAGE };
  return {
    type: "done",
    message: `Imported ${regionPath} in ${result.seconds.toFixed(1)} s: ` +
      Object.entries(result.counts).map(([layer, n]) => `${n} ${layer}`).join(", "),
    region: regionPath,
    counts: result.counts,
  };
}

/** A failure whose message is already the frame's message. */
export class DownloadError extends Error {}

/** A download as the job engine holds it: its region in, its import's result out. */
export type DownloadJob = Job<Region, ImportResult, DownloadFrame>;

/** Whether a frame ends a download's history. */
export function isFinalFrame(frame: DownloadFrame): boolean {
  return frame.type === "done" || frame.type === "error";
}

/** A download's state: its engine job, its step and its byte counts. */
export class Download implements RegionDownload {
  /** The step of a running download. */
  stage: "downloading" | "importing" = "downloading";
  bytes = 0;
  totalBytes: number | null = null;

  constructor(readonly job: DownloadJob, readonly region: Region) {}

  get id(): string {
    return this.job.id;
  }

  get status(): DownloadStatus {
    const state = this.job.state;
    if (state === "running") return this.stage;
    if (state === "succeeded") return "completed";
    return state === "queued" ? "queued" : "failed";
  }

  get error(): string | undefined {
    return this.job.error ?? undefined;
  }

  get finishedAt(): number | null {
    return this.job.finishedAt;
  }

  get finished(): Promise<void> {
    return this.job.settled;
  }

  view(): DownloadView {
    const error = this.error;
    return {
      id: this.id,
      region: this.region.path,
      status: this.status,
      bytes: this.bytes,
      total_bytes: this.totalBytes,
      ...(error === undefined ? {} : { error }),
      started_at: new Date(this.job.createdAt).toISOString(),
      finished_at: this.finishedAt === null ? null : new Date(this.finishedAt).toISOString(),
    };
  }

  history(): readonly DownloadFrame[] {
    return [...this.job.events.events];
  }

  subscribe(listener: (frame: DownloadFrame) => void): () => void {
    return this.job.events.subscribe(listener);
  }

  /** Appends a frame (ignored once the download has ended). */
  emit(frame: DownloadFrame): void {
    this.job.events.append(frame);
  }
}
