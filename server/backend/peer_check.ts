/**
 * The backend's neighbours checked once at start (issue 18): a runner or catalogue that does
 * not answer makes every run fail and `/tech/*` answer 502, so the log says so once, with the
 * URL tried and the variable that moves it, instead of leaving the user only the failures.
 */
import { healthProblem } from "../../lib/backend/reachability.ts";

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

/** Asks every peer's `/health` once; logs one line for each that does not answer. */
export async function checkPeers(peers: readonly Peer[], options: PeerCheckOptions): Promise<void> {
  await Promise.all(peers.map(async (peer) => {
    const reason = await healthProblem(peer.url, {
      timeoutMs: options.timeoutMs ?? 3000,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    if (reason === undefined || options.signal?.aborted) return;
    options.log(
      `the ${peer.name} does not answer at ${peer.url} (${reason}); ${peer.consequence} ` +
        `until it does: start it, or set ${peer.variable} to where it runs`,
    );
  }));
}
