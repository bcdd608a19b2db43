import assert from "node:assert/strict";
import {
  ALLOWED_CONSTRAINTS,
  ALLOWED_COSTS,
  BASE_GROUP_CONSTRAINTS,
} from "../../../lib/model/preprocess/tech_defaults.ts";
import { constraintsSchema, costsSchema, TECH_TYPES } from "../../../lib/model/model_config.ts";

Deno.test("tech_defaults covers every type with Calliope's base-group settings", () => {
  for (const type of TECH_TYPES) {
    assert.ok(ALLOWED_CONSTRAINTS[type].length > 0);
    assert.ok(ALLOWED_COSTS[type].length > 0);
    // every base-group key must itself be allowed for that type
    for (const k of Object.keys(BASE_GROUP_CONSTRAINTS[type])) {
      assert.ok(ALLOWED_CONSTRAINTS[type].includes(k), `${type}.${k}`);
    }
  }
  assert.equal(BASE_GROUP_CONSTRAINTS.supply.resource, "inf");
  assert.equal(BASE_GROUP_CONSTRAINTS.demand.force_resource, true);
  assert.equal(BASE_GROUP_CONSTRAINTS.storage.storage_cap_max, "inf");
});

Deno.test("every schema key is allowed for at least one type", () => {
  const constraints = new Set(Object.values(ALLOWED_CONSTRAINTS).flat());
  for (const k of Object.keys(constraintsSchema.shape)) assert.ok(constraints.has(k), k);
  const costs = new Set(Object.values(ALLOWED_COSTS).flat());
  for (const k of Object.keys(costsSchema.shape)) assert.ok(costs.has(k), k);
});
