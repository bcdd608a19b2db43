/**
 * The check of a downloaded extract against the `.md5` file Geofabrik offers beside it. A
 * server that offers none (404) leaves the extract unverified, with a log line saying so; a
 * mismatch fails the download before anything is imported.
 */
import { type Download, DownloadError } from "./download_record.ts";
import { type DeadlineFetchOptions, fetchWithDeadlines, seconds } from "./fetch_with_deadlines.ts";

/** What the checksum fetch is made with. */
export interface ChecksumOptions extends DeadlineFetchOptions {
  /** Longest pause in the checksum's body, ms. */
  readonly stallMs: number;
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

/**
 * Checks `md5` (hex, of the extract `d` downloaded) against `${d.region.url}.md5`; throws a
 * DownloadError when they differ or the checksum cannot be had, and logs the outcome on `d`.
 */
export async function verifyChecksum(
  d: Download,
  md5: string,
  options: ChecksumOptions,
): Promise<void> {
  const url = `${d.region.url}.md5`;
  const { stallMs } = options;
  const unreachable = `Cannot fetch the checksum ${url}`;
  const text = await fetchWithDeadlines(url, unreachable, options, async (transfer) => {
    const { response } = transfer;
    if (response.status === 404) {
      await response.body?.cancel().catch(() => {});
      d.emit({ type: "log", message: `no checksum offered (${url}: 404); not verified` });
      return undefined;
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new DownloadError(`Cannot fetch the checksum ${url}: HTTP ${response.status}`);
    }
    transfer.arm(
      stallMs,
      () => `The checksum ${url} stalled for ${seconds(stallMs)} s (OSM_DOWNLOAD_STALL_S)`,
    );
    try {
      // `<32 hex digits>  <file name>`: a kilobyte is plenty; a longer body is not read.
      return await smallText(response, 1024);
    } catch (error) {
      throw transfer.failure(error, unreachable);
    }
  });
  if (text === undefined) return;
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
}
