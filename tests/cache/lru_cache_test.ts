import assert from "node:assert/strict";
import { LruCache } from "../../lib/cache/lru_cache.ts";

Deno.test("LruCache drops the least recently used entry and expired ones", () => {
  let now = 0;
  const cache = new LruCache<number>({ maxEntries: 2, ttlMs: 100, now: () => now });
  cache.set("a", 1);
  cache.set("b", 2);
  assert.equal(cache.get("a"), 1);
  cache.set("c", 3);
  assert.equal(cache.get("b"), undefined);
  assert.equal(cache.get("a"), 1);
  now = 200;
  assert.equal(cache.get("c"), undefined);
});
