/**
 * Every path and query value of the heat service that becomes part of a code or a lookup key is
 * checked against its pattern (issue 7, finding 9): 400 naming the parameter and the pattern.
 */
import assert from "node:assert/strict";
import { call, heatApp } from "./_heat.ts";

const app = heatApp();

Deno.test("GET .../match refuses a period that is not a code segment (06|zzz)", async (t) => {
  for (const period of ["06|zzz", "06.Gen", "06%20", "0%2A", "DE.06|zzz", "../06", "DE."]) {
    await t.step(period, async () => {
      const reply = await call(app, `/api/v1/variants/DE/match?type=SFH&period=${period}`);
      assert.equal(reply.status, 400, JSON.stringify(reply.body));
      assert.equal(
        reply.body.error,
        "Invalid query: period: must match ^([A-Z]{2}\\.)?[A-Za-z0-9-]+$ " +
          "(a period as /api/v1/periods lists it, e.g. 02, or DE.02)",
      );
    });
  }
});

Deno.test("GET .../match refuses a period prefixed with another country", async () => {
  const reply = await call(app, "/api/v1/variants/DE/match?type=SFH&period=FR.02");
  assert.equal(reply.status, 400);
  assert.deepEqual(reply.body, {
    error: 'Invalid query: period: "FR.02" names another country than DE; give 02 or DE.02',
  });
});

Deno.test("the heat routes refuse a set that is not a code segment", async (t) => {
  for (
    const path of [
      "/api/v1/variants/DE/match?type=SFH&period=02&set=N|x",
      "/api/v1/variants/DE/match?type=SFH&period=02&set=",
      "/api/v1/periods/DE?set=N.SFH",
      "/api/v1/periods/DE?set=N|SFH",
    ]
  ) {
    await t.step(path, async () => {
      const reply = await call(app, path);
      assert.equal(reply.status, 400);
      assert.deepEqual(reply.body, {
        error: "Invalid query: set: must match ^[A-Za-z0-9-]+$ (a variant set, e.g. N or East)",
      });
    });
  }
});

Deno.test("the heat routes refuse a country that is not two letters", async (t) => {
  for (const country of ["D|", "D.", "1E", "D%20", "DEU", "D"]) {
    for (const path of [`/api/v1/variants/${country}`, `/api/v1/periods/${country}`]) {
      await t.step(path, async () => {
        const reply = await call(app, path);
        assert.equal(reply.status, 400);
        assert.deepEqual(reply.body, {
          error: "Invalid path: country_iso2: must match ^[A-Za-z]{2}$ " +
            "(an ISO 3166-1 alpha-2 code, e.g. DE)",
        });
      });
    }
  }
});

Deno.test("the code routes name the variant-code pattern", async (t) => {
  for (
    const [method, path] of [
      ["GET", "/api/v1/data/DE.N.SFH.02|x.Gen.ReEx.001.001"],
      ["POST", "/api/v1/calculate/DE.N.SFH.02.Gen.ReEx.001.001|x"],
    ] as const
  ) {
    await t.step(path, async () => {
      const reply = await call(app, path, { method });
      assert.equal(reply.status, 400);
      assert.match(
        reply.body.error,
        /^Invalid path: code: must match \^\[A-Z\]\{2\}\(\\\.\[A-Za-z0-9-\]\+\)\+/,
      );
    });
  }
});
