import assert from "node:assert/strict";
import { join } from "node:path";
import { readTabulaSources } from "../../../lib/heat/tabula/tabula_sources.ts";
import { formatProblem } from "../../../lib/validation/problems.ts";

const FIXTURES = new URL("../../fixtures/tabula/", import.meta.url).pathname;
const GOOD = join(FIXTURES, "good");
const BROKEN = join(FIXTURES, "broken");

/** A writable copy of a fixture folder. */
async function copyFixture(from: string): Promise<string> {
  const dir = await Deno.makeTempDir();
  for (const sub of ["city2tabula", "tsib"]) {
    await Deno.mkdir(join(dir, sub));
    for await (const e of Deno.readDir(join(from, sub))) {
      await Deno.copyFile(join(from, sub, e.name), join(dir, sub, e.name));
    }
  }
  return dir;
}

/** Problems as `row column` strings, for compact comparisons. */
const cells = (problems: readonly { row: number; column: string }[]) =>
  problems.map((p) => `${p.row} ${p.column}`);

Deno.test("readTabulaSources reads a real sample without problems", async () => {
  const sources = await readTabulaSources(GOOD);
  assert.deepEqual(sources.problems, []);
  assert.equal(sources.files.length, 3);
  assert.equal(sources.rowCount, 7);
  assert.deepEqual(sources.countries.map((c) => [c.country.name, c.rows.length]), [
    ["france", 2],
    ["germany", 3],
  ]);
  const france = sources.countries[0]!;
  assert.deepEqual(france.rows.map((r) => r.sourceRow), [1, 2]);
  assert.equal(
    france.rows[1]!.row["Description_BuildingVariant"],
    'Thermal enveloppe according to label "Passivhaus" in climate zone H1',
    "apostrophe-escaped quotes of the export are read as quotes",
  );
  assert.deepEqual(sources.references.map((r) => r.row["Code_BuildingVariant"]), [
    "DE.N.AB.02.Gen.ReEx.001.001",
    "FR.N.AB.10.Gen.ReEx.001.001",
  ]);
});

Deno.test("readTabulaSources lists every problem of a broken sample", async () => {
  const sources = await readTabulaSources(BROKEN);
  const germany = join(BROKEN, "city2tabula", "germany.csv");
  const episcope = join(BROKEN, "tsib", "episcope.csv");
  const byFile = (file: string) =>
    sources.problems.filter((p) => file.endsWith(p.file) || p.file === file);
  assert.deepEqual(cells(byFile(germany)).sort(), [
    "1 A_Roof_1",
    "1 HeatingDays",
    "2 U_Wall_1",
    "2 c_m",
    "3 Code_BuildingVariant",
    "3 Year1_Building",
  ]);
  assert.deepEqual(cells(byFile(episcope)), ["2 q_h_nd"]);
  assert.equal(sources.problems.length, 7);
  const line = formatProblem(byFile(germany).find((p) => p.column === "U_Wall_1")!);
  assert.match(line, /germany\.csv:2: U_Wall_1: expected a number, got "abc"$/);
  assert.deepEqual(sources.countries.map((c) => c.rows.length), [], "no valid German row left");
  assert.equal(sources.references.length, 1, "the valid reference row is kept for the report");
});

Deno.test("readTabulaSources checks headers, file names, countries and duplicates", async (t) => {
  const dir = await copyFixture(GOOD);
  try {
    const germany = join(dir, "city2tabula", "germany.csv");
    const text = await Deno.readTextFile(germany);
    await t.step("a missing and an unknown column are named once", async () => {
      await Deno.writeTextFile(germany, text.replace(",U_Roof_1,", ",U_Roof_one,"));
      const { problems } = await readTabulaSources(dir);
      assert.deepEqual(problems.map((p) => [p.row, p.column, p.message]), [
        [0, "U_Roof_1", "column missing from the header"],
        [0, "U_Roof_one", "unknown column (not in the parameter schema)"],
      ]);
    });
    await t.step("a variant filed under another country", async () => {
      await Deno.writeTextFile(germany, text);
      await Deno.rename(germany, join(dir, "city2tabula", "austria.csv"));
      const { problems } = await readTabulaSources(dir);
      assert.deepEqual(cells(problems), [
        "1 Code_BuildingVariant",
        "2 Code_BuildingVariant",
        "3 Code_BuildingVariant",
      ]);
      assert.match(problems[0]!.message, /variant of germany in the file of austria/);
      await Deno.rename(join(dir, "city2tabula", "austria.csv"), germany);
    });
    await t.step("a file that is not a country", async () => {
      await Deno.writeTextFile(join(dir, "city2tabula", "atlantis.csv"), text);
      const { problems } = await readTabulaSources(dir);
      assert.ok(problems.some((p) => p.row === 0 && /not a known country/.test(p.message)));
      assert.ok(problems.some((p) => /duplicate variant code/.test(p.message)));
      await Deno.remove(join(dir, "city2tabula", "atlantis.csv"));
    });
    await t.step("a duplicate code inside one file", async () => {
      const lines = text.trimEnd().split("\n");
      await Deno.writeTextFile(germany, [...lines, lines[1]].join("\n") + "\n");
      const { problems } = await readTabulaSources(dir);
      assert.deepEqual(cells(problems), ["4 Code_BuildingVariant"]);
      assert.match(problems[0]!.message, /first at .*germany\.csv:1$/);
      await Deno.writeTextFile(germany, text);
    });
    await t.step("missing reference file", async () => {
      await Deno.remove(join(dir, "tsib", "episcope.csv"));
      const { problems } = await readTabulaSources(dir);
      assert.deepEqual(problems.map((p) => [p.row, p.message]), [[0, "file not found"]]);
    });
    await t.step("missing country folder", async () => {
      const { problems } = await readTabulaSources(join(dir, "nowhere"));
      assert.deepEqual(problems.map((p) => p.message), ["directory not found", "file not found"]);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
