import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  catalogueJsonSchemaFiles,
  checkCatalogueSchemaFiles,
  validateCatalogueDir,
} from "../../pipelines/catalogue_validate.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

Deno.test("validateCatalogueDir() passes the committed catalogue and counts it", async () => {
  const { files, problems } = await validateCatalogueDir(`${ROOT}catalogues`);
  assert.deepEqual(problems, []);
  assert.deepEqual(
    files.map((f) => [f.path.slice(`${ROOT}catalogues/`.length), f.format, f.errors]),
    [
      ["conversion.json", "catalogue", 0],
      ["generation.json", "catalogue", 0],
      ["storage.json", "catalogue", 0],
      ["transmission.json", "catalogue", 0],
    ],
  );
  assert.equal(files.reduce((n, f) => n + f.technologies, 0), 39);
  assert.equal(files.reduce((n, f) => n + f.instances, 0), 240);
});

Deno.test("validateCatalogueDir() counts problems per file in the broken fixtures", async () => {
  const { files, problems } = await validateCatalogueDir(
    `${ROOT}tests/fixtures/catalogue/broken`,
  );
  const errors = Object.fromEntries(files.map((f) => [f.path.split("/").pop(), f.errors]));
  assert.deepEqual(errors, {
    "bad_id_no_instances_legacy.json": 2,
    "bad_schema_catalogue.json": 5,
    "bad_units_legacy.json": 2,
    "domain_mismatch_catalogue.json": 3,
    "duplicate_id_catalogue.json": 0,
    "duplicate_id_catalogue_2.json": 1,
    "ramp_mismatch_legacy.json": 1,
  });
  assert.equal(problems.length, 14);
  assert.ok(problems.every((p) => p.file && p.message));
});

Deno.test("the committed JSON Schemas equal the ones generated from the zod schemas", async () => {
  assert.deepEqual(await checkCatalogueSchemaFiles(ROOT), []);
  const schema = JSON.parse(catalogueJsonSchemaFiles()["catalogue.schema.json"] as string);
  assert.equal(schema.title, "Technology catalogue file");
  assert.deepEqual(schema.required, ["metadata", "technologies"]);
});

Deno.test("checkCatalogueSchemaFiles() reports a missing or stale schema file", async () => {
  const root = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${root}/data/schemas`, { recursive: true });
    await Deno.writeTextFile(`${root}/data/schemas/catalogue.schema.json`, "{}\n");
    const lines = await checkCatalogueSchemaFiles(root);
    assert.equal(lines.length, 2);
    assert.match(lines[0] as string, /catalogue\.schema\.json: differs/);
    assert.match(lines[1] as string, /catalogue_legacy\.schema\.json: missing/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
