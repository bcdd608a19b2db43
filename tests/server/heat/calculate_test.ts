import assert from "node:assert/strict";
import { calculate } from "../../../lib/heat/calculation/calculate.ts";
import type { Surface } from "../../../lib/heat/calculation/overrides.ts";
import { call, heatApp, postJson, typology } from "./_heat.ts";

const app = heatApp();
const CODE = "DE.N.SFH.02.Gen.ReEx.001.001";
const PATH = `/api/v1/calculate/${CODE}`;
const archetype = () => {
  const row = typology.variant(CODE);
  assert.ok(row);
  return calculate(row, {});
};

Deno.test("POST /api/v1/calculate/{code} without a body uses the archetype", async () => {
  const reply = await call(app, PATH, { method: "POST" });
  assert.equal(reply.status, 200);
  assert.deepEqual(reply.body, {
    variant_code: CODE,
    q_h_nd: archetype().q_h_nd,
    unit: "kWh/(m2.a)",
  });
  assert.ok(reply.body.q_h_nd > 0);
});

Deno.test("POST /api/v1/calculate/{code} treats an empty JSON body as no overrides", async (t) => {
  for (const body of ["", "  \n"]) {
    await t.step(JSON.stringify(body), async () => {
      const reply = await call(app, PATH, postJson(body));
      assert.equal(reply.status, 200);
      assert.equal(reply.body.q_h_nd, archetype().q_h_nd);
    });
  }
  await t.step("{}", async () => {
    const reply = await call(app, PATH, postJson({}));
    assert.equal(reply.body.q_h_nd, archetype().q_h_nd);
  });
});

Deno.test("POST /api/v1/calculate/{code} applies the members sent", async () => {
  const warmer = await call(app, PATH, postJson({ theta_i: 22, Theta_e: -20 }));
  assert.equal(warmer.status, 200);
  const row = typology.variant(CODE);
  assert.ok(row);
  assert.equal(warmer.body.q_h_nd, calculate(row, { theta_i: 22, Theta_e: -20 }).q_h_nd);
  assert.ok(warmer.body.q_h_nd > archetype().q_h_nd);
});

Deno.test("POST /api/v1/calculate/{code} takes caller surfaces", async () => {
  const surfaces: Surface[] = [
    { id: "roof", type: "roof", area: 120, u_value: 0.2 },
    { id: "south", type: "window", area: 20, u_value: 1.1, azimuth: 180, tilt: 90 },
  ];
  const reply = await call(app, PATH, postJson({ surfaces }));
  assert.equal(reply.status, 200);
  const row = typology.variant(CODE);
  assert.ok(row);
  assert.equal(reply.body.q_h_nd, calculate(row, { surfaces }).q_h_nd);
});

Deno.test("POST /api/v1/calculate/{code}?explain=true adds the intermediates", async () => {
  const reply = await call(app, `${PATH}?explain=true`, { method: "POST" });
  assert.equal(reply.status, 200);
  assert.equal(reply.body.explain.q_h_nd, reply.body.q_h_nd);
  assert.ok(Array.isArray(reply.body.explain.slots));
  const plain = await call(app, `${PATH}?explain=false`, { method: "POST" });
  assert.equal("explain" in plain.body, false);
  const wrong = await call(app, `${PATH}?explain=yes`, { method: "POST" });
  assert.equal(wrong.status, 400);
  assert.equal(wrong.body.error, "Invalid query: explain: must be one of true, false");
});

Deno.test("POST /api/v1/calculate/{code} rejects every invalid override with 400", async (t) => {
  // Each member's bounds are covered in calculate_bounds_test.ts; here one of each kind.
  const cases: [Record<string, unknown>, string][] = [
    [{ A_ref: 0 }, "A_ref: must be between 1 and 1000000 m2"],
    [{ h_room: -1 }, "h_room: must be between 1 and 10 m"],
    [{ c_m: 0 }, "c_m: must be between 10 and 1000 Wh/(m2.K)"],
    [{ n_Storey: 0 }, "n_Storey: must be between 1 and 100"],
    [{ HeatingDays: -1 }, "HeatingDays: must be between 0 and 366 d/a"],
    [{ I_Sol_Hor: -0.1 }, "I_Sol_Hor: must be between 0 and 2500 kWh/(m2.a)"],
    [{ n_air_use: -0.1 }, "n_air_use: must be between 0 and 10 1/h"],
    [
      { delta_U_ThermalBridging_Original: -0.1 },
      "delta_U_ThermalBridging_Original: must be between 0 and 1 W/(m2.K)",
    ],
    [{ A_ref: "100" }, "A_ref: must be a number"],
    [{ Theta_e: null }, "Theta_e: must be a number"],
    [{ theta_i: [20] }, "theta_i: must be a number"],
  ];
  for (const [body, error] of cases) {
    await t.step(JSON.stringify(body), async () => {
      const reply = await call(app, PATH, postJson(body));
      assert.equal(reply.status, 400);
      assert.deepEqual(reply.body, { error: `Invalid request body: ${error}` });
    });
  }
});

