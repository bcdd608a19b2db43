import assert from "node:assert/strict";
import { isFrontendModel, readFrontendModel } from "../../../lib/model/frontend/frontend_model.ts";
import { modelConfigSchema } from "../../../lib/model/model_config.ts";
import type { ModelProblem } from "../../../lib/model/model_problem.ts";

const fixture = JSON.parse(
  await Deno.readTextFile(
    new URL("../../fixtures/model/national_scale_frontend.json", import.meta.url),
  ),
);

// deno-lint-ignore no-explicit-any
type Json = any;

/** A small frontend model; `patch` replaces top-level keys. */
function model(patch: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: "7",
    name: "Small",
    parameters: [],
    technologies: [
      { name: "pv", parent: "supply", essentials: { carrier_out: "electricity" } },
      { name: "demand", parent: "demand", essentials: { carrier: "electricity" } },
      { name: "ac", parent: "transmission", essentials: { carrier: "electricity" } },
    ],
    locations: [
      { name: "A", lat: 0, lon: 0, techs: { pv: null, demand: null } },
      { name: "B", latitude: 50, longitude: 10, techs: { demand: null } },
    ],
    links: [{ from: "A", to: "B", tech: "ac", capacity: 0, distance: 0 }],
    timeSeries: [],
    ...patch,
  };
}

function read(body: unknown): { config: Json; notes: string[] } {
  const r = readFrontendModel(body);
  if (!r.ok) assert.fail(JSON.stringify(r.problems));
  return { config: r.config as Json, notes: r.notes };
}

function problems(body: unknown): ModelProblem[] {
  const r = readFrontendModel(body);
  if (r.ok) assert.fail("expected problems");
  return r.problems;
}

Deno.test("readFrontendModel() reads the national-scale example as the frontend sends it", async (t) => {
  const { config, notes } = read(fixture);
  const parsed = modelConfigSchema.safeParse(config);
  await t.step("passes modelConfigSchema", () => {
    assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
  });
  await t.step("technologies", () => {
    assert.deepEqual(
      config.technologies.map((x: Json) => [x.name, x.type]),
      [
        ["ccgt", "supply"],
        ["csp", "supply_plus"],
        ["battery", "storage"],
        ["demand_power", "demand"],
        ["ac_transmission", "transmission"],
        ["free_transmission", "transmission"],
      ],
    );
    const [ccgt, csp, battery, demand, , free] = config.technologies;
    assert.equal(ccgt.carrier_out, "power");
    assert.equal(ccgt.constraints.resource, "inf");
    assert.equal(csp.constraints.resource, "file=csp_resource.csv");
    assert.equal(csp.constraints.resource_area_max, "inf");
    assert.equal(battery.carrier, "power");
    assert.equal(battery.carrier_in, undefined);
    assert.equal(battery.constraints.storage_cap_max, "inf");
    assert.deepEqual(demand, {
      name: "demand_power",
      type: "demand",
      carrier: "power",
      essentials: { name: "Power demand", color: "#072486" },
    });
    assert.equal(free.constraints.energy_cap_max, "inf");
    assert.deepEqual(free.costs, { monetary: { om_prod: 0 } });
    assert.ok(notes.some((n) => /technology keys dropped.*description/.test(n)));
  });
  await t.step("locations", () => {
    assert.deepEqual(
      config.locations.map((l: Json) => [l.id, l.lat, l.lon]),
      [["region1-1", 41, -2], ["region1-2", 39, -1], ["region1-3", 39, -2], ["region1", 40, -2], [
        "region2",
        40,
        -8,
      ]],
    );
    assert.deepEqual(config.locations[0].technologies, ["csp"]);
    assert.deepEqual(config.locations[3].technologies, [
      { name: "demand_power", constraints: { resource: "file=demand-1.csv:demand" } },
      { name: "ccgt", constraints: { energy_cap_max: 30000 } },
    ]);
    assert.deepEqual(config.locations[4].technologies, [
      { name: "demand_power", constraints: { resource: "file=demand-2.csv:demand" } },
      "battery",
    ]);
  });
  await t.step("links: capacity 10000 kept, capacity 0 and distance 0 absent", () => {
    assert.deepEqual(config.links, [
      {
        source: "region1",
        target: "region2",
        technology: "ac_transmission",
        constraints: { energy_cap_max: 10000 },
      },
      { source: "region1", target: "region1-1", technology: "free_transmission" },
      { source: "region1", target: "region1-2", technology: "free_transmission" },
      { source: "region1", target: "region1-3", technology: "free_transmission" },
    ]);
  });
  await t.step("time series", () => {
    assert.deepEqual(config.timeSeries.map((s: Json) => s.id), [
      "csp_resource",
      "demand-1",
      "demand-2",
    ]);
    const demand1 = config.timeSeries[1];
    assert.equal(demand1.timestamps.length, 24);
    assert.equal(demand1.timestamps[0], "2005-01-01 00:00:00");
    assert.equal(demand1.columns.demand[0], -25284.48);
    assert.deepEqual(Object.keys(config.timeSeries[0].columns), [
      "region1-1",
      "region1-2",
      "region1-3",
    ]);
  });
  await t.step("parameters: the Run form wins over metadata.subsetTime", () => {
    assert.deepEqual(config.parameters, {
      subset_time: ["2005-01-01", "2005-01-01"],
      ensure_feasibility: true,
      cyclic_storage: true,
      bigM: 1e6,
    });
    assert.equal(config.id, "1");
    assert.equal(config.name, "National-scale example model");
    assert.match(config.description, /national-scale/);
  });
});

