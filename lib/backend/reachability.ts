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

/** How one `/health` question is asked. */
export interface HealthCheckOptions {
  /** Longest wait for the answer, ms. */
  timeoutMs: number;
  /** Ends the wait at once (a service that stops). */
  signal?: AbortSignal;
  /** Default `globalThis.fetch`. */
  fetch?: typeof fetch;
}

/**
 * Asks `GET {baseUrl}/health` once: undefined when it answers 2xx in time, else why not (the
 * status, "no answer to GET /health in time", or the connection's error).
 */
export async function healthProblem(
  baseUrl: string,
  options: HealthCheckOptions,
): Promise<string | undefined> {
  const signal = AbortSignal.any([
    AbortSignal.timeout(options.timeoutMs),
    ...(options.signal ? [options.signal] : []),
  ]);
  try {
    const res = await (options.fetch ?? globalThis.fetch)(
      `${baseUrl.replace(/\/+$/, "")}/health`,
      { signal },
    );
    await res.body?.cancel();
    return res.ok ? undefined : `GET /health answered ${res.status}`;
  } catch (error) {
    if (signal.aborted) return "no answer to GET /health in time";
    return error instanceof Error ? error.message : String(error);
  }
}

/** A probe of the service at `options.baseUrl`. */
export function createReachabilityProbe(options: ReachabilityOptions): ReachabilityProbe {
  const base = options.baseUrl.replace(/\/+$/, "");
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 1500;
  const cacheMs = options.cacheMs ?? 2000;
  const now = options.now ?? (() => performance.now());
  let cached: { at: number; answer: Promise<boolean> } | undefined;

  const probe = async (): Promise<boolean> =>
    await healthProblem(base, { timeoutMs, fetch: doFetch }) === undefined;

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
