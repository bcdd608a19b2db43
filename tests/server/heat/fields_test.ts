import assert from "node:assert/strict";
import { fieldMetadata } from "../../../lib/heat/parameters/parameters.ts";
import { call, heatApp } from "./_heat.ts";

Deno.test("GET /api/v1/fields returns the field metadata of the parameter schema", async () => {
  const reply = await call(heatApp(), "/api/v1/fields");
  assert.equal(reply.status, 200);
  assert.deepEqual(reply.body, { data: fieldMetadata() });
  const heatingDays = reply.body.data.find((f: { key: string }) => f.key === "HeatingDays");
  assert.equal(heatingDays?.path, "AdvancedParameters.ClimateConditions.HeatingDays");
});