Deno.test("isFrontendModel() tells the frontend's form from the canonical one", async (t) => {
  await t.step("the fixture is frontend", () => assert.ok(isFrontendModel(fixture)));
  await t.step("parameters as a list", () => assert.ok(isFrontendModel({ parameters: [] })));
  await t.step("location techs", () => assert.ok(isFrontendModel({ locations: [{ techs: {} }] })));
  await t.step("link from/to", () => assert.ok(isFrontendModel({ links: [{ from: "a" }] })));
  await t.step("modelConfig", () => assert.ok(isFrontendModel({ modelConfig: {} })));
  await t.step("canonical is not", () => {
    const canonical = read(fixture).config;
    assert.equal(isFrontendModel(canonical), false);
  });
  await t.step("not an object", () => assert.equal(isFrontendModel([]), false));
});

Deno.test("readFrontendModel() keeps coordinates of 0 and reads every spelling", () => {
  const { config } = read(model({
    locations: [
      { name: "A", lat: 0, lon: 0, techs: { pv: null } },
      { name: "B", latitude: 0, lng: 5, techs: { pv: null } },
      { name: "C", coordinates: { lat: 1, lon: 0 }, techs: { pv: null } },
      { name: "D", techs: { pv: null } },
    ],
    links: [],
  }));
  assert.deepEqual(
    config.locations.map((l: Json) => [l.id, l.lat, l.lon]),
    [["a", 0, 0], ["b", 0, 5], ["c", 1, 0], ["d", undefined, undefined]],
  );
});

Deno.test("readFrontendModel() keys technologies and locations by the lower-cased safe id", () => {
  const { config } = read(model({
    technologies: [
      {
        id: "pv-1",
        name: "Solar PV",
        parent: "supply",
        carrier_out: "electricity",
        oeo_class: "x",
      },
      { name: "demand", parent: "demand" },
    ],
    locations: [{ name: "North Hub", techs: { "Solar PV": null, "pv-1": null, solar_pv: null } }],
    links: [],
  }));
  assert.equal(config.technologies[0].name, "solar_pv");
  assert.deepEqual(config.technologies[0].essentials, { name: "Solar PV" });
  assert.equal(config.locations[0].id, "north_hub");
  assert.equal(config.locations[0].name, "North Hub");
  // Three spellings of one technology, and demand added where no location had it.
  assert.deepEqual(config.locations[0].technologies, ["solar_pv", "demand"]);
  assert.equal(config.technologies[1].carrier, "electricity");
});

Deno.test("readFrontendModel() maps infinity at technology and location level", () => {
  const { config } = read(model({
    technologies: [
      {
        name: "pv",
        parent: "supply",
        carrier_out: "electricity",
        constraints: { energy_cap_max: 1e15, resource: ".inf" },
        costs: { monetary: { energy_cap: 10 }, co2: { om_prod: -1e15 } },
      },
      { name: "demand", parent: "demand" },
    ],
    locations: [{
      name: "A",
      techs: {
        pv: {
          constraints: { energy_cap_max: "inf", energy_cap_min: null },
          costs: { monetary: { om_prod: 1e16 } },
        },
        demand: null,
      },
    }],
    links: [],
  }));
  assert.deepEqual(config.technologies[0].constraints, { energy_cap_max: "inf", resource: "inf" });
  assert.deepEqual(config.technologies[0].costs, {
    monetary: { energy_cap: 10 },
    co2: { om_prod: "-inf" },
  });
  assert.deepEqual(config.locations[0].technologies[0], {
    name: "pv",
    constraints: { energy_cap_max: "inf" },
    costs: { monetary: { om_prod: "inf" } },
  });
});

