/**
 * The layer routes' answer cache, bounded by the bytes it holds as well as by entries: a layer
 * answer can be anything from a few hundred bytes to OSM_LAYER_MAX_MB, so a count alone does not
 * bound its memory. The LRU cache of lib/cache, weighing each answer by its bytes.
 */
import { LruCache } from "../cache/lru_cache.ts";

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

/** Answers by key, least recently used dropped first, within `maxBytes` and `maxEntries`. */
export class LayerAnswerCache extends LruCache<CachedLayerAnswer> {
  constructor(options: LayerAnswerCacheOptions) {
    super({
      maxEntries: options.maxEntries ?? 256,
      ttlMs: options.ttlMs,
      ...(options.now ? { now: options.now } : {}),
      maxWeight: options.maxBytes,
      weigh: (answer) => answer.bytes.length,
    });
  }

  /** Bytes held. */
  get bytes(): number {
    return this.weight;
  }
}
