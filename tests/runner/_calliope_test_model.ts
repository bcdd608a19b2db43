/**
 * Calliope 0.6.10's test model (`tests/fixtures/calliope_test_model`), built as its test suite
 * builds it (`calliope/test/common/util.py` `build_test_model(override_dict, scenario,
 * model_file)`), through our importer, and solved by the runner's real pipeline.
 */
import { importCalliopeModel } from "../../lib/model/calliope/calliope_import.ts";
import type { ModelConfig } from "../../lib/model/model_config.ts";
import { createHighsModelRunner } from "../../lib/runner/highs_model_runner.ts";
import type { RunResult } from "../../lib/runner/model_runner.ts";
import { solveOptimal } from "./_solve_optimal.ts";

/** The test model's folder. */
export const TEST_MODEL = new URL("../fixtures/calliope_test_model", import.meta.url).pathname;

/** A nested override (Calliope's `override_dict`) as dotted keys, as the importer takes them. */
export function dottedOverrides(
  nested: Record<string, unknown>,
  prefix = "",
): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(nested)) {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    if (
      value !== null && typeof value === "object" && !Array.isArray(value) &&
      Object.keys(value).length > 0 // an empty mapping is a value: `{test_supply_elec: {}}`
    ) {
      Object.assign(flat, dottedOverrides(value as Record<string, unknown>, path));
    } else flat[path] = value;
  }
  return flat;
}

/** What `build_test_model` takes. */
export interface TestModelOptions {
  /** Calliope's `override_dict`, nested as in its tests. */
  override?: Record<string, unknown>;
  /** Names from the test model's `scenarios.yaml` (overrides), comma-separated. */
  scenario?: string;
  /** Default `model.yaml`. */
  modelFile?: string;
}

/** The test model as a ModelConfig, built as Calliope's `build_test_model` builds it. */
export function buildTestModel(options: TestModelOptions = {}): Promise<ModelConfig> {
  return importCalliopeModel(`${TEST_MODEL}/${options.modelFile ?? "model.yaml"}`, {
    ...(options.scenario === undefined ? {} : { scenario: options.scenario }),
    ...(options.override === undefined ? {} : { overrides: dottedOverrides(options.override) }),
  });
}

const runner = await createHighsModelRunner();

/** Builds the test model and solves it; the run must be accepted and end optimal. */
export async function solveTestModel(options: TestModelOptions = {}): Promise<RunResult> {
  return solveOptimal(runner, await buildTestModel(options));
}