Deno.test("readFrontendModel() reports an unknown technology reference by its path", () => {
  const found = problems(model({
    locations: [{ name: "A", techs: { pv: null, nuclear: { constraints: {} } } }],
    links: [],
  }));
  assert.deepEqual(found, [{
    path: "locations[0].techs.nuclear",
    message: '"nuclear" names no technology of the model',
  }]);
});

Deno.test("readFrontendModel() lets locationTechAssignments replace a location's techs", () => {
  const { config } = read(model({
    locationTechAssignments: { A: ["demand"], b: ["pv", "demand"] },
  }));
  assert.deepEqual(config.locations[0].technologies, ["demand"]);
  assert.deepEqual(config.locations[1].technologies, ["pv", "demand"]);
  const bad = problems(model({ locationTechAssignments: { Z: ["pv"], A: ["coal"] } }));
  assert.deepEqual(bad.map((p) => p.path), [
    "locationTechAssignments.A[0]",
    "locationTechAssignments.Z",
  ]);
});

Deno.test("readFrontendModel() reads links", async (t) => {
  await t.step("capacity and distance > 0 are kept, 0 is absent", () => {
    const { config } = read(model({
      links: [
        { from: "A", to: "B", tech: "ac", capacity: 500, distance: 12.5 },
        { from: "A", to: "B", tech: "ac", capacity: 0, distance: 0 },
        { from: "a", to: "b", techs: ["ac"], capacity: 1e15 },
      ],
    }));
    assert.deepEqual(config.links, [
      {
        source: "a",
        target: "b",
        technology: "ac",
        distance: 12.5,
        constraints: { energy_cap_max: 500 },
      },
      { source: "a", target: "b", technology: "ac" },
      { source: "a", target: "b", technology: "ac", constraints: { energy_cap_max: "inf" } },
    ]);
  });
  await t.step("a linkType the model lacks defines a transmission technology, with a note", () => {
    const { config, notes } = read(model({
      links: [{ from: "A", to: "B", linkType: "district_heat" }, {
        from: "A",
        to: "B",
        linkType: "my_line",
      }],
    }));
    assert.deepEqual(config.links.map((l: Json) => l.technology), [
      "district_heating_networks",
      "my_line",
    ]);
    assert.deepEqual(config.technologies.slice(3), [
      { name: "district_heating_networks", type: "transmission", carrier: "heat" },
      { name: "my_line", type: "transmission", carrier: "electricity" },
    ]);
    assert.ok(notes.some((n) => n.startsWith('links[0]: link type "district_heat"')));
  });
  await t.step("a linkType whose technology exists uses it", () => {
    const { config } = read(model({ links: [{ from: "A", to: "B", linkType: "ac" }] }));
    assert.equal(config.links[0].technology, "ac");
    assert.equal(config.technologies.length, 3);
  });
  await t.step("a missing tech, a non-transmission tech and an unknown end are problems", () => {
    const found = problems(model({
      links: [
        { from: "A", to: "B", tech: "hvdc" },
        { from: "A", to: "B", tech: "pv" },
        { from: "A", to: "Q", tech: "ac" },
        { from: "A", to: "B" },
      ],
    }));
    assert.deepEqual(found.map((p) => p.path), [
      "links[0].tech",
      "links[1].tech",
      "links[2].to",
      "links[3].tech",
    ]);
  });
});

