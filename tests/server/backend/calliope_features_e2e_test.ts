/**
 * Issue 21's Calliope features end to end: a decided demand share (group constraint with its own
 * variables, relaxed), the urban-scale MILP and a reserve margin, each imported from Calliope's
 * YAML, saved in the backend, run by the real runner service (HiGHS) over sockets, and read back
 * from the job's results and the run history; and the same models through `model-run`, whose
 * tables carry the new results.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { importCalliopeModel } from "../../../lib/model/calliope/calliope_import.ts";
import { main as modelRun } from "../../../pipelines/model_run.ts";
import { call, runSavedModel, serveBackend, serveRunner } from "./_backend.ts";

const TEST_MODEL = new URL("../../fixtures/calliope_test_model", import.meta.url).pathname;
const URBAN = new URL("../../../data/models/calliope_urban_scale", import.meta.url).pathname;
const NATIONAL = new URL("../../../data/models/calliope_national_scale", import.meta.url).pathname;

const decided = () =>
  importCalliopeModel(`${TEST_MODEL}/group_constraint_demand_share_decision.yaml`, {
    scenario: "demand_share_per_timestep_decision_not_one",
    overrides: {
      "run.relax_constraint.demand_share_per_timestep_decision_main_constraint": 0.05,
    },
  });
const milp = () =>
  importCalliopeModel(URBAN, {
    scenario: "milp",
    overrides: { "model.subset_time": "2005-01-01", "run.solver_options.mipgap": 0.001 },
  });
// test_reserve_margin's setting on the national-scale example, one day.
const reserve = () =>
  importCalliopeModel(NATIONAL, {
    overrides: { "model.subset_time": "2005-01-01", "model.reserve_margin.power": 0.10 },
  });

const sum = (values: Record<string, number>) => Object.values(values).reduce((a, b) => a + b, 0);

Deno.test("backend and runner service: decided shares, MILP units and a reserve margin", async () => {
  const runner = await serveRunner();
  const b = await serveBackend(runner.url);
  try {
    const results: Record<string, Record<string, unknown>> = {};
    for (
      const [name, model] of [["decided", await decided()], ["milp", await milp()], [
        "reserve",
        await reserve(),
      ]] as const
    ) {
      const { jobId, result } = await runSavedModel(b.base, model);
      assert.equal(result.termination_condition, "optimal", name);
      results[name] = result;
      const record = await call(b.base, "GET", `/api/completed-runs/${jobId}`);
      assert.equal(record.body.result.objective, result.objective);
    }
    const shares = results["decided"]!["demand_share_per_timestep_decision"] as Record<
      string,
      number
    >;
    assert.ok(Math.abs(sum(shares) - 0.9) < 1e-9, JSON.stringify(shares));
    assert.equal((results["milp"]!["units"] as Record<string, number>)["X1::chp"], 1);
    assert.equal((results["milp"]!["purchased"] as Record<string, number>)["X2::boiler"], 1);
    const stats = results["milp"]!["stats"] as Record<string, number>;
    assert.ok(stats["mip_gap"]! <= 0.001);
    assert.equal(typeof results["reserve"]!["objective"], "number");

    // A group naming a technology and a location the model lacks: 400, each named at its path.
    const bad = await decided();
    bad.groupConstraints = { g: { techs: ["fusion"], locs: ["moon"], energy_cap_max: 5 } };
    const id = (await call(b.base, "POST", "/api/models", bad)).body.id;
    const refused = await call(b.base, "POST", `/api/models/${id}/run`);
    assert.equal(refused.status, 400);
    assert.deepEqual(
      refused.body.details.map((p: { path: string; message: string }) => [p.path, p.message]),
      [
        ["groupConstraints.g.techs[0]", 'unknown technology "fusion"'],
        ["groupConstraints.g.locs[0]", 'unknown location "moon"'],
      ],
    );
  } finally {
    await b.dispose();
    await runner.dispose();
  }
});

Deno.test("model-run: the decided shares and the MILP's units as tables", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const [name, model] of [["decided", await decided()], ["milp", await milp()]] as const) {
      const file = join(dir, `${name}.json`);
      await Deno.writeTextFile(file, JSON.stringify(model));
      assert.equal(await modelRun([file, "--out", join(dir, name), "--format", "csv"]), 0);
    }
    const shares = await Deno.readTextFile(
      join(dir, "decided", "demand_share_per_timestep_decision.csv"),
    );
    assert.match(shares.split("\n")[0]!, /^key,value$/);
    assert.match(shares, /^0::normal_elec_supply::electricity,/m);
    const units = await Deno.readTextFile(join(dir, "milp", "units.csv"));
    assert.match(units, /^X1::chp,1(\.0)?$/m);
    const operating = await Deno.readTextFile(join(dir, "milp", "operating_units.csv"));
    assert.match(operating.split("\n")[0]!, /^key,timestep,value$/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
