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

Deno.test("LruCache weighs values: at most maxWeight together, a heavier one not kept", () => {
  const cache = new LruCache<string>({ maxWeight: 10, weigh: (value) => value.length });
  cache.set("a", "aaaa");
  cache.set("b", "bbbb");
  assert.equal(cache.weight, 8);
  cache.set("c", "cccc");
  assert.equal(cache.get("a"), undefined);
  assert.equal(cache.weight, 8);
  cache.set("d", "d".repeat(11));
  assert.equal(cache.get("d"), undefined);
  assert.equal(cache.weight, 8);
  cache.clear();
  assert.equal(cache.weight, 0);
});
