import assert from "node:assert/strict";
import { fieldMetadata } from "../../../lib/heat/parameters/parameters.ts";
import { call, heatApp } from "./_heat.ts";

const app = heatApp();

Deno.test("GET /api/v1/data/{code} returns the nested parameter set and the reference", async () => {
  const reply = await call(app, "/api/v1/data/DE.N.SFH.02.Gen.ReEx.001.001");
  assert.equal(reply.status, 200);
  assert.equal(reply.body.country, "germany");
  assert.equal(reply.body.variant_code, "DE.N.SFH.02.Gen.ReEx.001.001");
  assert.equal(typeof reply.body.expected_q_h_nd, "number");
  assert.ok(reply.body.expected_q_h_nd > 0);
  const data = reply.body.tabula_data;
  assert.deepEqual(Object.keys(data).sort(), ["AdvancedParameters", "BasicParameters"]);
  assert.equal(typeof data.BasicParameters.Envelope.A_C_Ref_Input, "number");
  assert.equal(typeof data.AdvancedParameters.ClimateConditions.Theta_e, "number");
});

Deno.test("GET /api/v1/data/{code} has a value at every path /fields names", async () => {
  const reply = await call(app, "/api/v1/data/AT.N.AB.03.Gen.ReEx.001.002");
  for (const field of fieldMetadata()) {
    const value = field.path.split(".").reduce(
      (node: Record<string, unknown> | undefined, key) =>
        node?.[key] as Record<string, unknown> | undefined,
      reply.body.tabula_data,
    );
    assert.notEqual(value, undefined, `tabula_data has ${field.path}`);
  }
});

Deno.test("GET /api/v1/data/{code} leaves out expected_q_h_nd where no reference exists", async () => {
  // References exist for existing states (*.001) only.
  const reply = await call(app, "/api/v1/data/DE.N.SFH.02.Gen.ReEx.001.003");
  assert.equal(reply.status, 200);
  assert.equal("expected_q_h_nd" in reply.body, false);
});

Deno.test("GET /api/v1/data/{code} errors", async (t) => {
  await t.step("malformed code: 400", async () => {
    const reply = await call(app, "/api/v1/data/not-a-code");
    assert.equal(reply.status, 400);
    assert.match(
      reply.body.error,
      /^Invalid path: code: must match \^\[A-Z\]\{2\}.* \(a variant code /,
    );
  });
  await t.step("unknown country: 400", async () => {
    const reply = await call(app, "/api/v1/data/XX.N.SFH.02.Gen.ReEx.001.001");
    assert.equal(reply.status, 400);
    assert.match(reply.body.error, /^Unknown country "XX"/);
  });
  await t.step("unknown code: 404", async () => {
    const reply = await call(app, "/api/v1/data/DE.N.SFH.99.Gen.ReEx.001.001");
    assert.equal(reply.status, 404);
    assert.deepEqual(reply.body, {
      error: 'Variant code "DE.N.SFH.99.Gen.ReEx.001.001" not found',
    });
  });
});
