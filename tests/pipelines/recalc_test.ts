import assert from "node:assert/strict";
import { join } from "node:path";
import Papa from "papaparse";
import { main, writeResults } from "../../pipelines/recalc.ts";
import { openStore } from "../../lib/store/store.ts";
import { ensureStore } from "../../lib/store/build_store.ts";
import { defaultSteps } from "../../lib/data_sets.ts";

const dir = await Deno.makeTempDir({ prefix: "recalc_test_" });
const storePath = join(dir, "store.duckdb");
await ensureStore(storePath, { steps: defaultSteps() });

const results = [
  { code: "A", q_h_nd: 100.5, reference: 100, deviation: 0.005 },
  { code: "B", q_h_nd: 50, reference: null, deviation: null },
];

Deno.test("writeResults() writes CSV with empty cells for missing references", async () => {
  const out = join(dir, "results.csv");
  await writeResults(out, results);
  assert.equal(
    await Deno.readTextFile(out),
    "code,q_h_nd,reference_q_h_nd,deviation\r\nA,100.5,100,0.005\r\nB,50,,\n",
  );
});

Deno.test("writeResults() writes Parquet through DuckDB for a .parquet path", async () => {
  const out = join(dir, "results.parquet");
  await writeResults(out, results);
  const store = await openStore(":memory:");
  const rows = await store.all(`SELECT * FROM read_parquet('${out}') ORDER BY code`);
  await store.close();
  assert.deepEqual(rows, [
    { code: "A", q_h_nd: 100.5, reference_q_h_nd: 100, deviation: 0.005 },
    { code: "B", q_h_nd: 50, reference_q_h_nd: null, deviation: null },
  ]);
});

Deno.test("recalc main() recalculates a country to CSV", async () => {
  const out = join(dir, "at.csv");
  assert.equal(await main(["--country", "at", "--out", out, "--store", storePath]), 0);
  const parsed = Papa.parse<Record<string, string>>(await Deno.readTextFile(out), {
    header: true,
    skipEmptyLines: true,
  });
  assert.ok(parsed.data.length > 100);
  assert.ok(parsed.data.every((r) => r.code?.startsWith("AT.") && Number(r.q_h_nd) > 0));
});

Deno.test("recalc main() recalculates a stock CSV with overrides and surfaces", async () => {
  const input = join(dir, "stock.csv");
  await Deno.writeTextFile(
    input,
    "code,theta_i,surfaces\n" +
      "DE.N.SFH.05.Gen.ReEx.001.002,21,\n" +
      'DE.N.SFH.05.Gen.ReEx.001.002,,"[{""id"":""w"",""type"":""wall"",""area"":150,' +
      '""u_value"":0.3}]"\n',
  );
  const out = join(dir, "stock_out.csv");
  assert.equal(await main(["--input", input, "--out", out, "--store", storePath]), 0);
  const rows = Papa.parse<Record<string, string>>(await Deno.readTextFile(out), {
    header: true,
    skipEmptyLines: true,
  }).data;
  assert.equal(rows.length, 2);
  assert.notEqual(rows[0]!.q_h_nd, rows[1]!.q_h_nd);
});

Deno.test("recalc main() exits 1 on invalid stock rows and writes nothing", async () => {
  const input = join(dir, "bad.csv");
  await Deno.writeTextFile(
    input,
    "code,theta_i\nXX.nothing,20\nDE.N.SFH.05.Gen.ReEx.001.002,hot\n",
  );
  const out = join(dir, "bad_out.csv");
  assert.equal(await main(["--input", input, "--out", out, "--store", storePath]), 1);
  await assert.rejects(Deno.stat(out), Deno.errors.NotFound);
});

Deno.test("recalc main() exits 1 on an unknown country", async () => {
  assert.equal(
    await main(["--country", "zz", "--out", join(dir, "zz.csv"), "--store", storePath]),
    1,
  );
});
