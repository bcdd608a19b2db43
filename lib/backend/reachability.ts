/**
 * Whether a neighbouring service answers: `GET {url}/health` with a short timeout, the answer
 * kept for a moment so that a burst of health checks does not turn into a burst of probes.
 */

/** What a probe is built from. */
export interface ReachabilityOptions {
  /** Base URL of the service; `/health` is appended. */
  baseUrl: string;
  /** Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Longest wait for the answer, ms (default 1500). */
  timeoutMs?: number;
  /** How long an answer is reused, ms (default 2000). */
  cacheMs?: number;
  /** Milliseconds now; default `performance.now`. */
  now?: () => number;
}

/** A cached probe of one service. */
export interface ReachabilityProbe {
  readonly url: string;
  /** True when `/health` answered 2xx in time, at most `cacheMs` ago. */
  reachable(): Promise<boolean>;
}

/** A probe of the service at `options.baseUrl`. */
export function createReachabilityProbe(options: ReachabilityOptions): ReachabilityProbe {
  const base = options.baseUrl.replace(/\/+$/, "");
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 1500;
  const cacheMs = options.cacheMs ?? 2000;
  const now = options.now ?? (() => performance.now());
  let cached: { at: number; answer: Promise<boolean> } | undefined;

  const probe = async (): Promise<boolean> => {
    try {
      const res = await doFetch(`${base}/health`, { signal: AbortSignal.timeout(timeoutMs) });
      await res.body?.cancel();
      return res.ok;
    } catch {
      return false;
    }
  };

  return {
    url: base,
    reachable() {
      // A probe in flight is shared too: concurrent checks wait for the same answer.
      if (cached === undefined || now() - cached.at >= cacheMs) {
        cached = { at: now(), answer: probe() };
      }
      return cached.answer;
    },
  };
}
