import assert from "node:assert/strict";
import { loadProfiles, readProfile, readProfileIndex } from "../../lib/profiles/profile_store.ts";
import { openStore } from "../../lib/store/store.ts";
import { fixtureCatalogueDir, ROOT } from "./_fixtures.ts";

Deno.test("loadProfiles() writes the profiles; readProfile() gives back the file exactly", async () => {
  const dir = await fixtureCatalogueDir();
  const store = await openStore(":memory:");
  try {
    assert.equal(await loadProfiles(store, dir), 13);
    const index = await readProfileIndex(store);
    const ids = index.map((m) => m.profile_id);
    assert.equal(ids.length, 13);
    assert.deepEqual(ids, [...ids].sort());
    assert.ok(index.every((m) => !("values" in m)));
    for (const id of ids) {
      const file = JSON.parse(await Deno.readTextFile(`${dir}/${id}.json`));
      assert.deepEqual(await readProfile(store, id), file);
    }
    const fileIndex = JSON.parse(await Deno.readTextFile(`${dir}/index.json`));
    assert.deepEqual(index, fileIndex.profiles);
    assert.equal(await readProfile(store, "XX_solar_pv_2016"), null);
  } finally {
    await store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadProfiles() replaces earlier profiles and refuses an invalid folder", async () => {
  const dir = await fixtureCatalogueDir();
  const store = await openStore(":memory:");
  try {
    await loadProfiles(store, dir);
    await loadProfiles(store, dir);
    assert.equal((await readProfileIndex(store)).length, 13);
    await Deno.remove(`${dir}/AT_load_2016.json`);
    await assert.rejects(
      () => loadProfiles(store, dir),
      (e) => e instanceof RangeError && /no file AT_load_2016\.json/.test(e.message),
    );
    assert.equal((await readProfileIndex(store)).length, 13);
  } finally {
    await store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadProfiles() loads the committed catalogue", async () => {
  const store = await openStore(":memory:");
  try {
    assert.equal(await loadProfiles(store, `${ROOT}catalogues/profiles`), 57);
    const gb = await readProfile(store, "GB_price_2016");
    assert.equal(gb?.n_timesteps, 4441);
    assert.equal(gb?.start, "2016-06-29T23:00:00Z");
    const ror = await readProfile(store, "NO_hydro_ror_2016");
    assert.equal(ror?.values.length, 8760);
    assert.equal(Math.max(...(ror?.values ?? [])), 1);
  } finally {
    await store.close();
  }
});
