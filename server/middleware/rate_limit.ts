/**
 * Rate limits keyed by string (a client address, an account): a token bucket per key, with the
 * clock passed in so tests can move time, and a bounded number of keys, so a flood of distinct
 * keys cannot grow memory without end. `rateLimit()` is the middleware over it: over the limit a
 * request is answered 429 with `Retry-After` (seconds) and the one error format, `{ error }`.
 *
 * A key may make `limit` requests at once; it regains one every `windowMs / limit` ms, so over
 * any long stretch it makes at most `limit` per window. A key whose bucket is full again holds
 * no information and is dropped when it is the least recently used one.
 */
import type { Context, Env, MiddlewareHandler } from "hono";
import { getConnInfo } from "hono/deno";
import { httpError } from "./errors.ts";

/** How a limiter counts. */
export interface RateLimiterOptions {
  /** Requests a key may make at once, and per window over time (an integer >= 1). */
  limit: number;
  /** The window, ms: a key regains all `limit` requests in this time. */
  windowMs: number;
  /** Most keys held at once (default 10,000); beyond it the least recently used is dropped. */
  maxKeys?: number;
  /** The current time, ms since the epoch (default `Date.now`). */
  clock?: () => number;
}

/** A limiter's answer for one request. */
export type RateDecision =
  | { allowed: true; remaining: number }
  | { allowed: false; retryAfterSeconds: number };

/** Token buckets by key. */
export interface RateLimiter {
  /** Takes one request of `key`'s allowance: allowed, or how long to wait (whole seconds). */
  take(key: string): RateDecision;
  /** Keys held now (bounded by `maxKeys`). */
  readonly size: number;
}

/** Keys held unless the limiter is told otherwise. */
export const DEFAULT_MAX_KEYS = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

/** A token-bucket limiter; throws RangeError for a limit, window or key bound that is not > 0. */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { limit, windowMs } = options;
  const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
  const clock = options.clock ?? Date.now;
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new RangeError(`rate limit: limit must be an integer >= 1, got ${limit}`);
  }
  if (!(windowMs > 0) || !Number.isFinite(windowMs)) {
    throw new RangeError(`rate limit: windowMs must be a number > 0, got ${windowMs}`);
  }
  if (!Number.isSafeInteger(maxKeys) || maxKeys < 1) {
    throw new RangeError(`rate limit: maxKeys must be an integer >= 1, got ${maxKeys}`);
  }
  const perMs = limit / windowMs;
  // Insertion order is use order: a key is deleted and set again on every use.
  const buckets = new Map<string, Bucket>();

  const refilled = (bucket: Bucket, now: number) =>
    Math.min(limit, bucket.tokens + Math.max(0, now - bucket.at) * perMs);

  /** Drops the least recently used keys: while over the bound, or while their bucket is full. */
  const evict = (now: number) => {
    for (const [key, bucket] of buckets) {
      if (buckets.size <= maxKeys && refilled(bucket, now) < limit) break;
      buckets.delete(key);
    }
  };

  return {
    take(key) {
      const now = clock();
      const held = buckets.get(key);
      const tokens = held ? refilled(held, now) : limit;
      buckets.delete(key);
      if (tokens >= 1) {
        buckets.set(key, { tokens: tokens - 1, at: now });
        evict(now);
        return { allowed: true, remaining: Math.floor(tokens - 1) };
      }
      buckets.set(key, { tokens, at: now });
      evict(now);
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / perMs / 1000)),
      };
    },
    get size() {
      return buckets.size;
    },
  };
}

/** The key of a request without a connection (in-process calls): they share one allowance. */
export const LOCAL_CLIENT = "local";

/**
 * The client's address from the connection (`getConnInfo` of `hono/deno`, which reads
 * `c.env.remoteAddr`), or LOCAL_CLIENT when there is none, so limits apply in-process too.
 */
export function clientAddress<E extends Env>(c: Context<E>): string {
  const env = c.env as { remoteAddr?: unknown } | undefined;
  if (env === undefined || env === null || typeof env.remoteAddr !== "object" || !env.remoteAddr) {
    return LOCAL_CLIENT;
  }
  const address = getConnInfo(c).remote.address;
  return address === undefined || address === "" ? LOCAL_CLIENT : address;
}

/**
 * Throws the 429 of a refused request: `Retry-After` in whole seconds and `{ error: message }`.
 */
export function tooManyRequests(
  c: { header(name: string, value: string): void },
  retryAfterSeconds: number,
  message: string,
): never {
  c.header("Retry-After", String(retryAfterSeconds));
  throw httpError(429, `${message}; retry in ${retryAfterSeconds} s`);
}

/** Options of the middleware. */
export interface RateLimitOptions<E extends Env> {
  limiter: RateLimiter;
  /** The key of a request; default its client address (`clientAddress`). */
  key?: (c: Context<E>) => string;
  /** The 429's message, e.g. "Too many sign-in attempts from this address". */
  message: string;
}

/** Middleware that lets a request through when its key has allowance left, else answers 429. */
export function rateLimit<E extends Env = Env>(options: RateLimitOptions<E>): MiddlewareHandler<E> {
  const key = options.key ?? clientAddress<E>;
  return async (c, next) => {
    const decision = options.limiter.take(key(c));
    if (!decision.allowed) tooManyRequests(c, decision.retryAfterSeconds, options.message);
    await next();
  };
}
