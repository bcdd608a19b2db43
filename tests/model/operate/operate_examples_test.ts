/**
 * Calliope 0.6.10's operate-mode example tests: `test_operate_example_results` (urban scale,
 * 2005-07-01..04) and the operate cases of `TestEnergyCapacityPerStorageCapacity`
 * (`energy_cap_per_storage_cap.yaml`, scenario `operate_mode_min`), each scenario's model keys
 * given as overrides and its run.operation to the operate functions.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { importCalliopeModel } from "../../../lib/model/calliope/calliope_import.ts";
import { operateOptions } from "../../../lib/model/operate/operate_options.ts";
import { prepareOperate } from "../../../lib/model/operate/prepare_operate.ts";
import { runOperate } from "../../../lib/model/operate/run_operate.ts";
import { prepareModelBody } from "../../../lib/model/prepare_model_body.ts";
import type { ModelConfig } from "../../../lib/model/model_config.ts";
import type { RunResult } from "../../../lib/results/run_result.ts";
import { loadHighsOnce } from "../../../lib/solver/highs_loader.ts";
import { createPersistentLpSolver } from "../../../lib/solver/persistent_lp.ts";
import { MODELS } from "./_national_operate.ts";

const highs = await loadHighsOnce();
const TEST_MODEL = new URL("../../fixtures/calliope_test_model", import.meta.url).pathname;

async function operate(config: ModelConfig, window: number, horizon: number): Promise<RunResult> {
  const prepared = prepareModelBody(config);
  if (!prepared.ok) throw new Error(JSON.stringify(prepared.problems));
  const options = operateOptions({ window, horizon });
  const fixed = prepareOperate(prepared.model, options);
  if (!fixed.ok) throw new Error(fixed.problems.join("\n"));
  const solver = createPersistentLpSolver(highs);
  try {
    const hooks = { log: () => {}, progress: () => {}, signal: new AbortController().signal };
    return await runOperate(fixed.model, options, hooks, solver);
  } finally {
    solver.dispose();
  }
}

Deno.test("test_operate_example_results: urban scale, 96 steps, its three warnings", async () => {
  const config = await importCalliopeModel(join(MODELS, "calliope_urban_scale"), {
    overrides: {
      "model.subset_time": ["2005-07-01", "2005-07-04"],
      "locations.X1.techs.chp.constraints.energy_cap_max": 300,
      "locations.X1.techs.pv.constraints.energy_cap_max": 0,
      "locations.X1.techs.supply_grid_power.constraints.energy_cap_max": 40,
      "locations.X1.techs.supply_gas.constraints.energy_cap_max": 700,
      "locations.X2.techs.boiler.constraints.energy_cap_max": 200,
      "locations.X2.techs.pv.constraints.energy_cap_max": 70,
      "locations.X2.techs.supply_gas.constraints.energy_cap_max": 250,
      "locations.X3.techs.boiler.constraints.energy_cap_max": 0,
      "locations.X3.techs.pv.constraints.energy_cap_max": 50,
      "locations.X3.techs.supply_gas.constraints.energy_cap_max": 0,
    },
  });
  const r = await operate(config, 24, 48);
  assert.equal(r.termination_condition, "optimal");
  const warnings = r["warnings"] as string[];
  for (
    const expected of [
      "Energy capacity constraint removed",
      "Resource capacity constraint defined and set to infinity for all supply_plus techs",
      "Storage cannot be cyclic in operate run mode, setting `run.cyclic_storage` to False " +
      "for this run",
    ]
  ) {
    assert.ok(warnings.some((w) => w.includes(expected)), expected);
  }
  const stamps = r["timestamps"] as string[];
  assert.equal(stamps.length, 96);
  assert.equal(stamps[0], "2005-07-01T00:00:00");
  assert.equal(stamps[95], "2005-07-04T23:00:00");
});

const storageModel = (subset?: readonly string[]) =>
  importCalliopeModel(`${TEST_MODEL}/energy_cap_per_storage_cap.yaml`, {
    overrides: {
      "techs.my_storage.constraints.energy_cap_per_storage_cap_min": 1,
      "techs.my_storage.constraints.storage_cap_equals": 900,
      ...(subset === undefined ? {} : { "model.subset_time": subset }),
    },
  });

Deno.test("TestEnergyCapacityPerStorageCapacity test_operate_mode", async () => {
  const r = await operate(await storageModel(), 24, 24);
  assert.equal(r.termination_condition, "optimal");
  assert.equal((r["timestamps"] as string[]).length, 24);
});

Deno.test("TestEnergyCapacityPerStorageCapacity test_operate_mode_horizon_window", async () => {
  const config = await storageModel(["2005-01-01", "2005-01-05"]);
  for (const [horizon, window] of [[24, 24], [48, 48], [72, 48], [144, 24]] as const) {
    const r = await operate(config, window, horizon);
    assert.ok(r.termination !== "error", `${horizon}/${window}: ${r.termination_condition}`);
    assert.equal((r["timestamps"] as string[]).length, 120);
  }
});
