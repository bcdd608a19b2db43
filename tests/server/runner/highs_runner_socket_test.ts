/**
 * The runner service end to end with the real pipeline (importer or frontend JSON -> resolver ->
 * LP -> HiGHS in a Worker -> result) through a real socket: the stream as the frontend reads it,
 * the result, a cancel that stops the solve itself, an infeasible model as a result, and a bad
 * model ending its job failed with its JSON paths.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { importCalliopeModel } from "../../../lib/model/calliope/calliope_import.ts";
import { createHighsModelRunner } from "../../../lib/runner/highs_model_runner.ts";
import type { ModelRunner } from "../../../lib/runner/model_runner.ts";
import { dataOf, FrameReader, serveRunner } from "./_app.ts";

const NATIONAL = new URL("../../../data/models/calliope_national_scale", import.meta.url).pathname;
const FRONTEND_FIXTURE = new URL(
  "../../fixtures/model/national_scale_frontend.json",
  import.meta.url,
);

/** The real runner, with the moment each run() settled recorded (to time the cancel). */
async function timedRunner(): Promise<{ runner: ModelRunner; settled: number[] }> {
  const real = await createHighsModelRunner();
  const settled: number[] = [];
  return {
    settled,
    runner: {
      solverName: real.solverName,
      prepare: (body) => real.prepare(body),
      run: (model, hooks) => real.run(model, hooks).finally(() => settled.push(performance.now())),
      runBody: (body, hooks) =>
        real.runBody(body, hooks).finally(() => settled.push(performance.now())),
    },
  };
}

async function submit(base: string, body: unknown): Promise<string> {
  const res = await fetch(`${base}/run`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: "http://localhost:5173" },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 202, await res.clone().text());
  return (await res.json()).job_id;
}

Deno.test("runner service: the frontend's national-scale model streams HiGHS's log and gives Calliope's values", async () => {
  const { runner } = await timedRunner();
  const s = serveRunner(runner);
  try {
    const health = await (await fetch(`${s.base}/health`)).json();
    assert.equal(health.status, "ok");
    assert.match(health.solver, /^HiGHS \d+\.\d+\.\d+ \(wasm\)$/);
    const body = JSON.parse(readFileSync(FRONTEND_FIXTURE, "utf8"));
    const id = await submit(s.base, body);
    const res = await fetch(`${s.base}/run/${id}/stream`, {
      headers: { Origin: "http://localhost:5173" },
    });
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    const reader = new FrameReader(res.body!);
    const events: Record<string, unknown>[] = [];
    let result: Record<string, unknown> | undefined;
    for (let e = await reader.nextData(); e !== undefined; e = await reader.nextData()) {
      events.push(e);
      if (e["type"] === "done") {
        const answer = await fetch(`${s.base}/run/${id}/result`);
        assert.equal(answer.status, 200);
        assert.equal(answer.headers.get("access-control-allow-origin"), "*");
        result = await answer.json();
      }
    }
    const types = events.map((e) => e["type"]);
    assert.equal(types.at(-1), "done");
    const lines = events.filter((e) => e["type"] === "log").map((e) => e["line"] as string);
    assert.ok(lines.some((l) => l.startsWith("[runner] built the LP")), lines.join("\n"));
    assert.ok(lines.some((l) => /^LP has \d+ rows/.test(l)), "HiGHS's own model line is relayed");
    assert.ok(
      lines.some((l) => /^Model status\s+: Optimal$/.test(l)),
      "HiGHS's own status line is relayed",
    );
    const phases = events.filter((e) => e["type"] === "progress").map((e) => e["phase"]);
    assert.deepEqual([...new Set(phases)], ["build", "solve"]);
    const done = events.at(-1)!;
    assert.equal(done["termination"], "optimal");
    assert.equal(done["success"], true);
    assert.ok(Math.abs((done["objective"] as number) - 38988.7442) < 1e-3);
    assert.ok(result, "the result was read when done arrived");
    assert.equal(result["success"], true);
    const energyCap = result["energy_cap"] as Record<string, number>;
    assert.ok(Math.abs(energyCap["region1-1::csp"]! - 4626.588) / 4626.588 < 1e-6);
    // The frontend's result views read these keys.
    for (const key of ["capacities", "generation", "dispatch", "timestamps", "costs_by_tech"]) {
      assert.ok(key in result, `result.${key}`);
    }
    assert.equal((result["timestamps"] as string[]).length, 24);
    const status = await (await fetch(`${s.base}/run/${id}`)).json();
    assert.equal(status.status, "completed");
    assert.equal(status.termination, "optimal");
  } finally {
    await s.dispose();
  }
});

