import assert from "node:assert/strict";
import { knownKeysAt, parseModelConfig } from "../../lib/model/parse_model_config.ts";
import { supplyDemandModel } from "../fixtures/model/small_models.ts";

function problems(body: unknown) {
  const r = parseModelConfig(body);
  assert.equal(r.ok, false);
  return r.ok ? [] : r.problems;
}

Deno.test("parseModelConfig() accepts a valid model and fills schema defaults", () => {
  const input = supplyDemandModel(4);
  delete input.name;
  const r = parseModelConfig(input);
  assert.ok(r.ok);
  if (r.ok) {
    assert.equal(r.config.name, "Unnamed model");
    assert.deepEqual(r.config.links, []);
    assert.deepEqual(r.config.parameters, {});
  }
});

Deno.test("parseModelConfig() names each unknown key with a suggestion", async (t) => {
  await t.step("closest known key", () => {
    const input = supplyDemandModel(4);
    (input.technologies[0]!.constraints as Record<string, unknown>).energy_cap_mx = 5;
    assert.deepEqual(problems(input), [{
      path: "technologies[0].constraints.energy_cap_mx",
      message: 'unknown key "energy_cap_mx"; did you mean energy_cap_max?',
    }]);
  });
  await t.step("a cost key inside a cost class", () => {
    const input = supplyDemandModel(4);
    (input.technologies[0]!.costs!.monetary as Record<string, unknown>).energy_cp = 5;
    const [p] = problems(input);
    assert.equal(p!.path, "technologies[0].costs.monetary.energy_cp");
    assert.match(p!.message, /did you mean energy_cap\?/);
  });
  await t.step("a location override key", () => {
    const input = supplyDemandModel(4);
    input.locations[0]!.technologies[0] = {
      name: "ccgt",
      constraints: { energy_cap_maxx: 1 } as never,
    };
    const [p] = problems(input);
    assert.equal(p!.path, "locations[0].technologies[0].constraints.energy_cap_maxx");
    assert.match(p!.message, /did you mean energy_cap_max\?/);
  });
  await t.step("MILP keys are accepted", () => {
    const input = supplyDemandModel(4);
    Object.assign(input.technologies[0]!.constraints!, { units_max: 3, energy_cap_per_unit: 5 });
    Object.assign(input.technologies[0]!.costs!.monetary!, { purchase: 3 });
    assert.equal(parseModelConfig(input).ok, true);
  });
  await t.step("keys the runner does not implement", () => {
    const input = supplyDemandModel(4);
    Object.assign(input.technologies[0]!.constraints!, { one_way: true });
    const [p] = problems(input);
    assert.match(p!.message, /"one_way": this Calliope key is not implemented/);
  });
  await t.step("several unknown keys in one object, each on its own", () => {
    const ps = problems({ ...supplyDemandModel(4), foo: 1, parametres: {} });
    assert.deepEqual(ps.map((p) => p.path), ["foo", "parametres"]);
    assert.match(ps[1]!.message, /did you mean parameters\?/);
  });
});

Deno.test("parseModelConfig() reports wrong values by path", () => {
  const input = supplyDemandModel(4);
  (input.technologies[0]!.constraints as Record<string, unknown>).energy_cap_max = "lots";
  (input.technologies[0] as Record<string, unknown>).type = "suply";
  const ps = problems(input);
  const paths = ps.map((p) => p.path);
  assert.ok(paths.includes("technologies[0].constraints.energy_cap_max"), JSON.stringify(ps));
  assert.ok(paths.includes("technologies[0].type"));
});

Deno.test("parseModelConfig() never throws", () => {
  let deep: unknown = 1;
  for (let i = 0; i < 10_000; i++) deep = { a: deep };
  const weird = [null, undefined, [], "model", 42, true, { locations: null }, deep, {
    locations: [deep],
    technologies: [deep],
    parameters: { overrides: { x: deep } },
  }];
  for (const body of weird) assert.equal(parseModelConfig(body).ok, false);
});

Deno.test("knownKeysAt() finds the object schema along a path", () => {
  assert.ok(knownKeysAt(["technologies", 0, "constraints"]).includes("energy_cap_max"));
  assert.ok(knownKeysAt(["technologies", 0, "costs", "monetary"]).includes("om_prod"));
  assert.ok(knownKeysAt(["locations", 0, "technologies", 1]).includes("constraints"));
  assert.deepEqual(knownKeysAt(["nope"]), []);
});
