/**
 * The backend's neighbours checked once at start (issue 18): a runner or catalogue that does
 * not answer makes every run fail and `/tech/*` answer 502, so the log says so once, with the
 * URL tried and the variable that moves it, instead of leaving the user only the failures.
 */

/** A neighbour to check. */
export interface Peer {
  /** What it is, as the log names it, e.g. `runner`. */
  name: string;
  /** Its base URL; `/health` is asked. */
  url: string;
  /** The variable that sets its URL, e.g. `RUNNER_URL`. */
  variable: string;
  /** What fails while it does not answer, e.g. `model runs fail`. */
  consequence: string;
}

/** How the check is made. */
export interface PeerCheckOptions {
  /** One line to the log. */
  log(message: string): void;
  /** Ends the check at once (the service stops). */
  signal?: AbortSignal;
  /** Longest wait for each answer, ms (default 3000). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** Why `url`/health gave no 2xx answer, or undefined when it did. */
async function silence(
  url: string,
  options: PeerCheckOptions,
): Promise<string | undefined> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs ?? 3000);
  const stop = () => abort.abort();
  options.signal?.addEventListener("abort", stop, { once: true });
  try {
    const res = await (options.fetch ?? fetch)(`${url.replace(/\/+$/, "")}/health`, {
      signal: abort.signal,
    });
    await res.body?.cancel();
    return res.ok ? undefined : `GET /health answered ${res.status}`;
  } catch (error) {
    if (abort.signal.aborted) return "no answer to GET /health in time";
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", stop);
  }
}

/** Asks every peer's `/health` once; logs one line for each that does not answer. */
export async function checkPeers(peers: readonly Peer[], options: PeerCheckOptions): Promise<void> {
  await Promise.all(peers.map(async (peer) => {
    const reason = await silence(peer.url, options);
    if (reason === undefined || options.signal?.aborted) return;
    options.log(
      `the ${peer.name} does not answer at ${peer.url} (${reason}); ${peer.consequence} ` +
        `until it does: start it, or set ${peer.variable} to where it runs`,
    );
  }));
}
