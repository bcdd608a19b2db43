import assert from "node:assert/strict";
import { validateProfilesDir } from "../../pipelines/profiles_validate.ts";
import { fixtureCatalogueDir, ROOT } from "../profiles/_fixtures.ts";

async function editJson(path: string, edit: (json: Record<string, unknown>) => void) {
  const json = JSON.parse(await Deno.readTextFile(path));
  edit(json);
  await Deno.writeTextFile(path, JSON.stringify(json));
}

Deno.test("validateProfilesDir() finds no problem in the committed catalogue", async () => {
  assert.deepEqual(await validateProfilesDir(`${ROOT}catalogues/profiles`), []);
});

Deno.test("validateProfilesDir() finds no problem in the fixture catalogue", async () => {
  const dir = await fixtureCatalogueDir();
  try {
    assert.deepEqual(await validateProfilesDir(dir), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("validateProfilesDir() reports every problem at once with file and path", async () => {
  const dir = await fixtureCatalogueDir();
  try {
    await editJson(`${dir}/NO_solar_pv_2016.json`, (p) => {
      (p["values"] as number[])[3] = 1.2;
    });
    await editJson(`${dir}/NO_load_2016.json`, (p) => {
      (p["values"] as number[]).pop();
    });
    await editJson(`${dir}/AT_load_2016.json`, (p) => {
      p["name"] = "Austria load";
    });
    await Deno.remove(`${dir}/AT_price_2016.json`);
    await Deno.writeTextFile(`${dir}/AT_solar_pv_2016.json`, "{ not json");
    await editJson(`${dir}/NO_price_2016.json`, (p) => {
      p["profile_id"] = "NO_price_2017";
    });
    await Deno.writeTextFile(
      `${dir}/AT_offshore_wind_2016.json`,
      await Deno.readTextFile(`${dir}/NO_offshore_wind_2016.json`),
    );

    const problems = await validateProfilesDir(dir);
    const expected = [
      "NO_solar_pv_2016.json: values[3]: 1.2 is above 1 for a capacity factor",
      "NO_load_2016.json: n_timesteps: is 6 but values has 5 entries",
      "index.json: profiles[2] (AT_load_2016).name: " +
      '"Austria electricity load 2016" in the index, "Austria load" in AT_load_2016.json',
      "index.json: profiles[4] (AT_price_2016): no file AT_price_2016.json",
      "AT_solar_pv_2016.json: not valid JSON",
      'NO_price_2016.json: profile_id: "NO_price_2017" does not match the file name',
      "AT_offshore_wind_2016.json: not listed in index.json",
      "AT_offshore_wind_2016.json: its series is listed as not published",
    ];
    for (const line of expected) {
      assert.ok(
        problems.some((p) => p.startsWith(line)),
        `missing: ${line}\n${problems.join("\n")}`,
      );
    }
    // Valid files and the unreadable one's index entry raise nothing more.
    assert.ok(!problems.some((p) => p.includes("AT_hydro_reservoir_inflow_2016")));
    assert.ok(!problems.some((p) => p.includes("no file AT_solar_pv_2016.json")));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("validateProfilesDir() reports a missing index", async () => {
  const dir = await fixtureCatalogueDir();
  try {
    await Deno.remove(`${dir}/index.json`);
    const problems = await validateProfilesDir(dir);
    assert.match(problems[0] ?? "", /^index\.json: cannot be read/);
    assert.ok(problems.some((p) => p === "AT_load_2016.json: not listed in index.json"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
