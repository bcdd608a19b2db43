import assert from "node:assert/strict";
import { openStore } from "../../../lib/store/store.ts";
import { createBackendApp } from "../../../server/backend/app.ts";
import { catalogueProxy } from "../../../server/backend/catalogue_proxy.ts";
import { json, RESEARCHER, testApp, tokenFor } from "../catalogue/_catalogue.ts";
import { recordingFetch, reply, serve } from "./_proxy_fakes.ts";

Deno.test("catalogueProxy() passes the real catalogue's routes through real sockets", async (t) => {
  const catalogue = await testApp();
  const upstream = serve((request) => catalogue.app.fetch(request));
  const proxy = serve((request) => catalogueProxy({ catalogueUrl: upstream.url }).fetch(request));
  const viaProxy = async (path: string, init?: RequestInit) =>
    reply(await fetch(`${proxy.url}/tech${path}`, init));
  const direct = async (path: string, init?: RequestInit) =>
    reply(await fetch(`${upstream.url}${path}`, init));
  try {
    await t.step("GET /tech/health is the catalogue's /health", async () => {
      const { status, body } = await viaProxy("/health");
      assert.equal(status, 200);
      assert.deepEqual(
        Object.keys(body).sort(),
        Object.keys((await direct("/health")).body).sort(),
      );
    });
    await t.step("the list, with its query string", async () => {
      const { status, headers, body } = await viaProxy("/api/v1/technologies?limit=200");
      assert.equal(status, 200);
      assert.match(headers.get("content-type") ?? "", /^application\/json/);
      assert.deepEqual(body, (await direct("/api/v1/technologies?limit=200")).body);
      const page = await viaProxy("/api/v1/technologies?skip=5&limit=2");
      assert.equal(page.body.skip, 5);
      assert.deepEqual(page.body.technologies, body.technologies.slice(5, 7));
      const first = body.technologies[0];
      for (const key of ["technology_id", "technology_name", "oeo_class", "domain"]) {
        assert.ok(key in first, key);
      }
    });
    await t.step("by id", async () => {
      const { status, body } = await viaProxy("/api/v1/technologies/onshore_wind");
      assert.equal(status, 200);
      assert.deepEqual(body, (await direct("/api/v1/technologies/onshore_wind")).body);
      assert.ok(body.instances.length > 0);
    });
    await t.step("by type and by category", async () => {
      const storage = await viaProxy("/api/v1/technologies?type=storage&limit=200");
      assert.equal(storage.status, 200);
      assert.ok(storage.body.total > 0);
      assert.ok(storage.body.technologies.every((x: { domain: string }) => x.domain === "storage"));
      const category = await viaProxy("/api/v1/technologies/category/storage?limit=200");
      assert.deepEqual(category.body.technologies, storage.body.technologies);
    });
    await t.step("the batch route: a POST body through", async () => {
      const { status, body } = await viaProxy(
        "/api/v1/technologies/batch",
        json("POST", { ids: ["onshore_wind", "nope", "lithium_ion_bess"] }),
      );
      assert.equal(status, 200);
      assert.deepEqual(
        body.technologies.map((x: { technology_id: string }) => x.technology_id),
        ["onshore_wind", "lithium_ion_bess"],
      );
      assert.deepEqual(body.unknown, ["nope"]);
    });
    await t.step("the catalogue's errors pass through: status and JSON", async () => {
      const missing = await viaProxy("/api/v1/technologies/no_such_technology");
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { error: 'Technology "no_such_technology" not found' });
      const badType = await viaProxy("/api/v1/technologies?type=nuclear");
      assert.equal(badType.status, 400);
      assert.match(badType.body.error, /^Invalid query: type: must be one of supply/);
      const method = await viaProxy("/api/v1/technologies", { method: "DELETE" });
      assert.equal(method.status, 405);
      assert.equal(method.headers.get("allow"), "GET, POST, HEAD");
    });
    await t.step("Authorization reaches the catalogue: a submission", async () => {
      const record = {
        technology_id: "tidal_stream",
        technology_name: "Tidal stream",
        domain: "generation",
        carrier: "electricity",
        oeo_class: "https://openenergyplatform.org/ontology/oeo/OEO_00000311",
        description: "Submitted through the backend's proxy",
        instances: [{
          instance_id: "tidal_stream-2030",
          instance_name: "Tidal stream 2030",
          typical_capacity_mw: 10,
          capex_usd_per_kw: 2500,
          opex_fixed_usd_per_kw_yr: 60,
          opex_var_usd_per_mwh: null,
          efficiency_percent: null,
          lifetime_years: 25,
          co2_emission_factor_operational_g_per_kwh: 0,
          ramping_rate_percent_per_min: null,
          reference_source: "Pilot project report (2025)",
        }],
      };
      const anonymous = await viaProxy("/api/v1/technologies/submit", json("POST", record));
      assert.equal(anonymous.status, 401);
      const token = await tokenFor(RESEARCHER);
      const signed = await viaProxy("/api/v1/technologies/submit", json("POST", record, token));
      assert.equal(signed.status, 202);
      assert.equal(signed.body.status, "pending");
      assert.equal(signed.body.technology_id, "tidal_stream");
    });
    await t.step("a large answer streams through whole", async () => {
      const path = "/api/v1/timeseries/DE_load_2016/data";
      const viaText = await (await fetch(`${proxy.url}/tech${path}`)).text();
      const directText = await (await fetch(`${upstream.url}${path}`)).text();
      assert.ok(directText.length > 50_000, `${directText.length} characters`);
      assert.equal(viaText, directText);
    });
    await t.step("only /tech/health and /tech/api/v1/* are passed on", async () => {
      const other = await viaProxy("/openapi.json");
      assert.equal(other.status, 404);
      assert.match(other.body.error, /^Not found/);
    });
  } finally {
    await proxy.close();
    await upstream.close();
    await catalogue.dispose();
  }
});

