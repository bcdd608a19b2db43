import assert from "node:assert/strict";
import { operateOptions } from "../../../lib/model/operate/operate_options.ts";
import { prepareOperate } from "../../../lib/model/operate/prepare_operate.ts";
import { nationalOperateModel } from "./_national_operate.ts";
import { createHighsModelRunner } from "../../../lib/runner/highs_model_runner.ts";

const model = await nationalOperateModel();

Deno.test("national operate: capacities fixed, Calliope's warnings, no cyclic storage", () => {
  const r = prepareOperate(model, operateOptions({ window: 12, horizon: 24 }));
  assert.ok(r.ok);
  assert.equal(r.model.timestamps.length, 72);
  assert.ok(r.warnings.includes(
    "Resource capacity constraint defined and set to infinity for all supply_plus techs",
  ));
  assert.ok(r.warnings.some((w) => w.startsWith("Storage cannot be cyclic in operate run mode")));
  assert.equal(r.model.cyclicStorage, false);
  const byId = new Map(r.model.locTechs.map((lt) => [lt.id, lt.constraints]));
  assert.equal(byId.get("region1::ccgt")?.energy_cap_equals, 30000);
  assert.equal(byId.get("region2::battery")?.storage_cap_equals, 5240);
  assert.equal(byId.get("region1-1::csp")?.storage_cap_equals, 244301);
  assert.equal(byId.get("region1-1::csp")?.storage_initial, 0);
  const ac = r.model.locTechs.find((lt) => lt.tech === "ac_transmission")!;
  assert.equal(ac.constraints.energy_cap_equals, 3231);
  // csp's resource_cap has no _max: infinite, left free as Calliope's inf parameter.
  assert.equal(byId.get("region1-1::csp")?.resource_cap_equals, undefined);
  assert.equal(byId.get("region1-1::csp")?.resource_cap_max, Infinity);
});

Deno.test("Calliope's errors: missing window or horizon, horizon < window", () => {
  const missing = prepareOperate(model, operateOptions({ window: 12 }));
  assert.ok(!missing.ok);
  assert.deepEqual(missing.problems, [
    "Operational mode requires a timestep window and horizon to be defined under run.operation",
  ]);
  const short = prepareOperate(model, operateOptions({ window: 24, horizon: 12 }));
  assert.ok(!short.ok);
  assert.deepEqual(short.problems, [
    "Iteration horizon must be larger than iteration window, for operational mode",
  ]);
  const noCaps = prepareOperate(
    model,
    operateOptions({ window: 12, horizon: 24, use_cap_results: true }),
  );
  assert.ok(!noCaps.ok);
});

Deno.test("use_cap_results: a plan result's capacities are the fixed ones", () => {
  const r = prepareOperate(
    model,
    operateOptions({ window: 12, horizon: 24, use_cap_results: true }),
    { "region1::ccgt": { energy_cap: 1234 } },
  );
  assert.ok(r.ok);
  const ccgt = r.model.locTechs.find((lt) => lt.id === "region1::ccgt")!;
  assert.equal(ccgt.constraints.energy_cap_equals, 1234);
});

Deno.test("the fixed-capacity national model solves optimal over the whole period", async () => {
  const r = prepareOperate(model, operateOptions({ window: 72, horizon: 72 }));
  assert.ok(r.ok);
  const runner = await createHighsModelRunner({ solveIn: "process" });
  const hooks = { log: () => {}, progress: () => {}, signal: new AbortController().signal };
  const result = await runner.run(r.model, hooks);
  assert.equal(result.termination_condition, "optimal");
});

Deno.test("Calliope's capacity errors: an infinite energy_cap with energy_cap_min_use", () => {
  const broken = {
    ...model,
    locTechs: model.locTechs.map((lt) => {
      if (lt.id !== "region1::ccgt") return lt;
      const { energy_cap_equals: _e, ...c } = lt.constraints;
      return { ...lt, constraints: { ...c, energy_cap_max: Infinity, energy_cap_min_use: 0.2 } };
    }),
  };
  const r = prepareOperate(broken, operateOptions({ window: 12, horizon: 24 }));
  assert.ok(!r.ok);
  assert.deepEqual(r.problems, [
    "Operate mode: User must define a finite energy_cap (via energy_cap_equals or " +
    "energy_cap_max) for region1::ccgt",
  ]);
});

Deno.test("operate builds no investment costs and no available_area rows", () => {
  const r = prepareOperate(model, operateOptions({ window: 12, horizon: 24 }));
  assert.ok(r.ok);
  for (const lt of r.model.locTechs) {
    for (const k of Object.values(lt.costs)) {
      assert.equal(k.energy_cap + k.storage_cap + k.resource_cap + k.resource_area, 0);
      assert.equal(k.om_annual, 0);
    }
  }
  assert.ok(r.model.locations.every((l) => l.available_area === undefined));
});
