import assert from "node:assert/strict";
import { join } from "node:path";
import { main, parseModelRunArgs } from "../../pipelines/model_run.ts";
import { openStore } from "../../lib/store/store.ts";

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