Deno.test("POST /api/v1/calculate/{code} rejects every invalid surface with 400", async (t) => {
  const good = { id: "s1", type: "wall", area: 10, u_value: 0.5 };
  const cases: [Record<string, unknown>, string][] = [
    [{ ...good, type: "chimney" }, "type: must be one of roof, wall, floor, window, door"],
    [{ ...good, area: 0 }, "area: must be between 0.01 and 1000000 m2"],
    [{ ...good, area: -3 }, "area: must be between 0.01 and 1000000 m2"],
    [{ ...good, u_value: 0 }, "u_value: must be between 0.01 and 10 W/(m2.K)"],
    [{ ...good, u_value: -0.2 }, "u_value: must be between 0.01 and 10 W/(m2.K)"],
    [{ ...good, type: "window", azimuth: -90 }, "azimuth: must be between 0 and 360 deg"],
    [{ ...good, tilt: 181 }, "tilt: must be between 0 and 180 deg"],
    [{ ...good, U: 0.5 }, "U: unknown member; allowed: id, type, area, u_value, azimuth, tilt"],
    [{ ...good, Area: 3 }, 'Area: unknown member (did you mean "area"?)'],
  ];
  for (const [surface, error] of cases) {
    await t.step(JSON.stringify(surface), async () => {
      const reply = await call(app, PATH, postJson({ surfaces: [good, surface] }));
      assert.equal(reply.status, 400);
      assert.deepEqual(reply.body, {
        error: `Invalid request body: surfaces[1] (id "s1").${error}`,
      });
    });
  }
  await t.step("missing members are named", async () => {
    const reply = await call(app, PATH, postJson({ surfaces: [{ type: "roof" }] }));
    assert.equal(
      reply.body.error,
      "Invalid request body: surfaces[0].id: is required; surfaces[0].area: is required; " +
        "surfaces[0].u_value: is required",
    );
  });
  await t.step("surfaces must be a list", async () => {
    const reply = await call(app, PATH, postJson({ surfaces: good }));
    assert.equal(reply.body.error, "Invalid request body: surfaces: must be an array");
  });
});

Deno.test("POST /api/v1/calculate/{code} names unknown members", async (t) => {
  const cases: [Record<string, unknown>, string][] = [
    [{ theta_e: 3 }, 'theta_e: unknown member (did you mean "Theta_e"?)'],
    [{ Theta_i: 20 }, 'Theta_i: unknown member (did you mean "theta_i"?)'],
    [{ wind: 3 }, "wind: unknown member; allowed: A_ref, HeatingDays, Theta_e, theta_i, "],
    [
      { A_ref: -1, theta_e: 3 },
      'A_ref: must be between 1 and 1000000 m2; theta_e: unknown member (did you mean "Theta_e"?)',
    ],
  ];
  for (const [body, error] of cases) {
    await t.step(JSON.stringify(body), async () => {
      const reply = await call(app, PATH, postJson(body));
      assert.equal(reply.status, 400);
      assert.ok(
        reply.body.error.startsWith(`Invalid request body: ${error}`),
        reply.body.error,
      );
    });
  }
});

Deno.test("POST /api/v1/calculate/{code} rejects bodies that are not a JSON object", async (t) => {
  const cases: [RequestInit, number, string][] = [
    [postJson("{"), 400, "Malformed JSON in request body"],
    [postJson("[1]"), 400, "Invalid request body: must be an object"],
    [postJson("null"), 400, "Invalid request body: must be an object"],
    [
      { method: "POST", headers: { "Content-Type": "text/plain" }, body: '{"A_ref":1}' },
      415,
      "The request body must be JSON, sent with Content-Type: application/json",
    ],
  ];
  for (const [init, status, error] of cases) {
    await t.step(`${status} ${error}`, async () => {
      const reply = await call(app, PATH, init);
      assert.equal(reply.status, status);
      assert.deepEqual(reply.body, { error });
    });
  }
});

Deno.test("POST /api/v1/calculate/{code} answers 413 to a body over 1 MiB", async () => {
  const padding = "x".repeat(1024 * 1024);
  const reply = await call(app, PATH, postJson(`{"A_ref": 100, "pad": "${padding}"}`));
  assert.equal(reply.status, 413);
  assert.deepEqual(reply.body, { error: "Request body larger than 1048576 bytes (1 MiB)" });
});

