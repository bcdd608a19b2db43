import assert from "node:assert/strict";
import fc from "fast-check";
import { prepareModel, resolveModel } from "../../../lib/model/preprocess/resolve_model.ts";
import { type ModelConfigInput, modelConfigSchema } from "../../../lib/model/model_config.ts";
import { type ModelProblem, ModelValidationError } from "../../../lib/model/model_problem.ts";
import { hourly, supplyDemandModel } from "../../fixtures/model/small_models.ts";

function resolve(input: ModelConfigInput) {
  return resolveModel(modelConfigSchema.parse(input));
}

function problemsOf(input: ModelConfigInput): ModelProblem[] {
  try {
    resolve(input);
  } catch (e) {
    if (e instanceof ModelValidationError) return [...e.problems];
    throw e;
  }
  assert.fail("expected a ModelValidationError");
}

function hasProblem(problems: ModelProblem[], path: string, text: RegExp): void {
  const found = problems.find((p) => p.path === path && text.test(p.message));
  assert.ok(found, `no problem at ${path} matching ${text}: ${JSON.stringify(problems)}`);
}

function byId(model: ReturnType<typeof resolve>, id: string) {
  const lt = model.locTechs.find((l) => l.id === id);
  assert.ok(lt, `no loc_tech ${id}: ${model.locTechs.map((l) => l.id)}`);
  return lt;
}

Deno.test("resolveModel() resolves a supply and a demand with Calliope's defaults", () => {
  const m = resolve(supplyDemandModel(48));
  assert.equal(m.name, "small");
  assert.equal(m.timestamps.length, 48);
  assert.equal(m.timestamps[0], "2005-01-01T00:00:00");
  assert.equal(m.timestamps[47], "2005-01-02T23:00:00");
  assert.deepEqual(m.resolution, Array(48).fill(1));
  assert.deepEqual(m.weights, Array(48).fill(1));
  assert.deepEqual(m.costClasses, ["monetary"]);
  assert.deepEqual(m.objectiveWeights, { monetary: 1 });
  assert.equal(m.ensureFeasibility, false);
  assert.equal(m.bigM, 1e9);
  assert.equal(m.cyclicStorage, true);
  assert.deepEqual(m.solver, { method: "choose" });
  assert.deepEqual(m.locTechs.map((l) => l.id), ["r1::ccgt", "r1::demand_power"]);

  const ccgt = byId(m, "r1::ccgt");
  assert.equal(ccgt.constraints.energy_prod, true);
  assert.equal(ccgt.constraints.energy_con, false);
  assert.equal(ccgt.constraints.resource, Infinity);
  assert.equal(ccgt.constraints.energy_eff, 0.5);
  assert.equal(ccgt.constraints.energy_cap_max, 40000);
  assert.equal(ccgt.constraints.energy_cap_min, 0);
  assert.equal(ccgt.constraints.export_cap, Infinity);
  assert.equal(ccgt.constraints.energy_cap_equals, undefined);
  assert.equal(ccgt.constraints.lifetime, 25);
  assert.deepEqual(ccgt.carriers.out, ["power"]);
  assert.deepEqual(ccgt.carriers.in, []);
  const cost = ccgt.costs.monetary!;
  assert.equal(cost.energy_cap, 750);
  assert.equal(cost.om_con, 0.02);
  assert.equal(cost.om_prod, 0);
  assert.ok(Math.abs(cost.depreciation - 0.1101681) < 1e-7);
  assert.deepEqual(ccgt.sets, {
    area: false,
    store: false,
    finiteResource: false,
    ramping: false,
    export: false,
    investmentCost: true,
    omCost: true,
  });

  const demand = byId(m, "r1::demand_power");
  assert.deepEqual(demand.constraints.resource, Array.from({ length: 48 }, (_, i) => -(i + 1)));
  assert.equal(demand.constraints.force_resource, true);
  assert.equal(demand.constraints.energy_con, true);
  assert.equal(demand.constraints.energy_prod, false);
  assert.deepEqual(demand.carriers.in, ["power"]);
  assert.equal(demand.sets.finiteResource, true);
  assert.deepEqual(demand.costs, {});

  assert.deepEqual(m.technologies[0], {
    name: "ccgt",
    type: "supply",
    displayName: "Combined cycle gas turbine",
    color: "#E37A72",
    carrier: "power",
  });
  assert.equal(m.technologies[1]!.carrier, "power");
  assert.deepEqual(m.locations, [{ id: "r1", name: "r1", lat: 51.5074, lon: -0.1278 }]);
});

