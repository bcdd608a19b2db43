import assert from "node:assert/strict";
import { createCatalogueApp } from "../../../server/catalogue/app.ts";
import { openStore } from "../../../lib/store/store.ts";
import { bearer, call, json, RESEARCHER, testApp, testConfig, tokenFor } from "./_catalogue.ts";

const researcher = await tokenFor(RESEARCHER);

Deno.test("a body over 2 MiB answers 413; 35,136 values fit", async () => {
  const built = await testApp();
  try {
    const big = JSON.stringify({
      profile_id: "BIG",
      name: "x",
      values: new Array(300_000).fill(0.123456789),
    });
    assert.ok(big.length > 2 * 1024 * 1024);
    const reply = await call(built.app, "/api/v1/timeseries/submit", json("POST", big, researcher));
    assert.equal(reply.status, 413);
    assert.equal(reply.body.error, "Request body larger than 2097152 bytes (2 MiB)");
    const quarterHours = await call(
      built.app,
      "/api/v1/timeseries/submit",
      json("POST", {
        profile_id: "QH",
        name: "Quarter hours of a leap year",
        resolution: "15min",
        values: Array.from({ length: 35_136 }, (_, i) => i / 35_136 + 1e-7),
      }, researcher),
    );
    assert.equal(quarterHours.status, 202);
  } finally {
    await built.dispose();
  }
});

Deno.test("bodies that are not JSON: 400 malformed, 415 other media types", async (t) => {
  const built = await testApp();
  try {
    const cases: [string, RequestInit, number, string][] = [
      [
        "malformed",
        json("POST", '{"profile_id": ', researcher),
        400,
        "Malformed JSON in request body",
      ],
      [
        "form data",
        {
          method: "POST",
          body: "a=1",
          ...bearer(researcher, { "Content-Type": "application/x-www-form-urlencoded" }),
        },
        415,
        "Unsupported Media Type",
      ],
      [
        "no content type with a body",
        { method: "POST", body: "{}", ...bearer(researcher) },
        415,
        "Unsupported Media Type",
      ],
    ];
    for (const [name, init, status, error] of cases) {
      await t.step(name, async () => {
        const reply = await call(built.app, "/api/v1/timeseries/submit", init);
        assert.equal(reply.status, status);
        assert.deepEqual(reply.body, { error });
      });
    }
  } finally {
    await built.dispose();
  }
});

Deno.test("an unexpected failure is a bare 500 in the same format", async () => {
  const built = await testApp();
  const log = console.error;
  console.error = () => {};
  try {
    await built.store.close();
    const reply = await call(
      built.app,
      "/api/v1/timeseries/submit",
      json("POST", { profile_id: "X1", name: "x", values: [1] }, researcher),
    );
    assert.equal(reply.status, 500);
    assert.deepEqual(reply.body, { error: "Internal server error" });
  } finally {
    console.error = log;
    await built.close();
  }
});

Deno.test("createCatalogueApp() refuses a short secret and invalid data files", async () => {
  const store = await openStore(":memory:");
  try {
    await assert.rejects(
      createCatalogueApp({ store, config: testConfig({ jwtSecret: "short" }) }),
      /^RangeError: JWT_SECRET_KEY: the catalogue service needs a signing secret of at least 32 bytes, got 5$/,
    );
    await assert.rejects(
      createCatalogueApp({ store, config: testConfig({ catalogueDir: "/nonexistent" }) }),
      /Cannot serve the catalogue: 1 problem/,
    );
  } finally {
    await store.close();
  }
});

Deno.test("CORS: allowed origins may send Authorization and use PATCH", async () => {
  const built = await testApp({ config: { allowedOrigins: ["http://localhost:5173"] } });
  try {
    const preflight = await built.app.request("/api/v1/admin/timeseries/x/approve", {
      method: "OPTIONS",
      headers: {
        Origin: "http://localhost:5173",
        "Access-Control-Request-Method": "PATCH",
      },
    });
    assert.equal(preflight.status, 204);
    assert.equal(
      preflight.headers.get("access-control-allow-headers"),
      "Authorization, Content-Type",
    );
    assert.equal(
      preflight.headers.get("access-control-allow-methods"),
      "GET, POST, PATCH, DELETE, OPTIONS",
    );
    const get = await built.app.request("/health", {
      headers: { Origin: "http://localhost:5173" },
    });
    assert.equal(get.headers.get("access-control-allow-origin"), "http://localhost:5173");
    await get.body?.cancel();
    const other = await built.app.request("/health", {
      headers: { Origin: "https://evil.example" },
    });
    assert.equal(other.headers.get("access-control-allow-origin"), null);
    await other.body?.cancel();
  } finally {
    await built.dispose();
  }
});
