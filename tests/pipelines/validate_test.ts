import assert from "node:assert/strict";
import { join } from "node:path";
import { exportSchemas, schemaDrift } from "../../pipelines/export_schemas.ts";
import {
  catalogueCheck,
  schemaCheck,
  summaryLine,
  tabulaCheck,
  validateData,
  type ValidationCheck,
} from "../../pipelines/validate.ts";

const FIXTURES = new URL("../fixtures/tabula/", import.meta.url).pathname;
const CLI = new URL("../../pipelines/validate.ts", import.meta.url).pathname;

Deno.test("validateData passes the real TABULA data and the committed schemas", async () => {
  const summary = await validateData([tabulaCheck(), schemaCheck()]);
  assert.deepEqual(summary.problems, []);
  assert.equal(summary.rows, 2147 + 836);
  assert.equal(summaryLine(summary), "validate: 24 files, 2983 rows, 0 problems");
});

Deno.test("validateData passes every data set of the repository", async () => {
  const summary = await validateData();
  assert.deepEqual(summary.problems, []);
  // TABULA rows and references, plus the catalogue's instances.
  assert.ok(summary.rows > 2147 + 836);
});

Deno.test("validateData adds up every check's problems", async () => {
  const other: ValidationCheck = {
    name: "other",
    run: () =>
      Promise.resolve({
        files: 1,
        rows: 2,
        problems: [{ file: "x.json", row: 1, column: "a", message: "bad" }],
      }),
  };
  const summary = await validateData([tabulaCheck(join(FIXTURES, "broken")), other]);
  assert.equal(summary.files, 3);
  assert.equal(summary.rows, 7);
  assert.equal(summary.problems.length, 8);
});

Deno.test("schema drift is a problem until the schemas are exported", async () => {
  const dir = await Deno.makeTempDir();
  try {
    assert.deepEqual((await schemaDrift(dir)).map((p) => p.message.split(";")[0]), [
      "missing",
      "missing",
      "missing",
    ]);
    await exportSchemas(dir);
    assert.deepEqual(await schemaDrift(dir), []);
    const path = join(dir, "tabula_variant.schema.json");
    await Deno.writeTextFile(path, (await Deno.readTextFile(path)).replace('"m2"', '"m3"'));
    await Deno.writeTextFile(path, (await Deno.readTextFile(path)) + " ");
    const drift = await (schemaCheck(dir)).run();
    assert.deepEqual(drift.problems.map((p) => [p.file, p.row]), [[path, 0]]);
    assert.match(drift.problems[0]!.message, /differs from the generated schema/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pipelines/validate.ts prints file:row: column: message and exits 1", async () => {
  const run = (dir: string) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CLI, dir],
      stdout: "piped",
      stderr: "piped",
    }).output();
  const bad = await run(join(FIXTURES, "broken"));
  assert.equal(bad.code, 1);
  const lines = new TextDecoder().decode(bad.stderr).trim().split("\n");
  assert.equal(lines.length, 7);
  assert.ok(
    lines.some((l) => /germany\.csv:1: HeatingDays: must be <= 366 d\/a, got 400$/.test(l)),
  );
  assert.ok(lines.some((l) => /episcope\.csv:2: q_h_nd: expected a number/.test(l)));
  assert.equal(
    new TextDecoder().decode(bad.stdout).trim(),
    "validate: 5 files, 5 rows, 7 problems",
  );
  const good = await run(join(FIXTURES, "good"));
  assert.equal(good.code, 0);
  assert.equal(
    new TextDecoder().decode(good.stdout).trim(),
    "validate: 6 files, 7 rows, 0 problems",
  );
});

Deno.test("catalogueCheck() requires the manifest and every file it lists", async (t) => {
  const repo = new URL("../../", import.meta.url).pathname;
  const root = await Deno.makeTempDir();
  try {
    await Deno.mkdir(join(root, "catalogues", "profiles"), { recursive: true });
    await Deno.mkdir(join(root, "data"));
    for (const folder of ["catalogues", "catalogues/profiles"]) {
      for await (const e of Deno.readDir(join(repo, folder))) {
        if (e.isFile) await Deno.copyFile(join(repo, folder, e.name), join(root, folder, e.name));
      }
    }
    await Deno.symlink(join(repo, "data", "schemas"), join(root, "data", "schemas"));
    const problems = async () =>
      (await catalogueCheck(root).run()).problems.map((p) =>
        `${p.file.slice(root.length)}: ${p.message}`
      );

    await t.step("a copy of the repository's catalogue passes", async () => {
      assert.deepEqual(await problems(), []);
    });
    await t.step("a listed file that is missing is a problem naming it", async () => {
      await Deno.rename(join(root, "catalogues", "storage.json"), join(root, "storage.json"));
      assert.deepEqual(await problems(), [
        "/catalogues/storage.json: listed in manifest.json but missing: restore it, or remove " +
        "it from manifest.json to stop serving it",
      ]);
      await Deno.rename(join(root, "storage.json"), join(root, "catalogues", "storage.json"));
    });
    await t.step("a missing manifest is a problem", async () => {
      await Deno.remove(join(root, "catalogues", "manifest.json"));
      const found = await problems();
      assert.equal(found.length, 1);
      assert.match(found[0]!, /^\/catalogues\/manifest\.json: missing/);
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
