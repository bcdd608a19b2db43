/**
 * The transfer of one region extract into a temporary file: byte progress frames (about four
 * a second and at every 5 %), the size bound by Content-Length and by counting, a deadline for
 * a body that stops flowing, and the MD5 computed on the way for the checksum check.
 */
import { createHash } from "node:crypto";
import { type Download, DownloadError } from "./download_record.ts";
import { type DeadlineFetchOptions, fetchWithDeadlines, seconds } from "./fetch_with_deadlines.ts";

/** What the extract's transfer is made with. */
export interface ExtractFetchOptions extends DeadlineFetchOptions {
  /** Longest pause in the body, ms. */
  readonly stallMs: number;
  /** Largest extract, bytes. */
  readonly maxBytes: number;
  /** Least time between two progress frames, ms. */
  readonly progressIntervalMs: number;
}

const MB = 1024 * 1024;

function megabytes(bytes: number): string {
  return (bytes / MB).toFixed(1);
}

/**
 * Streams the extract of `d.region` into `file`, keeping `d`'s status, byte counts and frames;
 * returns its MD5 (hex). Failures are DownloadErrors, except the stop's error as it is.
 */
export async function fetchExtract(
  d: Download,
  file: string,
  options: ExtractFetchOptions,
): Promise<string> {
  const url = d.region.url;
  const { stallMs, maxBytes, progressIntervalMs: intervalMs } = options;
  d.stage = "downloading";
  d.emit({ type: "log", message: `downloading ${url}` });
  return await fetchWithDeadlines(url, `Cannot reach ${url}`, options, async (transfer) => {
    const { response } = transfer;
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
        transfer.arm(stallMs, stalled);
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
      throw transfer.failure(error, `Download of ${url} broke off after ${d.bytes} bytes`);
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
  });
}