Deno.test("readFrontendModel() reads run settings", async (t) => {
  await t.step("parameters rows give subset_time; other rows are noted", () => {
    const { config, notes } = read(model({
      parameters: [
        { key: "subset_time_start", value: "2005-01-02" },
        { key: "subset_time_end", value: "2005-01-03 23:00:00" },
        { key: "something", value: 3 },
      ],
    }));
    assert.deepEqual(config.parameters.subset_time, ["2005-01-02", "2005-01-03"]);
    assert.equal(config.parameters.ensure_feasibility, true);
    assert.equal(config.parameters.bigM, 1e6);
    assert.ok(notes.some((n) => /1 row\(s\) other than/.test(n)));
  });
  await t.step("metadata.subsetTime is used when nothing else is", () => {
    const { config } = read(model({
      metadata: {
        subsetTime: ["2005-01-01", "2005-01-05"],
        runConfig: { ensure_feasibility: false },
      },
    }));
    assert.deepEqual(config.parameters.subset_time, ["2005-01-01", "2005-01-05"]);
    // runConfig.ensure_feasibility is not inherited, as that client's runner.
    assert.equal(config.parameters.ensure_feasibility, true);
  });
  await t.step("modelConfig wins over rows and metadata", () => {
    const { config, notes } = read(model({
      parameters: [{ key: "subset_time_start", value: "2005-01-02" }, {
        key: "subset_time_end",
        value: "2005-01-03",
      }],
      metadata: { subsetTime: ["2005-01-01", "2005-01-05"] },
      solver: "gurobi",
      modelConfig: {
        startDate: "2005-02-01T00:00:00Z",
        endDate: "2005-02-07",
        mode: "plan",
        ensureFeasibility: false,
        cyclicStorage: false,
        solverOptions: { timeLimit: 60, threads: 2, method: "ipm", mipGap: 0.01 },
      },
    }));
    assert.deepEqual(config.parameters, {
      subset_time: ["2005-02-01", "2005-02-07"],
      ensure_feasibility: false,
      cyclic_storage: false,
      solver: { name: "gurobi", time_limit_s: 60, threads: 2, method: "ipm", mip_rel_gap: 0.01 },
      bigM: 1e6,
    });
    assert.ok(!notes.some((n) => /mipGap ignored/.test(n)));
  });
  await t.step("operate mode is taken, with run.operation from the form or runConfig", () => {
    const form = read(
      model({ modelConfig: { mode: "operate", operation: { window: 12, horizon: 24 } } }),
    );
    assert.equal(form.config.parameters.mode, "operate");
    assert.deepEqual(form.config.parameters.operation, { window: 12, horizon: 24 });
    assert.deepEqual(problems(model({ modelConfig: { mode: "spores" } })).map((p) => p.path), [
      "modelConfig.mode",
    ]);
  });
  await t.step("overrides are copied when not empty", () => {
    const overrides = { cold: { "techs.pv.constraints.energy_cap_max": 5 } };
    assert.deepEqual(
      read(model({ overrides, scenarios: {} })).config.parameters.overrides,
      overrides,
    );
    assert.equal(read(model({ overrides: {} })).config.parameters.overrides, undefined);
  });
});

Deno.test("readFrontendModel() turns demandProfile into a negated demand_profiles series", () => {
  const dates = ["2024-01-01 00:00:00", "2024-01-01 01:00:00"];
  const { config, notes } = read(model({
    locations: [
      {
        name: "A",
        techs: { pv: null, demand: null },
        demandProfile: { timeseries: [10, 0], dates },
      },
      { name: "B", techs: { demand: null }, demandProfile: { timeseries: [1, 2, 3] } },
    ],
    links: [],
  }));
  assert.deepEqual(config.timeSeries, [{
    id: "demand_profiles",
    timestamps: dates,
    columns: { a: [-10, 0] },
  }]);
  assert.deepEqual(config.locations[0].technologies[1], {
    name: "demand",
    constraints: { resource: "file=demand_profiles.csv:a", force_resource: true },
  });
  assert.equal(config.locations[1].technologies[0], "demand");
  assert.ok(notes.some((n) => /locations\[1\]\.demandProfile ignored/.test(n)));
  assert.ok(modelConfigSchema.safeParse(config).success);
});

Deno.test("readFrontendModel() leaves file= references when timeSeries is empty", () => {
  const body = structuredClone(fixture);
  body.timeSeries = [];
  const { config } = read(body);
  assert.deepEqual(config.timeSeries, []);
  assert.equal(config.technologies[1].constraints.resource, "file=csp_resource.csv");
});

Deno.test("readFrontendModel() reports a technology without a valid parent", () => {
  const found = problems(model({ technologies: [{ name: "x", parent: "hub" }] }));
  assert.equal(found[0]?.path, "technologies[0].parent");
});
