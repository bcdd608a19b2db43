/**
 * The bounds of the calculate request (issue 7, finding 4): every numeric override and every
 * surface member has a physical range; out of it the answer is 400 naming the member, the range
 * and its unit, never a 5xx. The property tests send arbitrary JSON into every member.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { call, heatApp, postJson, typology } from "./_heat.ts";

const app = heatApp();
const CODE = "DE.N.SFH.02.Gen.ReEx.001.001";
const PATH = `/api/v1/calculate/${CODE}`;

/** The bounds the service promises: member, minimum, maximum, unit (inclusive both ends). */
const OVERRIDE_BOUNDS: readonly [string, number, number, string][] = [
  ["A_ref", 1, 1_000_000, "m2"],
  ["HeatingDays", 0, 366, "d/a"],
  ["Theta_e", -30, 30, "deg C"],
  ["theta_i", 10, 30, "deg C"],
  ["I_Sol_South", 0, 2500, "kWh/(m2.a)"],
  ["I_Sol_East", 0, 2500, "kWh/(m2.a)"],
  ["I_Sol_West", 0, 2500, "kWh/(m2.a)"],
  ["I_Sol_North", 0, 2500, "kWh/(m2.a)"],
  ["I_Sol_Hor", 0, 2500, "kWh/(m2.a)"],
  ["delta_U_ThermalBridging_Original", 0, 1, "W/(m2.K)"],
  ["delta_U_ThermalBridging_Refurbished", 0, 1, "W/(m2.K)"],
  ["h_room", 1, 10, "m"],
  ["n_Storey", 1, 100, ""],
  ["n_air_infiltration", 0, 10, "1/h"],
  ["n_air_use", 0, 10, "1/h"],
  ["c_m", 10, 1000, "Wh/(m2.K)"],
];

/** Surface members' bounds; the azimuth's are a window's (issue 18: any number elsewhere). */
const SURFACE_BOUNDS: readonly [string, number, number, string][] = [
  ["area", 0.01, 1_000_000, "m2"],
  ["u_value", 0.01, 10, "W/(m2.K)"],
  ["azimuth", 0, 360, "deg"],
  ["tilt", 0, 180, "deg"],
];

const range = (min: number, max: number, unit: string) =>
  `must be between ${min} and ${max}${unit ? ` ${unit}` : ""}`;

Deno.test("POST /api/v1/calculate/{code} answers 400, not 500, to the reported overrides", async (t) => {
  const cases: [Record<string, number>, string][] = [
    [{ theta_i: 1e308 }, "theta_i: must be between 10 and 30 deg C"],
    [{ A_ref: 5e-324 }, "A_ref: must be between 1 and 1000000 m2"],
    [{ I_Sol_South: 1e308 }, "I_Sol_South: must be between 0 and 2500 kWh/(m2.a)"],
  ];
  for (const [body, error] of cases) {
    await t.step(JSON.stringify(body), async () => {
      const reply = await call(app, PATH, postJson(body));
      assert.equal(reply.status, 400);
      assert.deepEqual(reply.body, { error: `Invalid request body: ${error}` });
    });
  }
});

Deno.test("POST /api/v1/calculate/{code} takes each override's bounds and refuses beyond", async (t) => {
  for (const [member, min, max, unit] of OVERRIDE_BOUNDS) {
    await t.step(member, async () => {
      for (const value of [min, max]) {
        const reply = await call(app, PATH, postJson({ [member]: value }));
        assert.equal(reply.status, 200, `${member} = ${value}: ${JSON.stringify(reply.body)}`);
        assert.ok(Number.isFinite(reply.body.q_h_nd));
      }
      const step = Math.max(1e-6, (max - min) * 1e-9);
      for (const value of [min - step, max + step, -1e308, 1e308]) {
        const reply = await call(app, PATH, postJson({ [member]: value }));
        assert.equal(reply.status, 400, `${member} = ${value}`);
        assert.deepEqual(reply.body, {
          error: `Invalid request body: ${member}: ${range(min, max, unit)}`,
        });
      }
    });
  }
});

Deno.test("POST /api/v1/calculate/{code} takes fractional heating days and storeys, as the data has", async () => {
  const reply = await call(app, PATH, postJson({ HeatingDays: 222.44, n_Storey: 1.5 }));
  assert.equal(reply.status, 200);
  assert.ok(Number.isFinite(reply.body.q_h_nd));
});

Deno.test("POST /api/v1/calculate/{code} takes each surface bound and refuses beyond", async (t) => {
  const good = { id: "w", type: "window", area: 10, u_value: 1.1, azimuth: 180, tilt: 90 };
  for (const [member, min, max, unit] of SURFACE_BOUNDS) {
    await t.step(member, async () => {
      for (const value of [min, max]) {
        const reply = await call(app, PATH, postJson({ surfaces: [{ ...good, [member]: value }] }));
        assert.equal(reply.status, 200, `${member} = ${value}: ${JSON.stringify(reply.body)}`);
        assert.ok(Number.isFinite(reply.body.q_h_nd));
      }
      for (const value of [min - 1e-3, max + 1, 1e308, -1e308]) {
        const reply = await call(app, PATH, postJson({ surfaces: [{ ...good, [member]: value }] }));
        assert.equal(reply.status, 400, `${member} = ${value}`);
        assert.deepEqual(reply.body, {
          error: `Invalid request body: surfaces[0] (id "w").${member}: ${range(min, max, unit)}`,
        });
      }
    });
  }
});

