import assert from "node:assert/strict";
import { createGateway } from "../../server/gateway/app.ts";
import { heatApp } from "./heat/_heat.ts";

const KEY = "docs-key-0123456789";
const gateway = createGateway({ heatApp: heatApp(), apiKey: KEY, allowedOrigins: [] });

Deno.test("/heat/openapi.json documents every route and the API-key scheme", async () => {
  const res = await gateway.request("/heat/openapi.json", { headers: { "X-Api-Key": KEY } });
  assert.equal(res.status, 200);
  const doc = await res.json();
  assert.equal(doc.info.version, "1.0.0");
  assert.deepEqual(Object.keys(doc.paths).sort(), [
    "/api/v1/calculate/{code}",
    "/api/v1/data/{code}",
    "/api/v1/fields",
    "/api/v1/periods/{country_iso2}",
    "/api/v1/variants/{country_iso2}",
    "/api/v1/variants/{country_iso2}/match",
    "/heat/about",
    "/heat/health",
  ]);
  assert.deepEqual(doc.components.securitySchemes.ApiKey, {
    type: "apiKey",
    in: "header",
    name: "X-Api-Key",
    description: "Static API key checked by the gateway on every request",
  });
  assert.deepEqual(doc.security, [{ ApiKey: [] }]);
  for (
    const name of [
      "ErrorResponse",
      "VariantsResponse",
      "MatchResponse",
      "VariantLevel",
      "PeriodsResponse",
      "ConstructionPeriod",
      "DataResponse",
      "FieldMetadata",
      "CalculateRequest",
      "Surface",
      "CalculateResponse",
      "HealthResponse",
    ]
  ) assert.ok(doc.components.schemas[name], `schema ${name} is documented`);
  const match = doc.paths["/api/v1/variants/{country_iso2}/match"].get;
  const params = match.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
  assert.deepEqual(params.sort(), [
    "path:country_iso2",
    "query:period",
    "query:set",
    "query:type",
    "query:year",
  ]);
  const year = match.parameters.find((p: { name: string }) => p.name === "year");
  assert.equal(year.schema.type, "integer");
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const operation of Object.values(item as Record<string, { responses: object }>)) {
      assert.ok("403" in operation.responses, `${path} documents the gateway's 403`);
    }
  }
  const calculate = doc.paths["/api/v1/calculate/{code}"].post;
  assert.equal(calculate.requestBody.required, false);
  assert.deepEqual(Object.keys(calculate.responses).sort(), [
    "200",
    "400",
    "403",
    "404",
    "413",
    "415",
    "500",
  ]);
});
