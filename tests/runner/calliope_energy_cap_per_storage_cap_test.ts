/**
 * Calliope 0.6.10's `TestEnergyCapacityPerStorageCapacity` (`calliope/test/
 * test_constraint_results.py`), its plan-mode cases, on `energy_cap_per_storage_cap.yaml`
 * (one storage and a demand; the only supply has no capacity), with Calliope's numbers. Its
 * operate-mode cases are in tests/model/operate/operate_examples_test.ts.
 */
import assert from "node:assert/strict";
import type { RunResult } from "../../lib/runner/model_runner.ts";
import { solveTestModel } from "./_calliope_test_model.ts";

const MODEL_FILE = "energy_cap_per_storage_cap.yaml";

/** Σ over locations of my_storage's `energy_cap` or `storage_cap`. */
function storage(r: RunResult, table: "energy_cap" | "storage_cap"): number {
  return Object.entries(r[table] as Record<string, number>)
    .filter(([id]) => id.split("::")[1] === "my_storage")
    .reduce((sum, [, v]) => sum + v, 0);
}

/** pytest.approx: relative 1e-6. */
function approx(actual: number, expected: number): void {
  assert.ok(
    Math.abs(actual - expected) <= 1e-6 * Math.abs(expected),
    `${actual} is not ${expected} within 1e-6`,
  );
}

const solve = (scenario?: string) =>
  solveTestModel({ modelFile: MODEL_FILE, ...(scenario === undefined ? {} : { scenario }) });

Deno.test("test_no_constraint_set", async () => {
  const r = await solve();
  approx(storage(r, "energy_cap"), 10);
  approx(storage(r, "storage_cap"), 180);
  assert.ok(Math.abs(storage(r, "storage_cap") - storage(r, "energy_cap") / 10) > 1e-6);
});

Deno.test("test_equals", async () => {
  const r = await solve("equals");
  approx(storage(r, "storage_cap"), storage(r, "energy_cap") / 10);
});

Deno.test("test_max", async () => {
  const r = await solve("max");
  approx(storage(r, "energy_cap"), 10);
  approx(storage(r, "storage_cap"), 1000);
});

Deno.test("test_min", async () => {
  const r = await solve("min");
  approx(storage(r, "energy_cap"), 180);
  approx(storage(r, "storage_cap"), 180);
});
