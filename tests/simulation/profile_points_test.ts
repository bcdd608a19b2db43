import assert from "node:assert/strict";
import { hydrogenPayloadSchema } from "../../lib/simulation/hydrogen/payload.ts";
import { ccsPayloadSchema } from "../../lib/simulation/ccs/payload.ts";
import { MAX_POINT_ISSUES } from "../../lib/simulation/profile_points.ts";
import { MAX_PROFILE_POINTS } from "../../lib/simulation/simulation_model.ts";

const YEAR_MINUTES = 525_600;

// Its time (target: under 3 s) is measured by benchmarks/simulation_bench.ts.
Deno.test("hydrogen payload: the client's profile for a year at 1-minute steps is accepted", () => {
  const profile = Array.from(
    { length: YEAR_MINUTES + 1 },
    (_, i) => ({ time_s: i * 60, power_kw: i % 1000 }),
  );
  const payload = { simulation: { t_end_s: YEAR_MINUTES * 60, dt_s: 60 }, source: { profile } };
  const t0 = performance.now();
  const parsed = hydrogenPayloadSchema.parse(payload);
  const ms = performance.now() - t0;
  assert.equal(parsed.source.profile.length, YEAR_MINUTES + 1);
  assert.deepEqual(parsed.source.profile[1001], { time_s: 60_060, power_kw: 1 });
  // A zod object per point took about a second of the event loop here (2.6 GHz, idle).
  console.log(`a year of 1-minute points parsed in ${ms.toFixed(0)} ms`);
});

Deno.test("profile points: aliases, and at most 20 problems listed then a count (issue 18: a 6.8 MB invalid body got 52 MB)", () => {
  const gb = hydrogenPayloadSchema.parse({
    source: { profile: [{ t_s: 60, power_w: 2000 }, { time_s: 120, power_kw: 3, power_w: 9 }] },
  });
  assert.deepEqual(gb.source.profile, [{ time_s: 60, power_kw: 2 }, { time_s: 120, power_kw: 3 }]);

  const bad = Array.from({ length: 150_000 }, (_, i) => ({ time_s: i, power_kw: "bad" }));
  const result = hydrogenPayloadSchema.safeParse({ source: { profile: bad } });
  assert.ok(!result.success);
  const issues = result.error.issues;
  assert.equal(issues.length, MAX_POINT_ISSUES + 1);
  assert.deepEqual(issues[0]!.path, ["source", "profile", 0, "power_kw"]);
  assert.match(issues[0]!.message, /expected a number, got string/);
  assert.match(issues.at(-1)!.message, /and 149980 more wrong points/);

  const ccs = ccsPayloadSchema.safeParse({
    source: { profile: [{ time_s: -1, co2_tph: 1 }, { time_s: 0, co2_pct: 101 }, null] },
  });
  assert.ok(!ccs.success);
  assert.deepEqual(ccs.error.issues.map((i) => i.path.join(".")), [
    "source.profile.0.time_s",
    "source.profile.1.co2_pct",
    "source.profile.2",
  ]);
});

Deno.test("profile points: more than MAX_PROFILE_POINTS is refused by its length, naming both", () => {
  const long = new Array(MAX_PROFILE_POINTS + 1).fill(0);
  for (const schema of [hydrogenPayloadSchema, ccsPayloadSchema]) {
    const result = (schema as typeof hydrogenPayloadSchema).safeParse({
      source: { profile: long, capacity_kw: 1 },
    });
    assert.ok(!result.success);
    assert.equal(result.error.issues.length, 1);
    assert.match(result.error.issues[0]!.message, /527042 points, more than 527041/);
  }
});
