/**
 * The proof of issue 9 section 3: Calliope 0.6's own example models, imported unchanged through
 * the importer, solved by the runner's real pipeline (HiGHS in a Worker), give the values
 * Calliope's test suite publishes (`calliope/test/test_example_models.py`, v0.6.10; the values
 * are in each model's SOURCE.md).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { importCalliopeModel } from "../../lib/model/calliope/calliope_import.ts";
import type { ModelConfig } from "../../lib/model/model_config.ts";
import { createHighsModelRunner } from "../../lib/runner/highs_model_runner.ts";
import type { RunResult } from "../../lib/runner/model_runner.ts";
import { solveOptimal } from "./_solve_optimal.ts";

const NATIONAL = new URL("../../data/models/calliope_national_scale", import.meta.url).pathname;
const URBAN = new URL("../../data/models/calliope_urban_scale", import.meta.url).pathname;
const FRONTEND_FIXTURE = new URL("../fixtures/model/national_scale_frontend.json", import.meta.url);

const runner = await createHighsModelRunner();

/** Prepares `body` (either form) and solves it; the run must end optimal and succeed. */
async function solve(body: unknown): Promise<RunResult> {
  const result = await solveOptimal(runner, body);
  assert.equal(result.success, true);
  return result;
}

/** `actual` within `rel` relative of `expected` (pytest's approx). */
function near(actual: unknown, expected: number, rel: number, what: string): void {
  assert.equal(typeof actual, "number", `${what} is not a number: ${actual}`);
  const error = Math.abs((actual as number) - expected) / Math.abs(expected);
  assert.ok(error <= rel, `${what}: ${actual} is not within ${rel} of ${expected} (${error})`);
}

/** `actual` within `abs` of `expected`. */
function within(actual: unknown, expected: number, abs: number, what: string): void {
  assert.equal(typeof actual, "number", `${what} is not a number: ${actual}`);
  const error = Math.abs((actual as number) - expected);
  assert.ok(error <= abs, `${what}: ${actual} is not within ${abs} of ${expected} (${error})`);
}

const table = (result: RunResult, name: string) => result[name] as Record<string, number>;
const byClass = (result: RunResult, name: string) =>
  (result[name] as Record<string, Record<string, number>>)["monetary"]!;
const sumCost = (result: RunResult) =>
  Object.values(result["costs"] as Record<string, Record<string, number>>)
    .flatMap((byLocTech) => Object.values(byLocTech))
    .reduce((a, b) => a + b, 0);

/** The national-scale checks of `TestNationalScaleExampleModelSenseChecks` (1e-6 relative). */
function assertNationalOneDay(result: RunResult): void {
  const energyCap = table(result, "energy_cap");
  const storageCap = table(result, "storage_cap");
  near(storageCap["region1-1::csp"], 45129.950, 1e-6, "storage_cap region1-1::csp");
  near(storageCap["region2::battery"], 6675.173, 1e-6, "storage_cap region2::battery");
  near(energyCap["region1-1::csp"], 4626.588, 1e-6, "energy_cap region1-1::csp");
  near(energyCap["region2::battery"], 1000, 1e-6, "energy_cap region2::battery");
  near(energyCap["region1::ccgt"], 30000, 1e-6, "energy_cap region1::ccgt");
  near(sumCost(result), 38988.7442, 1e-6, "sum of cost");
  near(result.objective, 38988.7442, 1e-6, "objective");
  within(byClass(result, "levelised_cost")["battery::power"], 0.063543, 1e-6, "battery LCOE");
  within(
    result["capacity_factor"] && table(result, "capacity_factor")["battery::power"],
    0.2642256,
    1e-6,
    "battery CF",
  );
}

Deno.test("national-scale example, 2005-01-01: Calliope's published values", async () => {
  const config = await importCalliopeModel(NATIONAL, {
    overrides: { "model.subset_time": "2005-01-01" },
  });
  assertNationalOneDay(await solve(config));
});

Deno.test("national-scale example, the same day sent in the frontend's own JSON form", async () => {
  const body = JSON.parse(readFileSync(FRONTEND_FIXTURE, "utf8"));
  assertNationalOneDay(await solve(body));
});

