import assert from "node:assert/strict";
import { convertReserveMargin } from "../../../lib/model/calliope/calliope_reserve_margin.ts";
import { importCalliopeModel } from "../../../lib/model/calliope/calliope_import.ts";
import { writeCalliopeModel } from "../../../lib/model/calliope/calliope_export.ts";
import { parseCalliopeYaml } from "../../../lib/model/calliope/calliope_yaml.ts";
import type { ModelProblem } from "../../../lib/model/model_problem.ts";

const TECHS = `
tech_groups:
  power_plant: {essentials: {parent: supply, carrier_out: power}}
techs:
  ccgt: {essentials: {parent: power_plant}}
  boiler: {essentials: {parent: conversion, carrier_in: gas, carrier_out: heat}}
  chp: {essentials: {parent: conversion_plus, carrier_in: gas, carrier_out: [power, steam]}}
  demand_cold: {essentials: {parent: demand, carrier: cold}}
`;

function convert(reserveMargin: string) {
  const config = parseCalliopeYaml(`${TECHS}\nmodel: {reserve_margin: ${reserveMargin}}\n`);
  const problems: ModelProblem[] = [];
  const params: Record<string, unknown> = {};
  convertReserveMargin(config, params, (path, message) => problems.push({ path, message }));
  return { params, problems };
}

Deno.test("convertReserveMargin() reads carriers named by techs and tech groups", () => {
  const { params, problems } = convert(
    "{power: 0.1, heat: 0, steam: '0.25', cold: 2, gas: 1e-3}",
  );
  assert.deepEqual(problems, []);
  assert.deepEqual(params["reserve_margin"], {
    power: 0.1,
    heat: 0,
    steam: 0.25,
    cold: 2,
    gas: 0.001,
  });
});

Deno.test("convertReserveMargin() without or with an empty reserve_margin writes nothing", () => {
  const config = parseCalliopeYaml(TECHS);
  const params: Record<string, unknown> = {};
  convertReserveMargin(config, params, () => assert.fail("no problem expected"));
  assert.deepEqual(params, {});
  assert.deepEqual(convert("{}"), { params: {}, problems: [] });
});

Deno.test("convertReserveMargin() refuses bad values and unknown carriers at their path", () => {
  const { params, problems } = convert(
    "{power: -0.1, heat: .inf, steam: lots, cold: null, electricity: 0.1, gas: [0.1]}",
  );
  assert.equal(params["reserve_margin"], undefined);
  assert.deepEqual(problems.map((p) => p.path), [
    "model.reserve_margin.power",
    "model.reserve_margin.heat",
    "model.reserve_margin.steam",
    "model.reserve_margin.cold",
    "model.reserve_margin.electricity",
    "model.reserve_margin.gas",
  ]);
  assert.match(problems[4]!.message, /no technology of the model has carrier "electricity"/);
  assert.match(problems[0]!.message, /finite number >= 0/);
});

Deno.test("convertReserveMargin() refuses a reserve_margin that is not a mapping", () => {
  const { params, problems } = convert("0.1");
  assert.equal(params["reserve_margin"], undefined);
  assert.deepEqual(problems.map((p) => p.path), ["model.reserve_margin"]);
});

Deno.test("reserve_margin survives export and re-import (national-scale, scenario reserve_margin)", async () => {
  const national =
    new URL("../../../data/models/calliope_national_scale", import.meta.url).pathname;
  const model = await importCalliopeModel(national, { scenario: "reserve_margin" });
  assert.deepEqual(model.parameters.reserve_margin, { power: 0.1 });
  const dir = await Deno.makeTempDir();
  try {
    await writeCalliopeModel(model, dir);
    const back = await importCalliopeModel(dir);
    assert.deepEqual(back.parameters.reserve_margin, { power: 0.1 });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
