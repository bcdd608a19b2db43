import assert from "node:assert/strict";
import { prepareModel } from "../../../lib/model/preprocess/resolve_model.ts";
import { reserveMarginProblems } from "../../../lib/model/preprocess/reserve_margin.ts";
import type { TechCarriers } from "../../../lib/model/preprocess/carriers.ts";
import { supplyDemandModel } from "../../fixtures/model/small_models.ts";

const tiers = (out: string[], inn: string[] = []): TechCarriers => ({
  tiers: { in: inn, in_2: [], in_3: [], out, out_2: [], out_3: [] },
  main: out[0] ?? inn[0]!,
});

Deno.test("reserveMarginProblems() refuses a carrier no technology has, keeps one without demand", () => {
  const techs = [tiers(["power"], ["resource"]), tiers(["heat"], ["gas"])];
  assert.deepEqual(reserveMarginProblems(undefined, techs), []);
  assert.deepEqual(reserveMarginProblems({ power: 0.1, heat: 0, gas: 1 }, techs), []);
  assert.deepEqual(reserveMarginProblems({ power: 0.1, electricity: 0.1 }, techs), [{
    path: "parameters.reserve_margin.electricity",
    message: 'no technology of the model has carrier "electricity"',
  }]);
});

Deno.test("prepareModel() carries parameters.reserve_margin and refuses an unknown carrier", () => {
  const ok = prepareModel({
    ...supplyDemandModel(4),
    parameters: { reserve_margin: { power: 0.1 } },
  });
  assert.ok(ok.ok);
  assert.deepEqual(ok.model.reserveMargin, { power: 0.1 });
  const none = prepareModel(supplyDemandModel(4));
  assert.ok(none.ok);
  assert.equal(none.model.reserveMargin, undefined);
  const bad = prepareModel({
    ...supplyDemandModel(4),
    parameters: { reserve_margin: { heat: 0.1 } },
  });
  assert.ok(!bad.ok);
  assert.deepEqual(bad.problems.map((p) => p.path), ["parameters.reserve_margin.heat"]);
  const negative = prepareModel({
    ...supplyDemandModel(4),
    parameters: { reserve_margin: { power: -1 } },
  });
  assert.ok(!negative.ok);
  assert.ok(negative.problems.some((p) => p.path.startsWith("parameters.reserve_margin")));
});

Deno.test("prepareModel() applies model.reserve_margin from a named override group", () => {
  const withGroup = (group: Record<string, unknown>) =>
    prepareModel({
      ...supplyDemandModel(4),
      parameters: { reserve_margin: { power: 0.1 }, scenario: "rm", overrides: { rm: group } },
    });
  const dotted = withGroup({ "model.reserve_margin.power": 0.2 });
  assert.ok(dotted.ok);
  assert.deepEqual(dotted.model.reserveMargin, { power: 0.2 });
  const nested = withGroup({ model: { reserve_margin: { power: 0 } } });
  assert.ok(nested.ok);
  assert.deepEqual(nested.model.reserveMargin, { power: 0 });
  const bad = withGroup({ "model.reserve_margin.power": -1 });
  assert.ok(!bad.ok);
  assert.deepEqual(bad.problems.map((p) => p.path), [
    "parameters.overrides.rm.model.reserve_margin.power",
  ]);
});