Deno.test("resolveModel() reads infinity as text and as ±1e15", () => {
  const input = supplyDemandModel(4);
  input.technologies[0]!.constraints = {
    energy_cap_max: "inf",
    resource: -1e15,
    export_cap: 1e15,
    lifetime: 25,
  };
  const ccgt = byId(resolve(input), "r1::ccgt");
  assert.equal(ccgt.constraints.energy_cap_max, Infinity);
  assert.equal(ccgt.constraints.resource, -Infinity);
  assert.equal(ccgt.constraints.export_cap, Infinity);
});

Deno.test("resolveModel() applies location overrides and available_area", () => {
  const input = supplyDemandModel(4);
  input.locations[0]!.technologies = [
    { name: "ccgt", constraints: { energy_cap_max: 100 }, costs: { monetary: { om_prod: 1 } } },
    "demand_power",
  ];
  input.locations[0]!.available_area = 500;
  const m = resolve(input);
  const ccgt = byId(m, "r1::ccgt");
  assert.equal(ccgt.constraints.energy_cap_max, 100);
  assert.equal(ccgt.constraints.energy_eff, 0.5);
  assert.equal(ccgt.costs.monetary!.om_prod, 1);
  assert.equal(ccgt.costs.monetary!.energy_cap, 750);
  assert.equal(m.locations[0]!.available_area, 500);
});

Deno.test("resolveModel() resolves storage with charge_rate and its sets", () => {
  const input = supplyDemandModel(4);
  input.locations[0]!.technologies.push("battery");
  input.technologies.push({
    name: "battery",
    type: "storage",
    carrier: "power",
    constraints: { energy_eff: 0.95, charge_rate: 4, storage_loss: 0.01, lifetime: 25 },
    costs: { monetary: { storage_cap: 200, interest_rate: 0.1 } },
  });
  const b = byId(resolve(input), "r1::battery");
  assert.deepEqual(b.carriers.in, ["power"]);
  assert.deepEqual(b.carriers.out, ["power"]);
  assert.equal(b.constraints.energy_prod, true);
  assert.equal(b.constraints.energy_con, true);
  assert.equal(b.constraints.storage_cap_max, Infinity);
  assert.equal(b.constraints.energy_cap_per_storage_cap_max, 4);
  assert.equal(b.constraints.storage_loss, 0.01);
  assert.equal(b.sets.store, true);
  assert.equal(b.sets.investmentCost, true);
  assert.equal(b.sets.omCost, false);
});

Deno.test("resolveModel() resolves supply_plus with area and storage keys into its sets", () => {
  const input = supplyDemandModel(4);
  input.locations[0]!.technologies.push("csp");
  input.timeSeries![0]!.columns.csp = [0, 1, 2, 3];
  input.technologies.push({
    name: "csp",
    type: "supply_plus",
    carrier_out: "power",
    constraints: {
      resource: "file=demand.csv:csp",
      resource_unit: "energy_per_area",
      storage_cap_max: 614033,
      energy_cap_per_storage_cap_max: 1,
      lifetime: 25,
    },
    costs: { monetary: { interest_rate: 0.1, resource_area: 200 } },
  });
  const csp = byId(resolve(input), "r1::csp");
  assert.equal(csp.constraints.resource_eff, 1);
  assert.deepEqual(csp.constraints.resource, [0, 1, 2, 3]);
  assert.equal(csp.sets.area, true);
  assert.equal(csp.sets.store, true);
  assert.equal(csp.sets.finiteResource, true);
});

