/**
 * A bounded in-memory cache: at most `maxEntries`, each kept for `ttlMs`, the least recently used
 * dropped first. A Map keeps insertion order, so re-inserting on read makes it an LRU list.
 * Where values differ widely in size (answers of a few hundred bytes to tens of MB), `weigh` and
 * `maxWeight` bound what the entries weigh together as well.
 */

/** Options of an LruCache. */
export interface LruCacheOptions<V = unknown> {
  /** Most entries kept (default 1000). */
  maxEntries?: number;
  /** How long an entry is served, ms (default 24 h). */
  ttlMs?: number;
  /** The current time, ms; default `Date.now` (tests pass their own). */
  now?: () => number;
  /** Most weight kept over all entries (default no bound); a heavier value is not kept. */
  maxWeight?: number;
  /** The weight of a value, e.g. its bytes (default 0). */
  weigh?: (value: V) => number;
}

/** A bounded, expiring map from string keys. */
export class LruCache<V> {
  readonly #entries = new Map<string, { value: V; expires: number; weight: number }>();
  readonly #max: number;
  readonly #ttl: number;
  readonly #now: () => number;
  readonly #maxWeight: number;
  readonly #weigh: (value: V) => number;
  #weight = 0;

  constructor(options: LruCacheOptions<V> = {}) {
    this.#max = options.maxEntries ?? 1000;
    this.#ttl = options.ttlMs ?? 24 * 3600_000;
    this.#now = options.now ?? Date.now;
    this.#maxWeight = options.maxWeight ?? Infinity;
    this.#weigh = options.weigh ?? (() => 0);
    if (!(this.#max >= 1)) throw new RangeError(`maxEntries must be >= 1, got ${this.#max}`);
  }

  /** The value under `key` if present and not expired; marks it recently used. */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#drop(key);
    if (entry.expires <= this.#now()) return undefined;
    this.#keep(key, entry);
    return entry.value;
  }

  /** Stores `value`, dropping the least recently used entries until both bounds hold. */
  set(key: string, value: V): void {
    this.#drop(key);
    const weight = this.#weigh(value);
    if (weight > this.#maxWeight) return;
    this.#keep(key, { value, expires: this.#now() + this.#ttl, weight });
    while (this.#entries.size > this.#max || this.#weight > this.#maxWeight) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#drop(oldest);
    }
  }

  /** Drops every entry. */
  clear(): void {
    this.#entries.clear();
    this.#weight = 0;
  }

  /** Number of entries held (expired ones included until read). */
  get size(): number {
    return this.#entries.size;
  }

  /** What the entries held weigh together (expired ones included until read). */
  get weight(): number {
    return this.#weight;
  }

  #keep(key: string, entry: { value: V; expires: number; weight: number }): void {
    this.#entries.set(key, entry);
    this.#weight += entry.weight;
  }

  #drop(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#weight -= entry.weight;
  }
}
