import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import {
  calliopeSeriesCsv,
  exportCalliopeModel,
  writeCalliopeModel,
} from "../../../lib/model/calliope/calliope_export.ts";
import { importCalliopeModel } from "../../../lib/model/calliope/calliope_import.ts";
import { type ModelConfig, modelConfigSchema } from "../../../lib/model/model_config.ts";

const MODELS = fileURLToPath(new URL("../../../data/models/", import.meta.url));

async function roundTrip(model: ModelConfig): Promise<ModelConfig> {
  const dir = await Deno.makeTempDir();
  try {
    await writeCalliopeModel(model, dir);
    return await importCalliopeModel(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("exportCalliopeModel() writes a Calliope 0.6 model directory", async (t) => {
  const model = await importCalliopeModel(join(MODELS, "calliope_national_scale"));
  const files = exportCalliopeModel(model);

  await t.step("model.yaml and one CSV per series", () => {
    assert.deepEqual([...files.keys()].sort(), [
      "model.yaml",
      "timeseries_data/csp_resource.csv",
      "timeseries_data/demand-1.csv",
      "timeseries_data/demand-2.csv",
    ]);
  });

  await t.step("model.yaml holds model, run, techs, locations, links, overrides", () => {
    const text = files.get("model.yaml") ?? "";
    const yaml = parseYaml(text, { version: "1.2" });
    assert.deepEqual(yaml.model, {
      name: "National-scale example model",
      calliope_version: "0.6.10",
      timeseries_data_path: "timeseries_data",
      subset_time: ["2005-01-01", "2005-01-05"],
    });
    assert.deepEqual(yaml.run, {
      solver: "cbc",
      mode: "plan",
      ensure_feasibility: true,
      bigM: 1e6,
      objective_options: { cost_class: { monetary: 1 } },
      zero_threshold: 1e-10,
    });
    assert.deepEqual(yaml.techs.ccgt.essentials, {
      name: "Combined cycle gas turbine",
      color: "#E37A72",
      parent: "supply",
      carrier_out: "power",
    });
    assert.equal(yaml.techs.battery.constraints.storage_cap_max, "inf");
    assert.match(text, /storage_cap_max: inf\n/);
    assert.match(text, /- '2005-01-01'/, "dates quoted so no reader turns them into dates");
    assert.deepEqual(yaml.locations["region1-1"], {
      coordinates: { lat: 41, lon: -2 },
      techs: { csp: null },
    });
    assert.deepEqual(yaml.links["region1,region2"], {
      techs: { ac_transmission: { constraints: { energy_cap_max: 10000 } } },
    });
    assert.equal(yaml.overrides.time_resampling["model.subset_time"], "2005-01");
  });

  await t.step("CSV in Calliope's layout", () => {
    const csv = files.get("timeseries_data/demand-1.csv") ?? "";
    const lines = csv.split("\n");
    assert.equal(lines[0], ",demand");
    assert.equal(lines[1], "2005-01-01 00:00:00,-25284.48");
    assert.equal(lines.length, 8762);
  });

  await t.step("importing the export gives the same model", async () => {
    assert.deepEqual(await roundTrip(model), model);
  });
});

Deno.test("exportCalliopeModel() maps ModelConfig spellings to Calliope's", async () => {
  const model = modelConfigSchema.parse({
    name: "spellings",
    description: "ts references,\nresampling",
    technologies: [
      {
        name: "d",
        type: "demand",
        carrier: "power",
        constraints: { resource: "ts:load:a" },
      },
      {
        name: "s",
        type: "supply",
        carrier_out: "power",
        constraints: { energy_cap_max: ".inf", resource: "inf" },
        costs: { monetary: { om_prod: 0.1 } },
      },
      { name: "line", type: "transmission", carrier: "power" },
    ],
    locations: [
      { id: "a", x: 0, y: 0, constraints: { available_area: 10 }, technologies: ["d", "s"] },
      { id: "b" },
    ],
    links: [{ source: "a", target: "b", technology: ["line"], distance: 3 }],
    timeSeries: [{
      id: "load",
      timestamps: ["2005-01-01T00:00", "2005-01-01T01:00"],
      columns: { a: [-1, -2] },
    }],
    parameters: { time_resolution_h: 3, scenario: ["x", "y"], cyclic_storage: false },
  });
  const files = exportCalliopeModel(model);
  const text = files.get("model.yaml") ?? "";
  assert.match(text, /^# spellings: /);
  assert.match(text, /# ts references, resampling\n/);
  assert.match(text, /# scenario: x,y /);
  const yaml = parseYaml(text, { version: "1.2" });
  assert.equal(yaml.techs.d.constraints.resource, "file=load.csv:a");
  assert.equal(yaml.techs.s.constraints.energy_cap_max, "inf");
  assert.deepEqual(yaml.model.time, {
    function: "resample",
    function_options: { resolution: "3H" },
  });
  assert.equal(yaml.run.cyclic_storage, false);
  assert.deepEqual(yaml.locations.a.coordinates, { x: 0, y: 0 });
  assert.equal(yaml.locations.a.available_area, 10);
  assert.deepEqual(yaml.locations.b, { techs: {} }, "an empty location still exists in Calliope");
  assert.deepEqual(yaml.links["a,b"], { techs: { line: { distance: 3 } } });
  assert.equal(
    files.get("timeseries_data/load.csv"),
    ",a\n2005-01-01 00:00:00,-1\n2005-01-01 01:00:00,-2\n",
  );
  const back = await roundTrip(model);
  assert.equal(back.parameters.time_resolution_h, 3);
  assert.equal(back.technologies[0]?.constraints?.resource, "file=load.csv:a");
  assert.deepEqual(back.locations[1], { id: "b", technologies: [] });
  assert.deepEqual(back.links, [{ source: "a", target: "b", technology: "line", distance: 3 }]);
});

Deno.test("calliopeSeriesCsv() quotes column names with commas", () => {
  assert.equal(
    calliopeSeriesCsv({ id: "x", timestamps: ["2005-01-01"], columns: { "a,b": [1] } }),
    ',"a,b"\n2005-01-01 00:00:00,1\n',
  );
});

Deno.test("export and import round-trip the urban-scale example", async () => {
  const model = await importCalliopeModel(join(MODELS, "calliope_urban_scale"));
  assert.deepEqual(await roundTrip(model), model);
});