Deno.test("resolveModel() resolves conversion_plus carriers, primary carrier and ratios", async (t) => {
  const chp = {
    name: "chp",
    type: "conversion_plus" as const,
    carrier_in: "gas",
    carrier_out: "electricity",
    carrier_out_2: "heat",
    primary_carrier_out: "electricity",
    constraints: { energy_eff: 0.405, carrier_ratios: { carrier_out_2: { heat: 0.8 } } },
  };
  const build = (tech: object) => {
    const input = supplyDemandModel(4);
    input.locations[0]!.technologies.push("chp");
    input.technologies.push(tech as never);
    return input;
  };
  await t.step("tiers, primary and ratios", () => {
    const lt = byId(resolve(build(chp)), "r1::chp");
    assert.deepEqual(lt.carriers, {
      in: ["gas"],
      in_2: [],
      in_3: [],
      out: ["electricity"],
      out_2: ["heat"],
      out_3: [],
    });
    assert.equal(lt.primary_carrier_out, "electricity");
    assert.equal(lt.primary_carrier_in, "gas");
    assert.deepEqual(lt.constraints.carrier_ratios, { out_2: { heat: 0.8 } });
  });
  await t.step("a ratio for a carrier the tier does not have is a problem", () => {
    const bad = { ...chp, constraints: { carrier_ratios: { carrier_out_2: { cooling: 1 } } } };
    hasProblem(
      problemsOf(build(bad)),
      "technologies[2].constraints.carrier_ratios.carrier_out_2.cooling",
      /not a carrier_out_2 of chp/,
    );
  });
  await t.step("several outputs without primary_carrier_out is a problem", () => {
    const { primary_carrier_out: _, ...rest } = chp;
    hasProblem(problemsOf(build(rest)), "technologies[2]", /primary_carrier_out is required/);
  });
  await t.step("a primary carrier that is not an output is a problem", () => {
    hasProblem(
      problemsOf(build({ ...chp, primary_carrier_out: "cooling" })),
      "technologies[2].primary_carrier_out",
      /not one of its carriers/,
    );
  });
});

Deno.test("resolveModel() builds both ends of a link with distance from lat/lon", () => {
  const input = supplyDemandModel(4);
  input.locations[0]!.lat = 51.507222;
  input.locations[0]!.lon = -0.1275;
  input.locations.push({ id: "paris", lat: 48.8567, lon: 2.3508, technologies: [] });
  input.technologies.push({
    name: "hvdc",
    type: "transmission",
    carrier: "power",
    constraints: { energy_eff: 0.9, energy_eff_per_distance: 0.9999999, lifetime: 25 },
    costs: { monetary: { interest_rate: 0.1, energy_cap: 100, energy_cap_per_distance: 0.01 } },
  });
  input.links = [{ source: "r1", target: "paris", technology: "hvdc" }];
  const m = resolve(input);
  const a = byId(m, "r1::hvdc:paris");
  const b = byId(m, "paris::hvdc:r1");
  assert.equal(a.distance, 343834);
  assert.equal(a.remote, "paris");
  assert.equal(b.remote, "r1");
  assert.equal(a.location, "r1");
  assert.ok(Math.abs((a.constraints.energy_eff as number) - 0.9 * 0.9999999 ** 343834) < 1e-12);
  assert.ok(Math.abs(a.costs.monetary!.energy_cap - (100 + 0.01 * 343834)) < 1e-9);
  assert.deepEqual(b.constraints, a.constraints);
  assert.deepEqual(b.costs, a.costs);
  assert.equal(a.sets.investmentCost, true);
  assert.equal(a.sets.area, false);
  // locations in model order, technologies in model order
  assert.deepEqual(m.locTechs.map((l) => l.id), [
    "r1::ccgt",
    "r1::demand_power",
    "r1::hvdc:paris",
    "paris::hvdc:r1",
  ]);
});

Deno.test("resolveModel() uses x/y distance, a given distance, and none without per-distance keys", async (t) => {
  const build = (link: object, perDistance: boolean) => {
    const input = supplyDemandModel(4);
    input.locations = [
      { id: "r1", x: 0, y: 0, technologies: ["ccgt", "demand_power"] },
      { id: "r2", x: 3, y: 4, technologies: [] },
    ];
    input.technologies.push({
      name: "pipe",
      type: "transmission",
      carrier: "power",
      constraints: perDistance ? { energy_eff_per_distance: 0.975 } : {},
    });
    input.links = [{ source: "r1", target: "r2", technology: "pipe", ...link }];
    return byId(resolve(input), "r2::pipe:r1");
  };
  await t.step("euclidean", () => {
    const lt = build({}, true);
    assert.equal(lt.distance, 5);
    assert.ok(Math.abs((lt.constraints.energy_eff as number) - 0.975 ** 5) < 1e-12);
  });
  await t.step("given distance wins", () => {
    const lt = build({ distance: 3 }, true);
    assert.equal(lt.distance, 3);
    assert.ok(Math.abs((lt.constraints.energy_eff as number) - 0.975 ** 3) < 1e-12);
  });
  await t.step("no per-distance key, no distance", () => {
    const lt = build({}, false);
    assert.equal(lt.distance, undefined);
    assert.equal(lt.constraints.energy_eff, 1);
  });
  await t.step("link constraints and costs override the technology", () => {
    const lt = build(
      { constraints: { energy_cap_max: 7 }, costs: { monetary: { om_prod: 2 } } },
      false,
    );
    assert.equal(lt.constraints.energy_cap_max, 7);
    assert.equal(lt.costs.monetary!.om_prod, 2);
  });
});