Deno.test("GET /api/v1/fields publishes each field's range and its override's bounds", async () => {
  const reply = await call(app, "/api/v1/fields");
  const fields: {
    key: string;
    minimum?: number;
    maximum?: number;
    override?: { member: string; minimum: number; maximum: number };
  }[] = reply.body.data;
  const thetaI = fields.find((f) => f.key === "Theta_i");
  assert.deepEqual(
    { minimum: thetaI?.minimum, maximum: thetaI?.maximum, override: thetaI?.override },
    { minimum: 10, maximum: 30, override: { member: "theta_i", minimum: 10, maximum: 30 } },
  );
  const published = fields.filter((f) => f.override).map((f) => f.override!);
  assert.deepEqual(
    published.map((o) => [o.member, o.minimum, o.maximum]).sort(),
    OVERRIDE_BOUNDS.map(([member, min, max]) => [member, min, max]).sort(),
  );
});

Deno.test("the OpenAPI document carries the bounds of overrides and surfaces", async () => {
  const doc = (await call(app, "/heat/openapi.json")).body;
  const request = doc.components.schemas.CalculateRequest.properties;
  for (const [member, min, max] of OVERRIDE_BOUNDS) {
    assert.equal(request[member].minimum, min, member);
    assert.equal(request[member].maximum, max, member);
  }
  const surface = doc.components.schemas.Surface.properties;
  for (const [member, min, max] of SURFACE_BOUNDS) {
    if (member === "azimuth") continue;
    assert.equal(surface[member].minimum, min, member);
    assert.equal(surface[member].maximum, max, member);
  }
  // Issue 18: the azimuth is bounded on windows only (any number elsewhere), which a plain
  // minimum/maximum cannot say: the description does.
  assert.equal(surface.azimuth.minimum, undefined);
  assert.equal(surface.azimuth.maximum, undefined);
  assert.match(surface.azimuth.description, /windows only .* 0 to 360 deg; on other surfaces any/);
});

// ---- Property tests -------------------------------------------------------------------------

const CODES = typology.allVariants().map((row) => String(row.Code_BuildingVariant));

/** Numbers a JSON body can carry, the extremes over-represented. */
const anyNumber = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(1e308, -1e308, 5e-324, -5e-324, 0, -0, 1e-300, 2 ** 53, -(2 ** 53)),
  fc.integer(),
);

/** Any JSON value: scalars, huge and tiny numbers, strings, arrays, nested objects, null. */
const anyJson = fc.oneof(
  { depthSize: "small" },
  fc.jsonValue({ maxDepth: 3 }),
  anyNumber,
  fc.string(),
  fc.constant(null),
);

/** A value inside [min, max], its ends included. */
const inRange = (min: number, max: number) =>
  fc.oneof(fc.double({ min, max, noNaN: true }), fc.constantFrom(min, max));

/** In range most of the time, else anything. */
const member = (min: number, max: number) =>
  fc.oneof(
    { weight: 3, arbitrary: inRange(min, max) },
    { weight: 1, arbitrary: anyNumber },
    { weight: 1, arbitrary: anyJson },
  );

const SURFACE_TYPES = ["roof", "wall", "floor", "window", "door"];

/** A record of a few of `members` (a handful at a time, so that one bad member stands out). */
const someOf = (members: Record<string, fc.Arbitrary<unknown>>, maxLength = 4) =>
  fc.subarray(Object.keys(members), { maxLength }).chain((keys) =>
    fc.record(Object.fromEntries(keys.map((k) => [k, members[k]!])))
  );

const surfaceOf = (value: (min: number, max: number) => fc.Arbitrary<unknown>) =>
  someOf({
    id: fc.oneof({ weight: 4, arbitrary: fc.string({ maxLength: 8 }) }, anyJson),
    type: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...SURFACE_TYPES) }, anyJson),
    ...Object.fromEntries(SURFACE_BOUNDS.map(([name, min, max]) => [name, value(min, max)])),
  }, 6);

const bodyOf = (value: (min: number, max: number) => fc.Arbitrary<unknown>) =>
  someOf({
    ...Object.fromEntries(OVERRIDE_BOUNDS.map(([name, min, max]) => [name, value(min, max)])),
    surfaces: fc.oneof(
      { weight: 4, arbitrary: fc.array(surfaceOf(value), { maxLength: 4 }) },
      { weight: 1, arbitrary: anyJson },
    ),
  });

Deno.test("POST /api/v1/calculate/{code} never answers 5xx, whatever JSON a member holds", async () => {
  const body = fc.oneof(
    { weight: 6, arbitrary: bodyOf(member) },
    { weight: 1, arbitrary: anyJson },
    { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 12 }), anyJson) },
  );
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...CODES), body, async (code, sent) => {
      const reply = await call(app, `/api/v1/calculate/${code}`, postJson(JSON.stringify(sent)));
      assert.ok(reply.status < 500, `${reply.status} ${JSON.stringify(reply.body)}`);
      if (reply.status === 200) assert.ok(Number.isFinite(reply.body.q_h_nd));
      else assert.equal(typeof reply.body.error, "string");
    }),
    { numRuns: 5000 },
  );
});

Deno.test("POST /api/v1/calculate/{code} answers 200 and a finite demand to every in-bounds body", async () => {
  const surfaceIn = fc.record({
    id: fc.string({ maxLength: 8 }),
    type: fc.constantFrom(...SURFACE_TYPES),
    ...Object.fromEntries(SURFACE_BOUNDS.map(([name, min, max]) => [name, inRange(min, max)])),
  });
  const body = fc.record(
    {
      ...Object.fromEntries(OVERRIDE_BOUNDS.map(([name, min, max]) => [name, inRange(min, max)])),
      surfaces: fc.array(surfaceIn, { maxLength: 6 }),
    },
    { requiredKeys: [] },
  );
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...CODES), body, async (code, sent) => {
      const reply = await call(app, `/api/v1/calculate/${code}`, postJson(sent));
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.ok(Number.isFinite(reply.body.q_h_nd));
    }),
    { numRuns: 5000 },
  );
});
