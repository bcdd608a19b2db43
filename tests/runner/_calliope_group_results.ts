/**
 * What the group-constraint result tests share (calliope_group_constraints_test.ts,
 * calliope_group_shares_test.ts): the test model's files, sums over result tables, Calliope's
 * tolerances (`round(x, 5) <= v` is `x <= v + 5e-6`, `approx(v)` is relative 1e-6), the solve
 * of a file and scenario, and the checks of a warning and of a run that is not optimal.
 */
import assert from "node:assert/strict";
import type { RunResult } from "../../lib/runner/model_runner.ts";
import { createHighsModelRunner } from "../../lib/runner/highs_model_runner.ts";
import { buildTestModel, solveTestModel } from "./_calliope_test_model.ts";

export const GROUP = "model_config_group/base_model.yaml";
export const STORAGE = "group_constraint_storage_cap.yaml";
export const COST = "group_constraint_cost_cap.yaml";

export type Table = Record<string, number | number[] | Record<string, number | number[]>>;

/** Σ of a result table over loc::tech(::carrier) ids matching tech (and location). */
export function total(
  result: RunResult,
  table: string,
  tech?: string,
  loc?: string,
  cls?: string,
): number {
  let t = result[table as keyof RunResult] as unknown as Table;
  if (cls !== undefined) t = (t[cls] ?? {}) as Table;
  let s = 0;
  for (const [id, v] of Object.entries(t)) {
    const [l, tt] = id.split("::");
    if (tech !== undefined && tt !== tech) continue;
    if (loc !== undefined && l !== loc) continue;
    s += Array.isArray(v) ? v.reduce((a, b) => a + b, 0) : v as number;
  }
  return s;
}

export const r5 = (x: number) => Math.round(x * 1e5) / 1e5;
export const approx = (x: number, v: number, rel = 1e-6) =>
  assert.ok(Math.abs(x - v) <= Math.max(rel * Math.abs(v), 1e-12), `${x} ≉ ${v}`);

export const solve = (modelFile: string, scenario?: string) =>
  solveTestModel({ modelFile, ...(scenario === undefined ? {} : { scenario }) });

/** Calliope's ModelWarning that a group covers nothing, in the result's `warnings`. */
export function assertIgnored(r: RunResult, group: string): void {
  const warnings = (r["warnings"] ?? []) as string[];
  assert.ok(
    warnings.some((w) => w.startsWith(`Constraint group \`${group}\` will be completely ignored`)),
    JSON.stringify(warnings),
  );
}

const runner = await createHighsModelRunner();

/** Calliope's `termination_condition != "optimal"`. */
export async function assertNotOptimal(modelFile: string, scenario: string): Promise<void> {
  const prepared = runner.prepare(await buildTestModel({ modelFile, scenario }));
  if (!prepared.ok) assert.fail(JSON.stringify(prepared.problems, null, 2));
  const result = await runner.run(prepared.model, {
    log: () => {},
    progress: () => {},
    signal: new AbortController().signal,
  });
  assert.notEqual(result.termination, "optimal");
}
