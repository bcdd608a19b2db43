import assert from "node:assert/strict";
import { LayerAnswerCache } from "../../lib/osm/layer_answer_cache.ts";

const answer = (n: number) => ({ bytes: new Uint8Array(n), truncated: false });

Deno.test("LayerAnswerCache holds at most maxBytes, dropping the least recently used", () => {
  const cache = new LayerAnswerCache({ maxBytes: 100, ttlMs: 1000 });
  cache.set("a", answer(40));
  cache.set("b", answer(40));
  assert.ok(cache.get("a")); // a is now the most recently used
  cache.set("c", answer(40));
  assert.equal(cache.get("b"), undefined);
  assert.ok(cache.get("a") && cache.get("c"));
  assert.equal(cache.bytes, 80);
  cache.set("huge", answer(101));
  assert.equal(cache.get("huge"), undefined);
  assert.equal(cache.bytes, 80);
  cache.set("a", answer(10));
  assert.equal(cache.bytes, 50);
  cache.clear();
  assert.equal(cache.bytes, 0);
  assert.equal(cache.size, 0);
});

Deno.test("LayerAnswerCache keeps at most maxEntries and expires entries after ttlMs", () => {
  let now = 0;
  const cache = new LayerAnswerCache({ maxBytes: 1000, maxEntries: 2, ttlMs: 10, now: () => now });
  cache.set("a", answer(1));
  cache.set("b", answer(1));
  cache.set("c", { bytes: new Uint8Array(1), truncated: true });
  assert.equal(cache.get("a"), undefined);
  assert.equal(cache.get("c")?.truncated, true);
  now = 10;
  assert.equal(cache.get("b"), undefined);
  assert.equal(cache.bytes, 1);
});
