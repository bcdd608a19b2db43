import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import {
  ALLOWED_CONSTRAINTS,
  ALLOWED_COSTS,
  BASE_GROUP_CONSTRAINTS,
  REQUIRED_CONSTRAINTS,
} from "../../../lib/model/preprocess/tech_defaults.ts";
import type { TechType } from "../../../lib/model/model_config.ts";
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

/** Calliope 0.6.10's `defaults.yaml`, copied unchanged (see its SOURCE.md). */
const DEFAULTS = parse(
  readFileSync(new URL("../../fixtures/calliope_defaults/defaults.yaml", import.meta.url), "utf8"),
) as {
  tech_groups: Record<string, {
    allowed_constraints: string[];
    allowed_costs: string[];
    required_constraints: string[];
    constraints: Record<string, unknown>;
  }>;
  techs: { default_tech: { constraints: Record<string, unknown> } };
};

/**
 * Keys we allow beyond `defaults.yaml`'s lists: Calliope never checks a `_systemwide` key against
 * the type (`cleanup_undesired_keys` drops them before `_check_tech_final`) and applies
 * `energy_capacity_systemwide` to any technology, a link's two ends against twice the value.
 */
const EXTRA_CONSTRAINTS: Readonly<Partial<Record<TechType, readonly string[]>>> = {
  demand: ["energy_cap_equals_systemwide", "energy_cap_max_systemwide"],
  transmission: ["energy_cap_equals_systemwide", "energy_cap_max_systemwide"],
};

const sorted = (keys: Iterable<string>) => [...new Set(keys)].sort();

Deno.test("the allowed-keys tables equal Calliope 0.6.10's defaults.yaml but the exceptions", () => {
  assert.deepEqual(sorted(Object.keys(DEFAULTS.tech_groups)), sorted(TECH_TYPES));
  for (const type of TECH_TYPES) {
    const group = DEFAULTS.tech_groups[type]!;
    assert.deepEqual(
      sorted(ALLOWED_CONSTRAINTS[type]),
      sorted([...group.allowed_constraints, ...(EXTRA_CONSTRAINTS[type] ?? [])]),
      `${type} allowed_constraints`,
    );
    assert.equal(new Set(ALLOWED_CONSTRAINTS[type]).size, ALLOWED_CONSTRAINTS[type].length, type);
    assert.deepEqual(sorted(ALLOWED_COSTS[type]), sorted(group.allowed_costs), `${type} costs`);
    assert.deepEqual([...REQUIRED_CONSTRAINTS[type]], group.required_constraints, type);
    assert.deepEqual({ ...BASE_GROUP_CONSTRAINTS[type] }, group.constraints, `${type} constraints`);
  }
});

Deno.test("each exception is a _systemwide key Calliope knows", () => {
  const known = Object.keys(DEFAULTS.techs.default_tech.constraints);
  for (const [type, keys] of Object.entries(EXTRA_CONSTRAINTS)) {
    for (const k of keys) {
      assert.ok(k.endsWith("_systemwide") && known.includes(k), `${type}: ${k}`);
      assert.ok(!DEFAULTS.tech_groups[type]!.allowed_constraints.includes(k), `${type}: ${k}`);
    }
  }
});
