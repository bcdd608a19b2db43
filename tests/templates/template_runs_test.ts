/**
 * The exported technologies run as exported (issue 18, section 6), through the runner's real
 * pipeline in this process (prepare, build, HiGHS):
 *
 * - a link with the catalogue adapter's transmission technology, and one with the
 *   `hydrogen_pipeline` template, at a known distance in metres, costs what Calliope 0.6
 *   computes: per end, depreciation x W x (energy_cap + energy_cap_per_distance x distance) x
 *   capacity / 2, plus om_annual x capacity x W (`constraints/costs.py`; distances in metres).
 *   With the per-km figure the distance term was 1,000 times too high.
 * - a variable renewable from a template produces capacity factor x capacity in every step:
 *   not unlimited (no resource before) and not 10 % short (run-of-river's energy_eff 0.9).
 * - a model that uses such a template without its series is refused, naming the series.
 */
import assert from "node:assert/strict";
import { toCalliopeReport } from "../../lib/catalogue/calliope/mod.ts";
import type { Technology } from "../../lib/catalogue/schema/technology_schema.ts";
import { createHighsModelRunner } from "../../lib/runner/highs_model_runner.ts";
import type { RunResult } from "../../lib/runner/model_runner.ts";
import { createTemplateLibrary } from "../../lib/templates/template_library.ts";
import { hourly } from "../fixtures/model/small_models.ts";
import { solveOptimal } from "../runner/_solve_optimal.ts";

const runner = await createHighsModelRunner();
const library = await createTemplateLibrary({ log: () => {} });

const HOURS = 24;
/** The modelled fraction of a year. */
const W = HOURS / 8760;
/** Capital recovery factor i(1+i)^n / ((1+i)^n - 1): Calliope 0.6's depreciation rate. */
const crf = (i: number, n: number) => i * (1 + i) ** n / ((1 + i) ** n - 1);

/** Prepares `body` and solves it; the run must end optimal. */
const solve = (body: unknown): Promise<RunResult> => solveOptimal(runner, body);

function near(actual: number | undefined, expected: number, what: string, rel = 1e-7) {
  assert.ok(
    actual !== undefined && Math.abs(actual - expected) <= rel * Math.abs(expected),
    `${what}: ${actual}, expected ${expected}`,
  );
}

/** Two locations `a` (a free supply) and `b` (a steady demand) joined by link tech `line`. */
function linkModel(carrier: string, line: Record<string, unknown>, distanceM: number) {
  return {
    name: "link",
    locations: [{ id: "a", technologies: ["gen"] }, { id: "b", technologies: ["use"] }],
    links: [{ source: "a", target: "b", distance: distanceM, technology: "line" }],
    technologies: [
      { name: "gen", type: "supply", carrier_out: carrier },
      { name: "use", type: "demand", carrier, constraints: { resource: "file=demand.csv:b" } },
      { name: "line", ...line },
    ],
    timeSeries: [{
      id: "demand",
      timestamps: hourly(HOURS),
      columns: { b: Array.from({ length: HOURS }, () => -1000) },
    }],
  };
}

/** The link's capacity and its investment cost summed over both ends. */
function linkCost(result: RunResult): { capacity: number; investment: number } {
  const caps = Object.entries(result["energy_cap"] as Record<string, number>)
    .filter(([id]) => id.includes("line"));
  assert.equal(caps.length, 2, JSON.stringify(caps));
  assert.equal(caps[0]![1], caps[1]![1], "one capacity at both ends");
  const investment = Object.entries(
    (result["cost_investment"] as Record<string, Record<string, number>>)["monetary"]!,
  ).filter(([id]) => id.includes("line")).reduce((sum, [, v]) => sum + v, 0);
  return { capacity: caps[0]![1], investment };
}

Deno.test("a link with the adapter's transmission tech costs what Calliope 0.6 computes for its distance in metres (issue 18; 1,000x before)", async () => {
  const file = JSON.parse(
    await Deno.readTextFile(new URL("../../catalogues/transmission.json", import.meta.url)),
  ) as { technologies: Technology[] };
  const hvdc = file.technologies.find((t) => t.technology_id === "hvdc_overhead_line")!;
  const instance = hvdc.instances[0]!;
  assert.equal(instance.capex_usd_per_kw_km, 0.678);
  const tech = toCalliopeReport(hvdc).config["hvdc_overhead_line"]!;
  const distanceM = 100_000; // 100 km
  const result = await solve(linkModel("electricity", {
    type: "transmission",
    carrier: "electricity",
    constraints: tech.constraints,
    costs: tech.costs,
  }, distanceM));
  const { capacity, investment } = linkCost(result);
  near(capacity, 1000, "the link carries the demand");
  // 723.2 USD/kW + 0.000678 USD/kW/m x 100,000 m = 791 USD/kW (was 723.2 + 67,800).
  const perKw = instance.capex_usd_per_kw! + (0.678 / 1000) * distanceM;
  const expected = crf(0.07, 40) * W * perKw * capacity +
    2 * instance.opex_fixed_usd_per_kw_yr! * capacity * W;
  near(investment, expected, "link investment cost");
});

