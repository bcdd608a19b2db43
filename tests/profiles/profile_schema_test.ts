import assert from "node:assert/strict";
import type { z } from "@hono/zod-openapi";
import { profileJsonSchemaFiles } from "../../lib/profiles/json_schema.ts";
import {
  catalogueProfileSchema,
  describeProfileIssues,
  MAX_TIMESTEPS,
  profileMetadataSchema,
  profileSchema,
} from "../../lib/profiles/profile_schema.ts";
import { ROOT } from "./_fixtures.ts";

/** A small valid profile: AT onshore wind on 28 February and 1 March 2016 (fixture rows). */
function profile(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const values = [0.1447, 0.1401, 0.1521, 0.2588];
  return {
    profile_id: "AT_onshore_wind_2016",
    name: "Austria onshore wind capacity factor 2016",
    type: "capacity_factor",
    resolution: "1h",
    location: "AT",
    carrier: "wind",
    year: 2016,
    n_timesteps: values.length,
    source: "Dispa-SET EU28 input data",
    unit: "per_unit",
    start: "2016-02-28T22:00:00Z",
    end: "2016-03-01T01:00:00Z",
    notes: ["29 February is dropped."],
    values,
    ...overrides,
  };
}

function problems(input: unknown, schema: z.ZodType = profileSchema): string[] {
  const parsed = schema.safeParse(input);
  return parsed.success ? [] : describeProfileIssues(parsed.error.issues);
}

Deno.test("profileSchema accepts a valid profile", () => {
  assert.deepEqual(problems(profile()), []);
  assert.deepEqual(problems(profile(), catalogueProfileSchema), []);
});

Deno.test("profileSchema rejects capacity factors outside [0, 1] with their index", () => {
  assert.deepEqual(problems(profile({ values: [0.1, 1.2, -0.01, 1] })), [
    "values[1]: 1.2 is above 1 for a capacity factor",
    "values[2]: -0.01 is below 0 for a capacity factor",
  ]);
});

Deno.test("profileSchema allows values above 1 for types other than capacity_factor", () => {
  assert.deepEqual(problems(profile({ type: "inflow", values: [1.1725, 2.1854, 0, 1] })), []);
});

Deno.test("profileSchema reports 20 capacity factors one by one, then a count", () => {
  const values = new Array(25).fill(1.5);
  const found = problems(profile({ values, n_timesteps: 25 }));
  assert.equal(found.length, 21);
  assert.equal(found[19], "values[19]: 1.5 is above 1 for a capacity factor");
  assert.equal(found[20], "values: 5 more values outside [0, 1] for a capacity factor");
});

Deno.test("profileSchema rejects values that are not finite numbers", async (t) => {
  for (const bad of [Infinity, -Infinity, NaN, null, "0.5"]) {
    await t.step(String(bad), () => {
      const found = problems(profile({ values: [0.1, bad, 0.2, 0.3] }));
      assert.equal(found.length, 1);
      assert.match(found[0] ?? "", /^values\[1\]: /);
    });
  }
});

Deno.test("profileSchema rejects n_timesteps that differs from the number of values", () => {
  assert.deepEqual(problems(profile({ n_timesteps: 8760 })), [
    "n_timesteps: is 8760 but values has 4 entries",
  ]);
});

Deno.test("profileSchema takes 1 to 35,136 values", () => {
  assert.equal(MAX_TIMESTEPS, 35_136);
  const at = (n: number) => profile({ values: new Array(n).fill(0.5), n_timesteps: n });
  assert.deepEqual(problems(at(1)), []);
  assert.deepEqual(problems(at(MAX_TIMESTEPS)), []);
  assert.ok(problems(at(0)).some((p) => p.startsWith("values: ")));
  assert.ok(problems(at(MAX_TIMESTEPS + 1)).some((p) => p.startsWith("values: ")));
  assert.ok(problems(at(MAX_TIMESTEPS + 1)).some((p) => p.startsWith("n_timesteps: ")));
});

Deno.test("profileSchema rejects an end before the start and unknown members", () => {
  assert.deepEqual(problems(profile({ end: "2016-01-01T00:00:00Z" })), [
    "end: 2016-01-01T00:00:00Z is before start 2016-02-28T22:00:00Z",
  ]);
  assert.equal(problems(profile({ colour: "red" })).length, 1);
});

Deno.test("profileMetadataSchema needs only the spec's nine members; catalogue files more", () => {
  const { unit: _u, start: _s, end: _e, notes: _n, values: _v, ...spec } = profile();
  assert.deepEqual(problems(spec, profileMetadataSchema), []);
  const missing = problems({ ...spec, values: profile()["values"] }, catalogueProfileSchema);
  assert.deepEqual(missing.map((p) => p.split(":")[0]).sort(), ["end", "notes", "start", "unit"]);
});

Deno.test("data/schemas/profile*.schema.json equal the schemas generated from zod", async () => {
  for (const [name, text] of Object.entries(profileJsonSchemaFiles())) {
    assert.equal(await Deno.readTextFile(`${ROOT}data/schemas/${name}`), text, name);
  }
});
