import assert from "node:assert/strict";
import { call, heatApp, typology } from "./_heat.ts";

const app = heatApp();

Deno.test("GET /api/v1/variants/{country} lists every code with the country's name", async () => {
  const reply = await call(app, "/api/v1/variants/DE");
  assert.equal(reply.status, 200);
  assert.equal(reply.body.country, "germany");
  assert.deepEqual(reply.body.data, [...typology.variantCodes("DE")]);
  assert.equal(reply.body.data.length, 232);
});

Deno.test("GET /api/v1/variants/{country} takes a lower-case code", async () => {
  const reply = await call(app, "/api/v1/variants/de");
  assert.equal(reply.status, 200);
  assert.equal(reply.body.country, "germany");
});

Deno.test("GET /api/v1/variants/{country} rejects unknown and malformed countries", async (t) => {
  for (
    const [path, message] of [
      ["/api/v1/variants/XX", /^Unknown country "XX": no dataset for it; known: AT, /],
      ["/api/v1/variants/DEU", /^Invalid path: country_iso2: must match \^\[A-Za-z\]\{2\}\$ /],
      ["/api/v1/variants/D", /^Invalid path: country_iso2: must match \^\[A-Za-z\]\{2\}\$ /],
    ] as const
  ) {
    await t.step(path, async () => {
      const reply = await call(app, path);
      assert.equal(reply.status, 400);
      assert.match(reply.body.error, message);
    });
  }
});

const match = (query: string, country = "DE") =>
  call(app, `/api/v1/variants/${country}/match?${query}`);

Deno.test("GET .../match by period returns the three levels in order", async () => {
  const reply = await match("type=SFH&period=02");
  assert.equal(reply.status, 200);
  assert.deepEqual(reply.body, {
    country: "germany",
    prefix: "DE.N.SFH.02",
    data: [
      { code: "DE.N.SFH.02.Gen.ReEx.001.001", label: "existing state" },
      { code: "DE.N.SFH.02.Gen.ReEx.001.002", label: "usual refurbishment" },
      { code: "DE.N.SFH.02.Gen.ReEx.001.003", label: "advanced refurbishment" },
    ],
  });
});

Deno.test("GET .../match takes the period as the dataset writes it too (DE.02)", async () => {
  const reply = await match("type=SFH&period=DE.02");
  assert.equal(reply.body.prefix, "DE.N.SFH.02");
  assert.equal(reply.body.data.length, 3);
});

Deno.test("GET .../match by year resolves the band containing it", async (t) => {
  for (const [year, prefix] of [["1918", "DE.N.MFH.02"], ["1919", "DE.N.MFH.03"]] as const) {
    await t.step(year, async () => {
      const reply = await match(`type=MFH&year=${year}`);
      assert.equal(reply.status, 200);
      assert.equal(reply.body.prefix, prefix);
      assert.equal(reply.body.data[0].code, `${prefix}.Gen.ReEx.001.001`);
    });
  }
});

Deno.test("GET .../match with a year outside the type's bands gives 200 and no data", async () => {
  // German apartment blocks stop at period 06 (1969-1978).
  const reply = await match("type=AB&year=2005");
  assert.equal(reply.status, 200);
  assert.deepEqual(reply.body, { country: "germany", prefix: "DE.N.AB", data: [] });
});

Deno.test("GET .../match with a period the type lacks gives 200 and no data", async () => {
  const reply = await match("type=AB&period=01");
  assert.equal(reply.status, 200);
  assert.deepEqual(reply.body, { country: "germany", prefix: "DE.N.AB.01", data: [] });
});

Deno.test("GET .../match uses the default set, or the one named by set", async (t) => {
  await t.step("Greece defaults to its first climate zone", async () => {
    const reply = await match("type=SFH&year=1990", "GR");
    assert.equal(reply.body.country, "greece");
    assert.equal(reply.body.prefix, "GR.ZoneA.SFH.02");
    assert.equal(reply.body.data.length, 3);
  });
  await t.step("set=ZoneC", async () => {
    const reply = await match("type=SFH&year=1990&set=ZoneC", "GR");
    assert.equal(reply.body.prefix, "GR.ZoneC.SFH.02");
    assert.equal(reply.body.data[0].code, "GR.ZoneC.SFH.02.Gen.ReEx.001.001");
  });
  await t.step("set=East", async () => {
    const reply = await match("type=AB&period=07&set=East");
    assert.equal(reply.body.prefix, "DE.East.AB.07");
    assert.equal(reply.body.data.length, 3);
  });
});

Deno.test("GET .../match rejects invalid queries with 400 { error }", async (t) => {
  const cases: [string, string][] = [
    ["period=02", "Invalid query: type: is required; one of SFH, TH, MFH, AB"],
    ["type=XYZ&period=02", "Invalid query: type: must be one of SFH, TH, MFH, AB"],
    ["type=SFH", "Invalid query: give exactly one of period and year"],
    ["type=SFH&period=02&year=1900", "Invalid query: give exactly one of period and year"],
    ["type=SFH&year=1990.5", "Invalid query: year: must be an integer"],
    ["type=SFH&year=abc", "Invalid query: year: must be an integer"],
    ["type=SFH&year=", "Invalid query: year: must be an integer"],
    [
      "type=SFH&period=02&set=West",
      'Invalid query: set: unknown variant set "West" for DE; known: N, DistrictMZLerch, East',
    ],
  ];
  for (const [query, error] of cases) {
    await t.step(query, async () => {
      const reply = await match(query);
      assert.equal(reply.status, 400);
      assert.deepEqual(reply.body, { error });
    });
  }
  await t.step("unknown country", async () => {
    const reply = await match("type=SFH&period=02", "ZZ");
    assert.equal(reply.status, 400);
    assert.match(reply.body.error, /^Unknown country "ZZ"/);
  });
});
