import assert from "node:assert/strict";
import { REDOC_LOGO_STAND_IN, REDOC_LOGO_URL } from "../../../server/middleware/docs.ts";
import { call, testApp } from "./_catalogue.ts";

const built = await testApp();
const { app } = built;
let remaining = 3;
async function done() {
  if (--remaining === 0) await built.dispose();
}

const PUBLIC = new Set([
  "get /api/v1/ontology/schema",
  "get /health",
  "get /api/v1/technologies",
  "get /api/v1/fuels",
  "get /api/v1/fuels/{fuel_id}",
  "get /api/v1/technologies/category/{cat}",
  "get /api/v1/technologies/{id}",
  "post /api/v1/technologies/batch",
  "get /api/v1/technologies/{id}/instances",
  "get /api/v1/technologies/{id}/instances/{iid}",
  "get /api/v1/technologies/calliope",
  "get /api/v1/technologies/{id}/calliope",
  "post /api/v1/technologies/{id}/calliope",
  "get /api/v1/adapt/pypsa/{id}",
  "get /api/v1/adapt/calliope/{id}",
  "get /api/v1/timeseries",
  "get /api/v1/timeseries/{id}/data",
  "get /api/v1/auth/orcid",
  "get /api/v1/auth/orcid/callback",
  "post /api/v1/auth/admin/login",
]);

Deno.test("/openapi.json documents every route, with bearer security on protected ones", async () => {
  try {
    const { status, body: doc } = await call(app, "/openapi.json");
    assert.equal(status, 200);
    assert.equal(doc.info.version, "1.0.0");
    assert.deepEqual(doc.components.securitySchemes.BearerAuth, {
      type: "http",
      scheme: "bearer",
      bearerFormat: "JWT",
      description: doc.components.securitySchemes.BearerAuth.description,
    });
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { security?: unknown; responses: object }>).map((
        [method, op],
      ) => ({ key: `${method} ${path}`, op }))
    );
    // 36 of the spec and this service, 12 for OpenTech-DB's frontend.
    assert.equal(operations.length, 48);
    for (const { key, op } of operations) {
      if (PUBLIC.has(key)) {
        assert.equal(op.security, undefined, `${key} is public`);
      } else {
        assert.deepEqual(op.security, [{ BearerAuth: [] }], `${key} needs a token`);
        assert.ok("401" in op.responses, `${key} documents 401`);
      }
    }
    for (
      const name of [
        "ErrorResponse",
        "TechnologyDetail",
        "TechnologySummary",
        "TechnologyList",
        "Instance",
        "ProfileMetadata",
        "ProfileData",
        "TimeseriesSubmissionRequest",
        "CalliopeOverrides",
        "PyPSAParameters",
        "ScraperStatus",
        "ScraperCandidate",
        "UserProfile",
        "DataStatus",
        "CatalogueHealth",
      ]
    ) assert.ok(doc.components.schemas[name], `schema ${name}`);
    const list = doc.paths["/api/v1/technologies"].get;
    const limit = list.parameters.find((p: { name: string }) => p.name === "limit");
    assert.deepEqual(
      { type: limit.schema.type, maximum: limit.schema.maximum, default: limit.schema.default },
      { type: "integer", maximum: 200, default: 50 },
    );
    const capex = doc.components.schemas.Instance.properties.capex_usd_per_kw;
    assert.match(capex.description, /Unit: USD\/kW/);
  } finally {
    await done();
  }
});

Deno.test("/docs is Swagger UI over local assets", async () => {
  try {
    const res = await app.request("/docs");
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.doesNotMatch(html, /https?:\/\//, "no CDN");
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) =>
      new URL(m[1] ?? "", "http://localhost/docs").pathname
    );
    assert.ok(assets.includes("/docs/swagger-ui-bundle.js"));
    for (const asset of assets) {
      const file = await app.request(asset);
      assert.equal(file.status, 200, asset);
      assert.ok((await file.arrayBuffer()).byteLength > 0, asset);
    }
    const init = await (await app.request("/docs/init.js")).text();
    assert.match(init, /url: "openapi.json"/);
    assert.equal((await app.request("/docs/package.json")).status, 404);
  } finally {
    await done();
  }
});

Deno.test("/redoc is Redoc with the bundle of the redoc package", async () => {
  try {
    const res = await app.request("/redoc");
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.doesNotMatch(html, /https?:\/\//, "no CDN");
    assert.match(html, /<redoc spec-url="openapi.json"><\/redoc>/);
    const src = /<script src="([^"]+)"/.exec(html)?.[1] ?? "";
    const bundle = await app.request(new URL(src, "http://localhost/redoc").pathname);
    assert.equal(bundle.status, 200);
    assert.match(bundle.headers.get("content-type") ?? "", /^text\/javascript/);
    // The package's bundle, but for its credit's logo, which would come from a CDN.
    const expected = await Deno.readTextFile(
      new URL(import.meta.resolve("redoc/bundles/redoc.standalone.js")),
    );
    const served = await bundle.text();
    assert.ok(expected.includes(REDOC_LOGO_URL));
    assert.ok(!served.includes(REDOC_LOGO_URL));
    assert.equal(served, expected.replaceAll(REDOC_LOGO_URL, REDOC_LOGO_STAND_IN));
  } finally {
    await done();
  }
});
