import assert from "node:assert/strict";
import { join } from "node:path";
import { main, parseModelRunArgs } from "../../pipelines/model_run.ts";
import { openStore } from "../../lib/store/store.ts";
import { createHighsModelRunner } from "../../lib/runner/highs_model_runner.ts";
import type { RunOptions } from "../../lib/runner/model_runner.ts";
import { nationalFile } from "./_national_file.ts";

const FIXTURE = new URL("../fixtures/model/national_scale_frontend.json", import.meta.url).pathname;

Deno.test("model-run solves a model without a server and writes each table through DuckDB", async (t) => {
  const dir = await Deno.makeTempDir();
  try {
    await t.step("Parquet tables, summary.json, result.json and the LP file", async () => {
      const out = join(dir, "parquet");
      const lp = join(dir, "model.lp");
      assert.equal(await main([FIXTURE, "--out", out, "--write-lp", lp]), 0);
      const summary = JSON.parse(await Deno.readTextFile(join(out, "summary.json")));
      assert.equal(summary.termination, "optimal");
      assert.ok(Math.abs(summary.objective - 38988.7442) < 1e-3);
      assert.match(await Deno.readTextFile(lp), /^(minimize|min)\b/im);
      const store = await openStore(":memory:", { readers: 0 });
      try {
        const [cap] = await store.all<{ value: number }>(
          `SELECT value FROM '${join(out, "energy_cap.parquet")}' WHERE key = 'region1-1::csp'`,
        );
        assert.ok(Math.abs(cap!.value - 4626.588) / 4626.588 < 1e-6);
        const [prod] = await store.all<{ n: number; first: string }>(
          `SELECT count(*)::INT AS n, min(timestep)::VARCHAR AS first
           FROM '${join(out, "carrier_prod.parquet")}' WHERE key = 'region1::ccgt::power'`,
        );
        assert.equal(prod!.n, 24);
        assert.equal(prod!.first, "2005-01-01 00:00:00");
      } finally {
        await store.close();
      }
      const result = JSON.parse(await Deno.readTextFile(join(out, "result.json")));
      assert.equal(result.success, true);
    });
    await t.step("CSV tables", async () => {
      const out = join(dir, "csv");
      assert.equal(await main([FIXTURE, "--out", out, "--format", "csv"]), 0);
      const text = await Deno.readTextFile(join(out, "storage_cap.csv"));
      assert.match(text.split("\n")[0]!, /^key,value$/);
      assert.match(text, /region2::battery,6675\.17/);
    });
    await t.step("a bad model is exit 1, naming its problems", async () => {
      const bad = join(dir, "bad.json");
      await Deno.writeTextFile(bad, JSON.stringify({ locations: [], technologies: [] }));
      assert.equal(await main([bad, "--out", join(dir, "bad")]), 1);
    });
    await t.step("an infeasible model is exit 2", async () => {
      const body = JSON.parse(await Deno.readTextFile(FIXTURE));
      body.modelConfig.ensureFeasibility = false;
      for (const tech of body.technologies) {
        if (tech.name === "ccgt" || tech.name === "csp") tech.constraints.energy_cap_max = 1;
      }
      const path = join(dir, "infeasible.json");
      await Deno.writeTextFile(path, JSON.stringify(body));
      assert.equal(await main([path, "--out", join(dir, "infeasible")]), 2);
      const summary = JSON.parse(await Deno.readTextFile(join(dir, "infeasible", "summary.json")));
      assert.equal(summary.termination, "infeasible");
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parseModelRunArgs() reads the options and refuses bad ones", () => {
  assert.deepEqual(parseModelRunArgs(["m.json", "--out", "r", "--method", "ipm"]), {
    model: "m.json",
    out: "r",
    format: "parquet",
    method: "ipm",
  });
  assert.throws(() => parseModelRunArgs(["m.json"]), RangeError);
  assert.throws(() => parseModelRunArgs(["m.json", "--out", "r", "--format", "xls"]), RangeError);
  assert.throws(
    () => parseModelRunArgs(["m.json", "--out", "r", "--time-limit", "-1"]),
    RangeError,
  );
});

const readJson = async (path: string) => JSON.parse(await Deno.readTextFile(path));

Deno.test("model-run --scenario: one run per scenario, each into its own directory", async (t) => {
  const dir = await Deno.makeTempDir();
  try {
    const file = await nationalFile(dir, "nope");
    await t.step("two scenarios, one of two override groups: a sweep", async () => {
      const out = join(dir, "sweep");
      const lp = join(dir, "model.lp");
      const code = await main([
        file,
        "--out",
        out,
        "--format",
        "csv",
        "--scenario",
        "cheap_gas,dear_gas+reserve_margin",
        "--write-lp",
        lp,
      ]);
      assert.equal(code, 0);
      const sweep = await readJson(join(out, "sweep.json"));
      assert.deepEqual(
        sweep.scenarios.map((
          s: Record<string, unknown>,
        ) => [s.scenario, s.directory, s.termination]),
        [
          ["cheap_gas", "cheap_gas", "optimal"],
          ["dear_gas+reserve_margin", "dear_gas+reserve_margin", "optimal"],
        ],
      );
      assert.deepEqual(sweep.scenarios[1].overrides, ["dear_gas", "reserve_margin"]);
      for (const s of sweep.scenarios) {
        const summary = await readJson(join(out, s.directory, "summary.json"));
        assert.equal(summary.objective, s.objective);
        assert.equal(
          (await readJson(join(out, s.directory, "result.json"))).objective,
          s.objective,
        );
        await Deno.stat(join(out, s.directory, "energy_cap.csv"));
        await Deno.stat(join(dir, `model.${s.directory}.lp`));
      }
      assert.ok(sweep.scenarios[0].objective < sweep.scenarios[1].objective);
    });
    await t.step("one scenario writes into the directory itself", async () => {
      const out = join(dir, "one");
      assert.equal(await main([file, "--out", out, "--scenario", "cheap_gas"]), 0);
      await Deno.stat(join(out, "energy_cap.parquet"));
      await assert.rejects(Deno.stat(join(out, "sweep.json")));
      const sweepCheap = await readJson(join(dir, "sweep", "cheap_gas", "summary.json"));
      assert.equal((await readJson(join(out, "summary.json"))).objective, sweepCheap.objective);
    });
    await t.step("any scenario not optimal: exit 2, the others solved", async () => {
      const out = join(dir, "mixed");
      assert.equal(await main([file, "--out", out, "--scenario", "cheap_gas,no_supply"]), 2);
      const sweep = await readJson(join(out, "sweep.json"));
      assert.deepEqual(sweep.scenarios.map((s: { termination: string }) => s.termination), [
        "optimal",
        "infeasible",
      ]);
    });
    await t.step("an unknown scenario among several: exit 1 before any solve", async () => {
      const out = join(dir, "refused");
      assert.equal(await main([file, "--out", out, "--scenario", "cheap_gas,nope,dear_gas"]), 1);
      await assert.rejects(Deno.stat(out));
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("model-run --solver: the runner is asked for that solver", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const runner = await createHighsModelRunner({ solveIn: "process" });
    const asked: (RunOptions | undefined)[] = [];
    const code = await main([FIXTURE, "--out", dir, "--solver", "highs", "--time-limit", "60"], {
      runner: {
        prepare: (body) => runner.prepare(body),
        run: (model, hooks, options) => {
          asked.push(options);
          return runner.run(model, hooks, options);
        },
      },
    });
    assert.equal(code, 0);
    assert.deepEqual(asked.map((o) => o?.solver), [{ name: "highs", timeLimitS: 60 }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parseModelRunArgs() reads --solver and --scenario", () => {
  assert.deepEqual(
    parseModelRunArgs(["m.json", "--out", "r", "--solver", "GLPSOL", "--scenario", "a+b, c"]),
    {
      model: "m.json",
      out: "r",
      format: "parquet",
      solver: "glpk",
      scenarios: [["a", "b"], ["c"]],
    },
  );
  assert.throws(() => parseModelRunArgs(["m.json", "--out", "r", "--solver", "excel"]), /--solver/);
  assert.throws(() => parseModelRunArgs(["m.json", "--out", "r", "--scenario", "a,,b"]), /empty/);
  assert.throws(() => parseModelRunArgs(["m.json", "--out", "r", "--scenario", "a+"]), /empty/);
  assert.throws(
    () => parseModelRunArgs(["m.json", "--out", "r", "--scenario", "a", "--scenario", "b"]),
    /--scenario once/,
  );
  // The usage names both options and how a scenario combines override groups.
  assert.throws(() => parseModelRunArgs([]), (error: Error) => {
    assert.match(error.message, /--solver highs\|cbc\|/);
    assert.match(error.message, /--scenario/);
    assert.match(error.message, /cold\+expensive/);
    return true;
  });
});
