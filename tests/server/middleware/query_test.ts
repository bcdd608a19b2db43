import assert from "node:assert/strict";
import { DECIMAL_PATTERN, MAX_QUERY_VALUE_CHARS } from "../../../server/middleware/query.ts";
import { call, heatApp } from "../heat/_heat.ts";
import { testApp } from "../catalogue/_catalogue.ts";

/** 64 KB of digits and an `x`: the audit's value, quadratic for a backtracking pattern. */
const HUGE = "1".repeat(64_000) + "x";

/** Every numeric query parameter of every service, on a route that reads it. */
const CATALOGUE_NUMERIC = [
  "/api/v1/adapt/pypsa/ccgt?discount_rate=",
  "/api/v1/adapt/pypsa/ccgt?instance_index=",
  "/api/v1/technologies/calliope?interest_rate=",
  "/api/v1/technologies?skip=",
  "/api/v1/technologies?limit=",
  "/api/v1/timeseries?skip=",
  "/api/v1/timeseries?limit=",
];
const HEAT_NUMERIC = ["/api/v1/variants/DE/match?year="];

// The time of these answers (target: under 50 ms each) is measured by benchmarks/query_bench.ts.
Deno.test("every numeric query parameter answers a 64 KB value with 400", async (t) => {
  const catalogue = await testApp();
  const heat = heatApp();
  try {
    const cases = [
      ...CATALOGUE_NUMERIC.map((path) => [catalogue.app, path] as const),
      ...HEAT_NUMERIC.map((path) => [heat, path] as const),
    ];
    for (const [app, path] of cases) {
      await t.step(path, async () => {
        const reply = await call(app, `${path}${HUGE}`);
        assert.equal(reply.status, 400);
        assert.match(reply.body.error, /longer than 256 characters/);
      });
    }
  } finally {
    await catalogue.dispose();
  }
});

Deno.test("DECIMAL_PATTERN decides in linear time, also just under the length limit", () => {
  const almost = "1".repeat(MAX_QUERY_VALUE_CHARS * 400) + "x";
  const started = performance.now();
  assert.equal(DECIMAL_PATTERN.test(almost), false);
  // Linear: well under a millisecond. A backtracking pattern takes seconds on these 102,401
  // characters, so a generous bound still tells them apart on a loaded machine.
  assert.ok(performance.now() - started < 1000);
  for (const good of ["0", "-1", "1.", ".5", "1.5e-3", "2E10"]) {
    assert.ok(DECIMAL_PATTERN.test(good));
  }
  for (const bad of ["", "-", ".", "1e", "1.2.3", "0x10", "1_000", " 1"]) {
    assert.equal(DECIMAL_PATTERN.test(bad), false, bad);
  }
});

Deno.test("a query parameter name over 256 characters or a query over 4 KB is refused", async () => {
  const catalogue = await testApp();
  try {
    const longName = await call(catalogue.app, `/api/v1/technologies?${"n".repeat(300)}=1`);
    assert.equal(longName.status, 400);
    assert.match(longName.body.error, /^Query parameter name "n+\.\.\.": longer than 256/);
    const many = Array.from({ length: 1000 }, (_, i) => `p${i}=1`).join("&");
    const longQuery = await call(catalogue.app, `/api/v1/technologies?${many}`);
    assert.equal(longQuery.status, 400);
    assert.equal(longQuery.body.error, "Query string longer than 4096 characters");
    const fine = await call(catalogue.app, `/api/v1/technologies?limit=${"0".repeat(250)}5`);
    assert.equal(fine.status, 200, "a long but bounded value is parsed as usual");
  } finally {
    await catalogue.dispose();
  }
});
