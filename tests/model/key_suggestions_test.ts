import assert from "node:assert/strict";
import { closestKey, didYouMean, editDistance } from "../../lib/model/key_suggestions.ts";

Deno.test("editDistance() counts insertions, deletions and substitutions", () => {
  assert.equal(editDistance("kitten", "sitting"), 3);
  assert.equal(editDistance("", "abc"), 3);
  assert.equal(editDistance("same", "same"), 0);
});

Deno.test("closestKey() suggests only plausible misspellings", () => {
  const keys = ["energy_cap_max", "energy_cap_min", "resource"];
  assert.equal(closestKey("energy_cap_mx", keys), "energy_cap_max");
  assert.equal(closestKey("ENERGY_CAP_MIN", keys), "energy_cap_min");
  assert.equal(closestKey("banana", keys), undefined);
  assert.equal(closestKey("x", []), undefined);
  assert.equal(didYouMean("resorce", keys), "; did you mean resource?");
  assert.equal(didYouMean("zzz", keys), "");
});