Deno.test("catalogueProxy() drops hop-by-hop headers both ways and passes the rest", async (t) => {
  const { seen, fetchFn } = recordingFetch(() => {
    const headers = new Headers({
      "Content-Type": "application/json",
      "Connection": "keep-alive, X-Upstream-Hop",
      "Keep-Alive": "timeout=5",
      "X-Upstream-Hop": "connection only",
      "Proxy-Authenticate": "Basic",
      "Trailer": "X-Checksum",
      "Upgrade": "h2c",
      "Access-Control-Allow-Origin": "*",
      "X-Kept": "yes",
      "Location": "/api/v1/technologies/elsewhere",
    });
    headers.append("Set-Cookie", "a=1");
    headers.append("Set-Cookie", "b=2");
    return new Response('{"teapot":true}', { status: 418, headers });
  });
  const app = catalogueProxy({ catalogueUrl: "http://catalogue.test:8005/", fetch: fetchFn });
  const res = await app.request("/tech/api/v1/technologies/x/instances?limit=3&tag=a%20b", {
    method: "PUT",
    headers: {
      "Host": "backend.test",
      "Connection": "keep-alive, X-Client-Hop",
      "Keep-Alive": "timeout=5",
      "X-Client-Hop": "connection only",
      "Proxy-Authorization": "Basic abc",
      "TE": "trailers",
      "Upgrade": "websocket",
      "Authorization": "Bearer token-1",
      "Content-Type": "application/json",
      "X-Custom": "kept",
    },
    body: '{"a":1}',
  });
  const request = seen[0];
  assert.ok(request);
  await t.step("method, path, query string and body go to the catalogue", async () => {
    assert.equal(request.method, "PUT");
    assert.equal(
      request.url,
      "http://catalogue.test:8005/api/v1/technologies/x/instances?limit=3&tag=a%20b",
    );
    assert.equal(await request.text(), '{"a":1}');
    assert.equal(request.redirect, "manual", "redirects are passed back, not followed");
  });
  await t.step("request: Authorization and end-to-end headers kept, hop-by-hop dropped", () => {
    assert.equal(request.headers.get("authorization"), "Bearer token-1");
    assert.equal(request.headers.get("x-custom"), "kept");
    assert.equal(request.headers.get("content-type"), "application/json");
    for (const name of ["connection", "keep-alive", "x-client-hop", "proxy-authorization"]) {
      assert.equal(request.headers.get(name), null, name);
    }
    for (const name of ["te", "upgrade", "host"]) assert.equal(request.headers.get(name), null);
  });
  await t.step("response: status and end-to-end headers kept, hop-by-hop dropped", async () => {
    assert.equal(res.status, 418);
    assert.deepEqual(await res.json(), { teapot: true });
    assert.equal(res.headers.get("x-kept"), "yes");
    assert.equal(res.headers.get("location"), "/api/v1/technologies/elsewhere");
    assert.deepEqual(res.headers.getSetCookie(), ["a=1", "b=2"]);
    for (
      const name of [
        "connection",
        "keep-alive",
        "x-upstream-hop",
        "proxy-authenticate",
        "trailer",
        "upgrade",
        "access-control-allow-origin",
      ]
    ) {
      assert.equal(res.headers.get(name), null, name);
    }
  });
});

