/**
 * Issue 24's sweep end to end: `POST /api/models/{id}/run` with `scenarios` fans out into one
 * job (one run-history entry) per scenario, run by the real runner service (HiGHS) over sockets,
 * each with its own scenario applied; a sweep with a scenario that cannot run creates no job.
 */
import assert from "node:assert/strict";
import { importCalliopeModel } from "../../../lib/model/calliope/calliope_import.ts";
import type { ModelConfig } from "../../../lib/model/model_config.ts";
import { call, serveBackend, serveRunner, waitFinished } from "./_backend.ts";

const NATIONAL = new URL("../../../data/models/calliope_national_scale", import.meta.url).pathname;

/** The national-scale example, one day, with two override groups that price the CCGT. */
async function national(scenario?: string): Promise<ModelConfig> {
  const model = await importCalliopeModel(NATIONAL, {
    ...(scenario === undefined ? {} : { scenario }),
    overrides: { "model.subset_time": "2005-01-01" },
  });
  model.parameters.overrides = {
    ...model.parameters.overrides,
    cheap_gas: { "techs.ccgt.costs.monetary.energy_cap": 100 },
    dear_gas: { "techs.ccgt.costs.monetary.energy_cap": 2000 },
    plan_mode: { "run.mode": "plan" },
    one_spore: { "run.spores_options.spores_number": 1 },
  };
  return model;
}

/** Runs `body` on model `id`; the jobs' ids once every one has completed. */
async function sweep(base: string, id: string, body: unknown): Promise<string[]> {
  const run = await call(base, "POST", `/api/models/${id}/run`, body);
  assert.equal(run.status, 202, JSON.stringify(run.body));
  const ids = (run.body.jobs as { id: string; model_id: string; status: string }[]).map((j) => {
    assert.equal(j.model_id, id);
    return j.id;
  });
  for (const job of ids) {
    assert.equal((await waitFinished(base, job, 60_000)).status, "completed", job);
  }
  return ids;
}

// deno-lint-ignore no-explicit-any -- a result as JSON, read member by member
async function resultOf(base: string, job: string): Promise<any> {
  const found = await call(base, "GET", `/api/jobs/${job}/results`);
  assert.equal(found.status, 200);
  return found.body;
}

Deno.test("backend sweep: one job per scenario, each its own scenario and result", async () => {
  const runner = await serveRunner();
  const b = await serveBackend(runner.url);
  try {
    const saved = await call(b.base, "POST", "/api/models", await national());
    assert.equal(saved.status, 201);
    const id = saved.body.id as string;
    const run = `/api/models/${id}/run`;

    // Two scenarios: two jobs, in the order given; the cost each sets shows in its objective.
    const [cheap, dear] = await sweep(b.base, id, { scenarios: ["cheap_gas", "dear_gas"] });
    const cheapResult = await resultOf(b.base, cheap!);
    const dearResult = await resultOf(b.base, dear!);
    assert.equal(cheapResult.termination_condition, "optimal");
    assert.ok(cheapResult.objective < dearResult.objective, "dearer gas, dearer system");
    // The same scenario as a single run: the same objective.
    const single = await call(b.base, "POST", run, { scenario: "cheap_gas" });
    assert.equal(single.status, 202);
    assert.equal(typeof single.body.id, "string", "a single run still answers one job view");
    await waitFinished(b.base, single.body.id, 60_000);
    const singleResult = await resultOf(b.base, single.body.id);
    assert.ok(Math.abs(singleResult.objective - cheapResult.objective) < 1e-6);

    // Three, one combining two override groups (a list) and one comma-separated.
    const three = await sweep(b.base, id, {
      scenarios: ["reserve_margin", ["dear_gas", "reserve_margin"], "cheap_gas, reserve_margin"],
      parameters: { solver: { time_limit_s: 60 } },
    });
    const objectives = await Promise.all(
      three.map(async (j) => (await resultOf(b.base, j)).objective),
    );
    assert.ok(objectives[2] < objectives[0] && objectives[0] < objectives[1], String(objectives));
    const logs = await call(b.base, "GET", `/api/jobs/${three[1]}/logs`);
    assert.equal(logs.body[0], "[backend] scenario dear_gas,reserve_margin (2 of 3 of a sweep)");

    // Each job listed with the model, each its own entry in the run history, named by scenario.
    const listed = (await call(b.base, "GET", `/api/models/${id}/jobs`)).body as { id: string }[];
    assert.equal(listed.length, 6);
    for (const job of [cheap, dear, ...three]) assert.ok(listed.some((j) => j.id === job));
    const history = (await call(b.base, "GET", "/api/completed-runs")).body as {
      id: string;
      modelName: string;
    }[];
    const name = (job: string) => history.find((r) => r.id === job)?.modelName;
    const modelName = saved.body.name as string;
    assert.equal(name(cheap!), `${modelName} (scenario: cheap_gas)`);
    assert.equal(name(three[2]!), `${modelName} (scenario: cheap_gas,reserve_margin)`);
    assert.equal(name(single.body.id), modelName);

    // A scenario that cannot run, in the middle: 400 naming it, and no job at all.
    const refused = await call(b.base, "POST", run, {
      scenarios: ["cheap_gas", "nope", ["dear_gas"]],
    });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body.details.map((p: { path: string }) => p.path), ["scenarios[1]"]);
    assert.match(refused.body.error, /scenarios\[1\]: override "nope" is not defined/);
    for (
      const [body, path] of [
        [{ scenario: "cheap_gas", scenarios: ["dear_gas"] }, "scenarios"],
        [{ scenarios: [] }, "scenarios"],
        [{ scenarios: Array(51).fill("cheap_gas") }, "scenarios"],
        [{ scenarios: ["cheap_gas", 7] }, "scenarios[1]"],
        [{ scenarios: [["cheap_gas", null]] }, "scenarios[0][1]"],
      ] as const
    ) {
      const answer = await call(b.base, "POST", run, body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.deepEqual(answer.body.details.map((p: { path: string }) => p.path), [path]);
    }
    assert.equal((await call(b.base, "GET", `/api/models/${id}/jobs`)).body.length, 6);

    const doc = await call(b.base, "GET", "/api/openapi.json");
    const schemas = doc.body.components.schemas;
    assert.ok(schemas.RunRequest.properties.scenarios);
    assert.ok(schemas.SweepJobs.properties.jobs);
  } finally {
    await b.dispose();
    await runner.dispose();
  }
});

Deno.test("backend sweep: a SPORES scenario is one job of the sweep like any other", async () => {
  const runner = await serveRunner();
  const b = await serveBackend(runner.url);
  try {
    const saved = await call(b.base, "POST", "/api/models", await national("spores"));
    assert.equal(saved.status, 201);
    const [spores, plan] = await sweep(b.base, saved.body.id, {
      scenarios: ["one_spore", "plan_mode"],
    });
    const sporesResult = await resultOf(b.base, spores!);
    assert.deepEqual(sporesResult.spores.map((s: { spore: number }) => s.spore), [0, 1]);
    assert.equal((await resultOf(b.base, plan!)).spores, undefined);
  } finally {
    await b.dispose();
    await runner.dispose();
  }
});
