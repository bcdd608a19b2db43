import assert from "node:assert/strict";
import {
  buildProfileFiles,
  checkProfileFiles,
  main,
  writeProfileFiles,
} from "../../pipelines/profiles_build.ts";
import { ROOT } from "../profiles/_fixtures.ts";

Deno.test("profiles_build: a rebuild equals the committed catalogue and schemas", async () => {
  const files = await buildProfileFiles(ROOT);
  assert.equal(files.size, 57 + 2 + 2);
  assert.deepEqual(await checkProfileFiles(ROOT, files), []);
});

Deno.test("profiles_build --check fails on a changed, missing or extra file; a write mends it", async () => {
  const root = await Deno.makeTempDir({ prefix: "profiles_build_test_" });
  const quiet = { log: console.log, error: console.error };
  console.log = console.error = () => {};
  try {
    await Deno.mkdir(`${root}/data/profiles`, { recursive: true });
    for await (const e of Deno.readDir(`${ROOT}data/profiles`)) {
      await Deno.copyFile(`${ROOT}data/profiles/${e.name}`, `${root}/data/profiles/${e.name}`);
    }
    assert.equal(await main(["--root", root]), 0);
    const files = await buildProfileFiles(root);
    assert.deepEqual(await checkProfileFiles(root, files), []);

    const de = `${root}/catalogues/profiles/DE_load_2016.json`;
    const text = await Deno.readTextFile(de);
    await Deno.writeTextFile(de, text.replace("40118.4", "40118.5"));
    await Deno.remove(`${root}/data/schemas/profile.schema.json`);
    await Deno.writeTextFile(`${root}/catalogues/profiles/XX_load_2016.json`, "{}");
    assert.deepEqual(await checkProfileFiles(root, files), [
      "catalogues/profiles/DE_load_2016.json: differs from a rebuild",
      "data/schemas/profile.schema.json: missing",
      "catalogues/profiles/XX_load_2016.json: not produced by the build",
    ]);
    // The rebuilt copy is written beside, for a diff; the committed file is left alone.
    assert.equal(
      await Deno.readTextFile(`${root}/profiles-changed/catalogues/profiles/DE_load_2016.json`),
      text,
    );
    assert.notEqual(await Deno.readTextFile(de), text);
    assert.equal(await main(["--root", root, "--check"]), 1);

    await writeProfileFiles(root, files);
    assert.deepEqual(await checkProfileFiles(root, files), []);
  } finally {
    Object.assign(console, quiet);
    await Deno.remove(root, { recursive: true });
  }
});