Deno.test("catalogueProxy() keeps the catalogue URL's own path and sends no body with a GET", async () => {
  const { seen, fetchFn } = recordingFetch(() => new Response("ok"));
  const app = catalogueProxy({ catalogueUrl: "http://host.test/catalogue/", fetch: fetchFn });
  await (await app.request("/tech/health")).text();
  await (await app.request("/tech/api/v1/technologies/a%2Fb?q=1")).text();
  assert.deepEqual(seen.map((r) => r.url), [
    "http://host.test/catalogue/health",
    "http://host.test/catalogue/api/v1/technologies/a%2Fb?q=1",
  ]);
  assert.equal(seen[1]?.body, null);
  assert.throws(() => catalogueProxy({ catalogueUrl: "not a url" }), TypeError);
  assert.throws(() => catalogueProxy({ catalogueUrl: "ftp://host.test" }), TypeError);
});

Deno.test("catalogueProxy() answers 413 for a body over the cap without calling the catalogue", async () => {
  const { seen, fetchFn } = recordingFetch(() => new Response("ok"));
  const app = catalogueProxy({ catalogueUrl: "http://c.test", fetch: fetchFn, maxBodyBytes: 10 });
  const declared = await app.request(
    "/tech/api/v1/technologies/batch",
    json("POST", "x".repeat(11)),
  );
  assert.equal(declared.status, 413);
  assert.match((await declared.json()).error, /^Request body larger than 10 bytes/);
  const streamed = await app.request("/tech/api/v1/technologies/batch", {
    method: "POST",
    body: ReadableStream.from([new TextEncoder().encode("x".repeat(8)), new Uint8Array(8)]),
  });
  assert.equal(streamed.status, 413);
  await streamed.body?.cancel();
  assert.equal(seen.length, 0);
  const fits = await app.request("/tech/api/v1/technologies/batch", json("POST", "x".repeat(10)));
  assert.equal(fits.status, 200);
  await fits.body?.cancel();
});

Deno.test("catalogueProxy() answers 502 JSON when the catalogue is down", async (t) => {
  // A port that was free a moment ago: nothing listens there.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const url = `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`;
  listener.close();
  const proxy = serve((request) => catalogueProxy({ catalogueUrl: url }).fetch(request));
  try {
    for (const path of ["/tech/health", "/tech/api/v1/technologies?limit=1"]) {
      await t.step(path, async () => {
        const { status, headers, body } = await reply(await fetch(`${proxy.url}${path}`));
        assert.equal(status, 502);
        assert.match(headers.get("content-type") ?? "", /^application\/json/);
        assert.ok(body.error.includes(`catalogue is unreachable at ${url}`), body.error);
      });
    }
  } finally {
    await proxy.close();
  }
});