Deno.test("runner service: DELETE stops a full-year solve within 1 s; status cancelled", async () => {
  const { runner, settled } = await timedRunner();
  const s = serveRunner(runner);
  try {
    const config = await importCalliopeModel(NATIONAL, {
      // HiGHS's iteration lines are what the test waits for (the example names cbc).
      overrides: { "model.subset_time": ["2005-01-01", "2005-12-31"], "run.solver": "highs" },
    });
    const id = await submit(s.base, config);
    const res = await fetch(`${s.base}/run/${id}/stream`);
    const reader = new FrameReader(res.body!);
    // Wait until HiGHS is iterating (its log is flowing), then cancel.
    let iterating = 0;
    for (let e = await reader.nextData(); e !== undefined; e = await reader.nextData()) {
      if (e["type"] === "log" && /^\s+\d+\s+/.test(e["line"] as string)) iterating++;
      if (iterating >= 1) break;
    }
    assert.ok(iterating >= 1, "the solve never started iterating");
    await new Promise((r) => setTimeout(r, 300));
    const cancelledAt = performance.now();
    const del = await fetch(`${s.base}/run/${id}`, { method: "DELETE" });
    assert.equal(del.status, 200);
    await del.body?.cancel();
    const rest = dataOf(await reader.rest());
    assert.deepEqual(rest.at(-1), { type: "error", error: "cancelled" });
    // The solve itself stopped: run() settled within 1 s of the DELETE.
    for (let i = 0; i < 40 && settled.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(settled.length, 1, "run() did not settle");
    const latency = settled[0]! - cancelledAt;
    assert.ok(latency < 1000, `the solve stopped ${latency.toFixed(0)} ms after DELETE`);
    assert.equal((await (await fetch(`${s.base}/run/${id}`)).json()).status, "cancelled");
    const again = await fetch(`${s.base}/run/${id}`, { method: "DELETE" });
    assert.equal(again.status, 409);
    await again.body?.cancel();
  } finally {
    await s.dispose();
  }
});

Deno.test("runner service: an infeasible model completes with termination infeasible and the conflicting rows", async () => {
  const { runner } = await timedRunner();
  const s = serveRunner(runner);
  try {
    const config = await importCalliopeModel(NATIONAL, {
      overrides: {
        "model.subset_time": "2005-01-01",
        // The conflicting rows come from HiGHS's IIS (the example names cbc).
        "run.solver": "highs",
        "run.ensure_feasibility": false,
        "techs.ccgt.constraints.energy_cap_max": 10,
        "techs.csp.constraints.energy_cap_max": 10,
      },
    });
    const id = await submit(s.base, config);
    const res = await fetch(`${s.base}/run/${id}/stream`);
    const events = dataOf(await new FrameReader(res.body!).rest());
    const done = events.at(-1)!;
    assert.equal(done["type"], "done");
    assert.equal(done["termination"], "infeasible");
    assert.equal(done["success"], false);
    const result = await (await fetch(`${s.base}/run/${id}/result`)).json();
    assert.equal(result.termination, "infeasible");
    assert.ok(Array.isArray(result.conflicts) && result.conflicts.length > 0, "conflicts named");
  } finally {
    await s.dispose();
  }
});

Deno.test("runner service: a bad model fails its job with every problem by JSON path (a 400 before issue 18)", async () => {
  const { runner } = await timedRunner();
  const s = serveRunner(runner);
  try {
    const config = await importCalliopeModel(NATIONAL, {
      overrides: { "model.subset_time": "2005-01-01" },
    });
    const bad = structuredClone(config) as unknown as {
      technologies: { name: string; constraints?: Record<string, unknown> }[];
      timeSeries: unknown[];
    };
    bad.technologies.find((t) => t.name === "ccgt")!.constraints!["energy_cap_mx"] = 5;
    bad.timeSeries = [];
    const id = await submit(s.base, bad);
    const events = dataOf(
      await new FrameReader((await fetch(`${s.base}/run/${id}/stream`)).body!).rest(),
    );
    const end = events.at(-1)!;
    assert.equal(end["type"], "error");
    assert.match(end["error"] as string, /^Invalid model: /);
    const status = await (await fetch(`${s.base}/run/${id}`)).json();
    assert.equal(status.status, "failed");
    assert.equal(status.error, end["error"]);
    assert.deepEqual(status.problems, end["problems"]);
    const paths = (status.problems as { path: string; message: string }[]).map((d) => d.path);
    const ccgt = bad.technologies.findIndex((t) => t.name === "ccgt");
    assert.ok(
      paths.includes(`technologies[${ccgt}].constraints.energy_cap_mx`),
      JSON.stringify(status.problems),
    );
    assert.match(JSON.stringify(status.problems), /energy_cap_max/);
  } finally {
    await s.dispose();
  }
});