Deno.test("national-scale example, default 5-day run: total levelised cost 0.067005", async () => {
  const config: ModelConfig = await importCalliopeModel(NATIONAL);
  assert.deepEqual(config.parameters.subset_time, ["2005-01-01", "2005-01-05"]);
  const result = await solve(config);
  within(byClass(result, "total_levelised_cost")["power"], 0.067005, 1e-5, "total LCOE");
  // The model's own `operate` override (scenarios.yaml) fixes the capacities of a plan run of these
  // five days, written by Calliope's authors as whole numbers (rounded up): within 1 of each.
  const energyCap = table(result, "energy_cap");
  const storageCap = table(result, "storage_cap");
  const area = table(result, "resource_area");
  const operate: [string, number | undefined, number][] = [
    ["energy_cap region1-1::csp", energyCap["region1-1::csp"], 10000],
    ["storage_cap region1-1::csp", storageCap["region1-1::csp"], 244301],
    ["resource_area region1-1::csp", area["region1-1::csp"], 130385],
    ["energy_cap region1-2::csp", energyCap["region1-2::csp"], 0],
    ["energy_cap region1-3::csp", energyCap["region1-3::csp"], 2534],
    ["storage_cap region1-3::csp", storageCap["region1-3::csp"], 25301],
    ["resource_area region1-3::csp", area["region1-3::csp"], 8487],
    ["storage_cap region2::battery", storageCap["region2::battery"], 5240],
    [
      "energy_cap region1::ac_transmission:region2",
      energyCap["region1::ac_transmission:region2"],
      3231,
    ],
    [
      "energy_cap region1::free_transmission:region1-1",
      energyCap["region1::free_transmission:region1-1"],
      9000,
    ],
    [
      "energy_cap region1::free_transmission:region1-3",
      energyCap["region1::free_transmission:region1-3"],
      2281,
    ],
  ];
  for (const [what, actual, expected] of operate) within(actual, expected, 1, what);
});

Deno.test("national-scale example, scenario time_resampling (6 h) on 2005-01-01", async () => {
  const config = await importCalliopeModel(NATIONAL, {
    scenario: "time_resampling",
    overrides: { "model.subset_time": "2005-01-01" },
  });
  const result = await solve(config);
  const energyCap = table(result, "energy_cap");
  const storageCap = table(result, "storage_cap");
  near(storageCap["region1-1::csp"], 23563.444, 1e-6, "storage_cap region1-1::csp");
  near(storageCap["region2::battery"], 6315.78947, 1e-6, "storage_cap region2::battery");
  near(energyCap["region1-1::csp"], 1440.8377, 1e-6, "energy_cap region1-1::csp");
  near(energyCap["region2::battery"], 1000, 1e-6, "energy_cap region2::battery");
  near(energyCap["region1::ccgt"], 30000, 1e-6, "energy_cap region1::ccgt");
  near(sumCost(result), 37344.221869, 1e-6, "sum of cost");
  within(byClass(result, "levelised_cost")["battery::power"], 0.063543, 1e-6, "battery LCOE");
  within(table(result, "capacity_factor")["battery::power"], 0.25, 1e-6, "battery CF");
});

for (const unit of ["per_area", "per_cap"]) {
  Deno.test(`urban-scale example, 2005-07-01, pv resource ${unit}: Calliope's values`, async () => {
    const config = await importCalliopeModel(URBAN, {
      overrides: {
        "model.subset_time": "2005-07-01",
        "techs.pv.constraints.resource": `file=pv_resource.csv:${unit}`,
        "techs.pv.constraints.resource_unit": `energy_${unit}`,
      },
    });
    const result = await solve(config);
    const energyCap = table(result, "energy_cap");
    near(energyCap["X1::chp"], 250.090112, 1e-6, "energy_cap X1::chp");
    near(energyCap["X2::heat_pipes:N1"], 182.19260, 1e-6, "energy_cap X2::heat_pipes:N1");
    near(table(result, "generation")["X3::boiler::heat"], 0.18720, 1e-6, "X3 boiler heat");
    near(table(result, "resource_area")["X2::pv"], 830.064659, 1e-6, "resource_area X2::pv");
    const exported = Object.values(result["carrier_export"] as Record<string, number[]>)
      .flat().reduce((a, b) => a + b, 0);
    near(exported, 122.7156, 1e-6, "sum of carrier_export");
    near(sumCost(result), 430.089188, 1e-6, "sum of cost");
  });
}