Deno.test("resolveModel() computes depreciation as Calliope does", async (t) => {
  const dep = (constraints: object, costs: object) => {
    const input = supplyDemandModel(4);
    input.technologies[0]!.constraints = constraints as never;
    input.technologies[0]!.costs = { monetary: costs as never };
    return byId(resolve(input), "r1::ccgt").costs.monetary!.depreciation;
  };
  await t.step("i = 0.1, L = 25", () => {
    assert.ok(
      Math.abs(dep({ lifetime: 25 }, { interest_rate: 0.1, energy_cap: 1 }) - 0.1101681) < 1e-7,
    );
  });
  await t.step("zero interest is 1/L", () => {
    assert.equal(dep({ lifetime: 20 }, { interest_rate: 0, energy_cap: 0 }), 0.05);
  });
  await t.step("a given depreciation_rate wins", () => {
    assert.equal(dep({}, { depreciation_rate: 0.2, energy_cap: 5 }), 0.2);
  });
  await t.step("no capital cost key means 1", () => {
    assert.equal(dep({}, { om_prod: 3, om_annual: 4 }), 1);
  });
  await t.step("missing lifetime and interest_rate are problems naming their paths", () => {
    const input = supplyDemandModel(4);
    input.technologies[0]!.constraints = {};
    input.technologies[0]!.costs = { monetary: { energy_cap: 5 } };
    const problems = problemsOf(input);
    hasProblem(problems, "technologies[0].constraints.lifetime", /lifetime/);
    hasProblem(problems, "technologies[0].costs.monetary.interest_rate", /interest_rate/);
  });
});

