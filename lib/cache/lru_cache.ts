/**
 * A bounded in-memory cache: at most `maxEntries`, each kept for `ttlMs`, the least recently used
 * dropped first. A Map keeps insertion order, so re-inserting on read makes it an LRU list.
 */

/** Options of an LruCache. */
export interface LruCacheOptions {
  /** Most entries kept (default 1000). */
  maxEntries?: number;
  /** How long an entry is served, ms (default 24 h). */
  ttlMs?: number;
  /** The current time, ms; default `Date.now` (tests pass their own). */
  now?: () => number;
}

/** A bounded, expiring map from string keys. */
export class LruCache<V> {
  readonly #entries = new Map<string, { value: V; expires: number }>();
  readonly #max: number;
  readonly #ttl: number;
  readonly #now: () => number;

  constructor(options: LruCacheOptions = {}) {
    this.#max = options.maxEntries ?? 1000;
    this.#ttl = options.ttlMs ?? 24 * 3600_000;
    this.#now = options.now ?? Date.now;
    if (!(this.#max >= 1)) throw new RangeError(`maxEntries must be >= 1, got ${this.#max}`);
  }

  /** The value under `key` if present and not expired; marks it recently used. */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.expires <= this.#now()) return undefined;
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** Stores `value`, dropping the least recently used entry when full. */
  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expires: this.#now() + this.#ttl });
    while (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  /** Drops every entry. */
  clear(): void {
    this.#entries.clear();
  }

  /** Number of entries held (expired ones included until read). */
  get size(): number {
    return this.#entries.size;
  }
}
