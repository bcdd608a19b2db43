/**
 * The layer routes' answer cache, bounded by the bytes it holds as well as by entries: a layer
 * answer can be anything from a few hundred bytes to OSM_LAYER_MAX_MB, so a count alone does not
 * bound its memory. Entries expire after `ttlMs`; the least recently used go first.
 */

/** Options of a LayerAnswerCache. */
export interface LayerAnswerCacheOptions {
  /** Most bytes held over all entries; a larger answer is not kept. */
  readonly maxBytes: number;
  /** Most entries kept (default 256). */
  readonly maxEntries?: number;
  /** How long an entry is served, ms. */
  readonly ttlMs: number;
  /** The current time, ms (default Date.now). */
  readonly now?: () => number;
}

/** One cached answer: its UTF-8 bytes and whether it was cut at a limit. */
export interface CachedLayerAnswer {
  readonly bytes: Uint8Array<ArrayBuffer>;
  readonly truncated: boolean;
}

/** Answers by key. */
export class LayerAnswerCache {
  readonly #entries = new Map<string, { answer: CachedLayerAnswer; expires: number }>();
  readonly #maxBytes: number;
  readonly #maxEntries: number;
  readonly #ttl: number;
  readonly #now: () => number;
  #bytes = 0;

  constructor(options: LayerAnswerCacheOptions) {
    this.#maxBytes = options.maxBytes;
    this.#maxEntries = options.maxEntries ?? 256;
    this.#ttl = options.ttlMs;
    this.#now = options.now ?? Date.now;
  }

  /** The answer under `key` if present and not expired; marks it recently used. */
  get(key: string): CachedLayerAnswer | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#drop(key);
    if (entry.expires <= this.#now()) return undefined;
    this.#entries.set(key, entry);
    this.#bytes += entry.answer.bytes.length;
    return entry.answer;
  }

  /** Keeps `answer` under `key`, dropping the least recently used until both bounds hold. */
  set(key: string, answer: CachedLayerAnswer): void {
    this.#drop(key);
    if (answer.bytes.length > this.#maxBytes) return;
    this.#entries.set(key, { answer, expires: this.#now() + this.#ttl });
    this.#bytes += answer.bytes.length;
    while (this.#bytes > this.#maxBytes || this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#drop(oldest);
    }
  }

  /** Drops every entry. */
  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  /** Bytes held. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Entries held (expired ones included until read). */
  get size(): number {
    return this.#entries.size;
  }

  #drop(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.answer.bytes.length;
  }
}