Deno.test("POST /api/v1/calculate/{code} code errors: 400 malformed or unknown country, 404", async (t) => {
  const cases: [string, number, RegExp][] = [
    ["DE-N-SFH", 400, /^Invalid path: code: must match \^\[A-Z\]\{2\}.* \(a variant code /],
    ["XX.N.SFH.02.Gen.ReEx.001.001", 400, /^Unknown country "XX"/],
    [
      "DE.N.SFH.02.Gen.ReEx.009.001",
      404,
      /^Variant code "DE.N.SFH.02.Gen.ReEx.009.001" not found$/,
    ],
  ];
  for (const [code, status, error] of cases) {
    await t.step(code, async () => {
      const reply = await call(app, `/api/v1/calculate/${code}`, { method: "POST" });
      assert.equal(reply.status, status);
      assert.match(reply.body.error, error);
    });
  }
});

Deno.test("POST /api/v1/calculate/{code} answers 500 when the calculation fails", async (t) => {
  const cases: [string, () => { q_h_nd: number; explain: object }, string][] = [
    [
      "NaN",
      () => ({ q_h_nd: NaN, explain: {} }),
      `Calculation for ${CODE} gave a non-finite q_h_nd (NaN)`,
    ],
    [
      "Infinity",
      () => ({ q_h_nd: Infinity, explain: {} }),
      `Calculation for ${CODE} gave a non-finite q_h_nd (Infinity)`,
    ],
    [
      "RangeError",
      () => {
        throw new RangeError("A_C_Ref must be > 0");
      },
      `Calculation failed for ${CODE}: A_C_Ref must be > 0`,
    ],
    [
      "other error",
      () => {
        throw new Error("secret internals");
      },
      `Calculation failed for ${CODE}`,
    ],
  ];
  for (const [name, failing, error] of cases) {
    await t.step(name, async () => {
      const logged = console.error;
      console.error = () => {};
      try {
        const reply = await call(heatApp(failing), PATH, { method: "POST" });
        assert.equal(reply.status, 500);
        assert.deepEqual(reply.body, { error });
        assert.doesNotMatch(JSON.stringify(reply.body), /at |\.ts:/);
      } finally {
        console.error = logged;
      }
    });
  }
});

Deno.test("POST /api/v1/calculate/{code} takes the original service's five-surface example, azimuth -1 on roof and floor (issue 18; 400 before)", async () => {
  const surfaces = [
    { id: "roof", type: "roof", area: 95, u_value: 0.22, azimuth: -1, tilt: 35 },
    { id: "wall", type: "wall", area: 160, u_value: 0.35, azimuth: 180, tilt: 90 },
    { id: "floor", type: "floor", area: 80, u_value: 0.4, azimuth: -1, tilt: 0 },
    { id: "window", type: "window", area: 24, u_value: 1.3, azimuth: 180, tilt: 90 },
    { id: "door", type: "door", area: 2, u_value: 1.8, azimuth: 0, tilt: 90 },
  ];
  const reply = await call(app, PATH, postJson({ surfaces }));
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  // The azimuth of a roof or floor is not used: the same demand without it.
  const without = surfaces.map(({ azimuth: _, ...rest }) =>
    rest.type === "window" ? { ...rest, azimuth: 180 } : rest
  );
  const plain = await call(app, PATH, postJson({ surfaces: without }));
  assert.equal(reply.body.q_h_nd, plain.body.q_h_nd);
  // A window's azimuth keeps the spec's bounds.
  const window = await call(
    app,
    PATH,
    postJson({ surfaces: [{ ...surfaces[3], azimuth: -1 }] }),
  );
  assert.equal(window.status, 400);
  assert.equal(
    window.body.error,
    'Invalid request body: surfaces[0] (id "window").azimuth: must be between 0 and 360 deg',
  );
});

Deno.test("POST /api/v1/calculate/{code} says c_m 165000 looks like J/(m2.K), 45.8 Wh/(m2.K) (issue 18; failed before)", async () => {
  const reply = await call(app, PATH, postJson({ c_m: 165000 }));
  assert.equal(reply.status, 400);
  assert.deepEqual(reply.body, {
    error: "Invalid request body: c_m: must be between 10 and 1000 Wh/(m2.K); 165000 looks " +
      "like J/(m2.K): that is 45.8 Wh/(m2.K) after dividing by 3,600 (TABULA's unit is " +
      "Wh/(m2.K), 45 = medium)",
  });
  const meant = await call(app, PATH, postJson({ c_m: 45.8 }));
  assert.equal(meant.status, 200);
});

Deno.test("POST /api/v1/calculate/{code} refuses a body nested deeper than 64 levels with 400 (issue 18; failed before)", async (t) => {
  const nested = (depth: number) => `{"surfaces":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;
  for (const depth of [65, 10_000]) {
    await t.step(`${depth} levels`, async () => {
      const reply = await call(app, PATH, postJson(nested(depth)));
      assert.equal(reply.status, 400);
      assert.deepEqual(reply.body, {
        error: "The JSON body nests deeper than 64 levels; flatten it",
      });
    });
  }
  await t.step("64 levels: the schema answers, not the depth check", async () => {
    const reply = await call(app, PATH, postJson(nested(64)));
    assert.equal(reply.status, 400);
    assert.match(reply.body.error, /^Invalid request body: surfaces\[0\]/);
  });
});