Deno.test("a link with the hydrogen_pipeline template costs what Calliope 0.6 computes for its distance in metres (issue 18; 1,000x before)", async () => {
  const template = library.get("hydrogen_pipeline")!;
  const perM = template.tech.costs["monetary"]!.energy_cap_per_distance!;
  const distanceM = 250_000; // 250 km
  const resolved = library.resolveModel(
    linkModel("hydrogen", { template: "hydrogen_pipeline" }, distanceM),
  );
  assert.ok(resolved.ok);
  const result = await solve(resolved.model);
  const { capacity, investment } = linkCost(result);
  near(capacity, 1000, "the pipeline carries the demand");
  near(perM, 0.431471 / 1000, "per metre", 1e-12);
  near(investment, crf(0.07, 50) * W * perM * distanceM * capacity, "pipeline investment cost");
});

/** The first day of a shipped capacity-factor profile. */
async function firstDay(profileId: string): Promise<number[]> {
  const profile = JSON.parse(
    await Deno.readTextFile(
      new URL(`../../catalogues/profiles/${profileId}.json`, import.meta.url),
    ),
  ) as { type: string; values: number[] };
  assert.equal(profile.type, "capacity_factor");
  return profile.values.slice(0, HOURS);
}

/** One location with a 1 MW plant of template `id`, more demand than it can meet. */
function plantModel(id: string, series: Record<string, number[]>) {
  return {
    name: id,
    locations: [{ id: "r1", technologies: ["plant", "use"] }],
    technologies: [
      { name: "plant", template: id, constraints: { energy_cap_equals: 1000 } },
      {
        name: "use",
        type: "demand",
        carrier: "electricity",
        constraints: { resource: "file=demand.csv:r1" },
      },
    ],
    timeSeries: [
      {
        id: "demand",
        timestamps: hourly(HOURS),
        columns: { r1: Array.from({ length: HOURS }, () => -5000) },
      },
      ...Object.entries(series).map(([seriesId, values]) => ({
        id: seriesId,
        timestamps: hourly(HOURS),
        columns: { r1: values },
      })),
    ],
    parameters: { ensure_feasibility: true },
  };
}

Deno.test("a supply_plus template produces capacity factor x capacity with the catalogue's profile (issue 18; unlimited, or 10 % short for run-of-river, before)", async (t) => {
  const cases = [
    ["onshore_wind", "onshore_wind", "DE_onshore_wind_2016"],
    ["solar_pv_utility_scale", "solar_pv", "DE_solar_pv_2016"],
    ["hydroelectric_run_of_river", "hydro_ror", "AT_hydro_ror_2016"],
  ] as const;
  for (const [id, series, profileId] of cases) {
    await t.step(id, async () => {
      const cf = await firstDay(profileId);
      const resolved = library.resolveModel(plantModel(id, { [series]: cf }));
      assert.ok(resolved.ok);
      const result = await solve(resolved.model);
      const prod = (result["carrier_prod"] as Record<string, number[]>)[
        "r1::plant::electricity"
      ]!;
      assert.equal(prod.length, HOURS);
      for (let h = 0; h < HOURS; h++) {
        assert.ok(Math.abs(prod[h]! - cf[h]! * 1000) <= 1e-6, `${id} hour ${h}: ${prod[h]}`);
      }
    });
  }
});

Deno.test("a model using a supply_plus template without its series is refused, naming the series (issue 18; unlimited before)", () => {
  const cases = [["onshore_wind", "onshore_wind"], ["marine_energy", "marine_energy"]] as const;
  for (const [id, series] of cases) {
    const resolved = library.resolveModel(plantModel(id, {}));
    assert.ok(resolved.ok);
    const prepared = runner.prepare(resolved.model);
    assert.equal(prepared.ok, false, id);
    const messages = prepared.ok ? [] : prepared.problems.map((p) => p.message);
    assert.ok(
      messages.some((m) => m.includes(`time series "${series}"`)),
      `${id}: ${messages.join("; ")}`,
    );
  }
});