Deno.test("resolveModel() reports every problem with its path", async (t) => {
  await t.step("unknown technology at a location, with a suggestion", () => {
    const input = supplyDemandModel(4);
    input.locations[0]!.technologies.push("ccgtt");
    hasProblem(
      problemsOf(input),
      "locations[0].technologies[2]",
      /unknown technology "ccgtt"; did you mean ccgt\?/,
    );
  });
  await t.step("duplicate technology name", () => {
    const input = supplyDemandModel(4);
    input.technologies.push({ name: "ccgt", type: "supply", carrier: "power" });
    hasProblem(problemsOf(input), "technologies[2].name", /defined twice/);
  });
  await t.step("a constraint the type does not allow", () => {
    const input = supplyDemandModel(4);
    input.technologies[0]!.constraints!.storage_cap_max = 10;
    hasProblem(
      problemsOf(input),
      "technologies[0].constraints.storage_cap_max",
      /not allowed for a supply technology \(it applies to supply_plus, storage/,
    );
  });
  await t.step("a cost the type does not allow", () => {
    const input = supplyDemandModel(4);
    input.technologies[1]!.costs = { monetary: { om_prod: 1 } };
    hasProblem(
      problemsOf(input),
      "technologies[1].costs.monetary.om_prod",
      /not allowed for a demand/,
    );
  });
  await t.step("a _systemwide key at a location", () => {
    const input = supplyDemandModel(4);
    input.locations[0]!.technologies[0] = {
      name: "ccgt",
      constraints: { energy_cap_max_systemwide: 5 },
    };
    hasProblem(
      problemsOf(input),
      "locations[0].technologies[0].constraints.energy_cap_max_systemwide",
      /technology as a whole/,
    );
  });
  await t.step("a missing carrier", () => {
    const input = supplyDemandModel(4);
    delete input.technologies[0]!.carrier_out;
    hasProblem(problemsOf(input), "technologies[0]", /needs carrier_out \(or carrier\)/);
  });
  await t.step("a transmission technology placed at a location", () => {
    const input = supplyDemandModel(4);
    input.technologies.push({ name: "line", type: "transmission", carrier: "power" });
    input.locations[0]!.technologies.push("line");
    hasProblem(problemsOf(input), "locations[0].technologies[2]", /place it on a link/);
  });
  await t.step("a link to an unknown location and with a non-transmission technology", () => {
    const input = supplyDemandModel(4);
    input.links = [{ source: "r1", target: "r9", technology: ["ccgt"] }];
    const problems = problemsOf(input);
    hasProblem(problems, "links[0].target", /unknown location "r9"/);
    hasProblem(problems, "links[0].technology[0]", /a link carries transmission/);
  });
  await t.step("a link needing a distance without coordinates", () => {
    const input = supplyDemandModel(4);
    input.locations.push({ id: "r2", technologies: [] });
    input.technologies.push({
      name: "line",
      type: "transmission",
      carrier: "power",
      costs: { monetary: { energy_cap_per_distance: 1, interest_rate: 0 } },
      constraints: { lifetime: 1 },
    });
    input.links = [{ source: "r1", target: "r2", technology: "line" }];
    hasProblem(problemsOf(input), "links[0]", /needs a distance/);
  });
  await t.step("a missing series and a missing column", () => {
    const input = supplyDemandModel(4);
    input.technologies[1]!.constraints = { resource: "file=demnad.csv:r1" };
    hasProblem(
      problemsOf(input),
      "technologies[1].constraints.resource",
      /time series "demnad" referenced by "file=demnad.csv:r1" does not exist; did you mean demand\?/,
    );
    input.technologies[1]!.constraints = { resource: "ts:demand:r2" };
    hasProblem(problemsOf(input), "technologies[1].constraints.resource", /has no column "r2"/);
  });
  await t.step("file= without a column reads the location's column", () => {
    const input = supplyDemandModel(4);
    input.locations.push({ id: "r2", technologies: ["demand_power"] });
    hasProblem(
      problemsOf(input),
      "technologies[1].constraints.resource",
      /no column "r2".*named after location r2/,
    );
  });
  await t.step("no time series used at all", () => {
    const input = supplyDemandModel(4);
    input.technologies[1]!.constraints = { resource: -5 };
    hasProblem(problemsOf(input), "timeSeries", /at least one time series/);
  });
  await t.step("series with different timestamps", () => {
    const input = supplyDemandModel(4);
    input.timeSeries!.push({ id: "other", timestamps: hourly(3), columns: { x: [1, 2, 3] } });
    input.technologies[0]!.constraints!.energy_eff = "ts:other:x";
    hasProblem(problemsOf(input), "timeSeries[1].timestamps", /other timestamps/);
  });
  await t.step("a negative available_area", () => {
    const input = supplyDemandModel(4);
    input.locations[0]!.available_area = -5;
    hasProblem(problemsOf(input), "locations[0].available_area", /-5; it must be 0 or more/);
    delete input.locations[0]!.available_area;
    input.locations[0]!.constraints = { available_area: "-inf" };
    hasProblem(problemsOf(input), "locations[0].constraints.available_area", /"-inf"/);
  });
  await t.step("series that differ outside subset_time are cut first (Calliope)", () => {
    // demand spans two days, the efficiency only the first: one day is what both share.
    const input = supplyDemandModel(48);
    input.timeSeries!.push({
      id: "eff",
      timestamps: hourly(24),
      columns: { x: Array.from({ length: 24 }, (_, i) => 0.4 + i / 100) },
    });
    input.technologies[0]!.constraints!.energy_eff = "ts:eff:x";
    hasProblem(problemsOf(input), "timeSeries[1].timestamps", /other timestamps/);
    input.parameters = { subset_time: "2005-01-01" };
    const model = resolve(input);
    assert.equal(model.timestamps.length, 24);
    const ccgt = model.locTechs.find((lt) => lt.tech === "ccgt")!;
    assert.equal((ccgt.constraints.energy_eff as number[])[23], 0.4 + 23 / 100);
    input.parameters = { subset_time: "2005-01-02" };
    hasProblem(
      problemsOf(input),
      "parameters.subset_time",
      /selects no timestep.*time series "eff"/,
    );
  });
  await t.step("an export carrier that is not an output and a demand without resource", () => {
    const input = supplyDemandModel(4);
    input.technologies[0]!.constraints!.export_carrier = "heat";
    input.locations[0]!.technologies[1] = "demand_power";
    input.locations.push({ id: "r2", technologies: ["demand_power"] });
    input.technologies[1]!.constraints = {};
    const problems = problemsOf(input);
    hasProblem(problems, "technologies[0].constraints.export_carrier", /not an output carrier/);
    hasProblem(problems, "technologies[1].constraints.resource", /needs constraints.resource/);
  });
  await t.step("all problems are collected, not only the first", () => {
    const input = supplyDemandModel(4);
    input.locations[0]!.technologies.push("nope");
    input.technologies[0]!.constraints!.storage_loss = 0.1;
    input.links = [{ source: "r1", target: "zz", technology: "ccgt" }];
    input.technologies[0]!.constraints!.lifetime = 0;
    input.technologies[1]!.constraints = { resource: "file=nothing.csv" };
    const problems = problemsOf(input);
    hasProblem(problems, "locations[0].technologies[2]", /unknown technology/);
    hasProblem(problems, "technologies[0].constraints.storage_loss", /not allowed/);
    hasProblem(problems, "links[0].target", /unknown location/);
    hasProblem(problems, "technologies[0].constraints.lifetime", /lifetime/);
    hasProblem(problems, "technologies[1].constraints.resource", /"nothing" .* does not exist/);
  });
});

Deno.test("resolveModel() applies the scenario first", () => {
  const input = supplyDemandModel(48);
  input.parameters = {
    scenario: "cheap,one_day",
    overrides: {
      cheap: { "techs.ccgt.costs.monetary.energy_cap": 10 },
      one_day: { model: { subset_time: "2005-01-02" }, "run.ensure_feasibility": true },
    },
  };
  const m = resolve(input);
  assert.equal(m.timestamps.length, 24);
  assert.equal(m.timestamps[0], "2005-01-02T00:00:00");
  assert.equal(m.ensureFeasibility, true);
  assert.equal(byId(m, "r1::ccgt").costs.monetary!.energy_cap, 10);
});

Deno.test("resolveModel() reads parameters", () => {
  const input = supplyDemandModel(4);
  input.parameters = {
    ensure_feasibility: true,
    bigM: 1e6,
    cyclic_storage: false,
    objective_cost_class: { monetary: 1, co2: 0.5 },
    solver: { method: "ipm", time_limit_s: 60, threads: 2 },
  };
  const m = resolve(input);
  assert.equal(m.ensureFeasibility, true);
  assert.equal(m.bigM, 1e6);
  assert.equal(m.cyclicStorage, false);
  assert.deepEqual(m.objectiveWeights, { monetary: 1, co2: 0.5 });
  assert.deepEqual(m.costClasses, ["co2", "monetary"]);
  assert.deepEqual(m.solver, { method: "ipm", timeLimitS: 60, threads: 2 });
});

Deno.test("prepareModel() parses and resolves, returning problems instead of throwing", () => {
  const ok = prepareModel(supplyDemandModel(4));
  assert.equal(ok.ok, true);
  const bad = prepareModel({ ...supplyDemandModel(4), extra: 1 });
  assert.equal(bad.ok, false);
  if (!bad.ok) assert.equal(bad.problems[0]!.path, "extra");
  const unresolvable = supplyDemandModel(4);
  unresolvable.locations[0]!.technologies.push("nope");
  const r = prepareModel(unresolvable);
  assert.equal(r.ok, false);
  for (const body of [null, [], "x", 3, { locations: "x" }]) {
    assert.equal(prepareModel(body).ok, false);
  }
});

Deno.test("prepareModel() never throws on arbitrary JSON, also inside a valid model", () => {
  fc.assert(
    fc.property(fc.jsonValue(), (body) => {
      prepareModel(body);
    }),
    { numRuns: 300 },
  );
  fc.assert(
    fc.property(fc.jsonValue(), fc.jsonValue(), (constraints, overrides) => {
      const input = supplyDemandModel(4) as
        & Record<string, unknown>
        & ReturnType<
          typeof supplyDemandModel
        >;
      (input.technologies[0] as Record<string, unknown>).constraints = constraints;
      prepareModel(input);
      const withScenario = supplyDemandModel(4);
      withScenario.parameters = { scenario: "x", overrides: { x: { techs: overrides } } };
      prepareModel(withScenario);
    }),
    { numRuns: 300 },
  );
});
