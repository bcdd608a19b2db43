import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { buildCatalogueFiles, checkCatalogueFiles } from "../../pipelines/catalogue_build.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

Deno.test("catalogue build output equals the committed files", async () => {
  const files = await buildCatalogueFiles(ROOT);
  assert.deepEqual([...files.keys()].sort(), [
    "catalogues/conversion.json",
    "catalogues/generation.json",
    "catalogues/manifest.json",
    "catalogues/storage.json",
    "catalogues/transmission.json",
    "data/schemas/catalogue.schema.json",
    "data/schemas/catalogue_legacy.schema.json",
    "data/technology/MISSING.md",
  ]);
  for (const [path, text] of files) {
    assert.equal(await Deno.readTextFile(`${ROOT}${path}`), text, `${path} differs from a rebuild`);
  }
});

Deno.test("checkCatalogueFiles() lists a changed file and writes the rebuilt copy", async () => {
  const root = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${root}/catalogues`);
    await Deno.writeTextFile(`${root}/catalogues/generation.json`, "{}\n");
    const files = new Map([["catalogues/generation.json", '{"a":1}\n']]);
    assert.deepEqual(await checkCatalogueFiles(root, files), [
      "catalogues/generation.json: differs from a rebuild",
    ]);
    assert.equal(
      await Deno.readTextFile(`${root}/catalogues-changed/catalogues/generation.json`),
      '{"a":1}\n',
    );
    assert.deepEqual(await checkCatalogueFiles(root, new Map([["catalogues/x.json", "1"]])), [
      "catalogues/x.json: missing",
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