Deno.test("catalogueProxy() answers 504 JSON when the catalogue does not answer in time", async () => {
  // Accepts connections and never answers.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const url = `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`;
  const connections: Deno.Conn[] = [];
  const accepting = (async () => {
    try {
      for await (const conn of listener) connections.push(conn);
    } catch {
      // the listener closed
    }
  })();
  const proxy = serve((request) =>
    catalogueProxy({ catalogueUrl: url, timeoutMs: 200 }).fetch(request)
  );
  try {
    const started = performance.now();
    const { status, body } = await reply(await fetch(`${proxy.url}/tech/api/v1/technologies`));
    const elapsed = performance.now() - started;
    assert.equal(status, 504);
    assert.equal(body.error, `The technology catalogue at ${url} did not answer within 0.2 s`);
    assert.ok(elapsed >= 190 && elapsed < 5000, `answered after ${elapsed} ms`);
  } finally {
    await proxy.close();
    listener.close();
    await accepting;
    for (const conn of connections) conn.close();
  }
});

Deno.test("catalogueProxy() documents its routes with their error rows", async () => {
  const { createOpenAPIApp } = await import("../../../server/middleware/errors.ts");
  const root = createOpenAPIApp();
  root.route("/", catalogueProxy({ catalogueUrl: "http://c.test" }));
  root.doc("/openapi.json", { openapi: "3.0.3", info: { title: "t", version: "1" } });
  const doc = await (await root.request("/openapi.json")).json();
  assert.deepEqual(Object.keys(doc.paths["/tech/health"]), ["get"]);
  const passThrough = doc.paths["/tech/api/v1/{path}"];
  assert.deepEqual(Object.keys(passThrough).sort(), ["delete", "get", "patch", "post", "put"]);
  assert.deepEqual(Object.keys(passThrough.post.responses).sort(), [
    "400",
    "405",
    "413",
    "502",
    "504",
    "default",
  ]);
});

Deno.test("catalogueProxy() mounted in the backend: behind its cross-origin rule, in its OpenAPI", async (t) => {
  const store = await openStore(":memory:");
  const answer: typeof fetch = () =>
    Promise.resolve(
      new Response('{"ok":true}', {
        headers: { "Content-Type": "application/json", "Access-Control-Allow-Origin": "*" },
      }),
    );
  const backend = await createBackendApp({
    store,
    config: {
      runnerUrl: "http://127.0.0.1:9",
      catalogueUrl: "http://c.test",
      maxBodyBytes: 4 * 1024 * 1024,
    },
    extraRoutes: (app) =>
      app.route("/", catalogueProxy({ catalogueUrl: "http://c.test", fetch: answer })),
  });
  try {
    const cases: [string | undefined, number, string | null][] = [
      [undefined, 200, null],
      ["http://localhost:5173", 200, "http://localhost:5173"],
      ["http://evil.test", 403, null],
    ];
    for (const [origin, status, allowOrigin] of cases) {
      await t.step(`Origin ${origin ?? "absent"}: ${status}`, async () => {
        const res = await backend.app.request("/tech/api/v1/technologies", {
          headers: origin ? { Origin: origin } : {},
        });
        assert.equal(res.status, status);
        assert.equal(res.headers.get("access-control-allow-origin"), allowOrigin);
        await res.body?.cancel();
      });
    }
    await t.step("documented in /api/openapi.json", async () => {
      const doc = await (await backend.app.request("/api/openapi.json")).json();
      assert.ok(doc.paths["/tech/health"]);
      assert.ok(doc.paths["/tech/api/v1/{path}"]);
    });
  } finally {
    await backend.close();
    await store.close();
  }
});
