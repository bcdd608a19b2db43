import assert from "node:assert/strict";
import fc from "fast-check";
import { openStore } from "../../../lib/store/store.ts";
import { createBackendApp } from "../../../server/backend/app.ts";
import { catalogueProxy } from "../../../server/backend/catalogue_proxy.ts";
import { json, RESEARCHER, testApp, tokenFor } from "../catalogue/_catalogue.ts";

/** A server on a free local port; `close()` stops it. */
interface Served {
  url: string;
  close(): Promise<void>;
}

function serve(handler: (request: Request) => Response | Promise<Response>): Served {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** A response's status, headers and parsed JSON body (text when not JSON). */
async function reply(res: Response) {
  const text = await res.text();
  const type = res.headers.get("content-type") ?? "";
  // deno-lint-ignore no-explicit-any
  const body: any = type.includes("json") && text !== "" ? JSON.parse(text) : text;
  return { status: res.status, headers: res.headers, body };
}

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
      assert.equal(method.headers.get("allow"), "GET, HEAD");
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

/** A fetch that records the request it gets and answers `answer`. */
function recordingFetch(answer: () => Response) {
  const seen: Request[] = [];
  const fetchFn: typeof fetch = (input, init) => {
    seen.push(new Request(input, init));
    return Promise.resolve(answer());
  };
  return { seen, fetchFn };
}

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

/** Sends `requestLine` as is over a new connection; the status and body of the answer. */
async function rawRequest(port: number, requestLine: string) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(
    new TextEncoder().encode(`${requestLine}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
  );
  let text = "";
  const buffer = new Uint8Array(16 * 1024);
  for (;;) {
    const n = await conn.read(buffer).catch(() => null);
    if (n === null) break;
    text += new TextDecoder().decode(buffer.subarray(0, n));
  }
  conn.close();
  const [head = "", body = ""] = text.split("\r\n\r\n", 2);
  return { status: Number(head.split(" ")[1]), head, body };
}

/** A server that records every request it gets. */
function recordingServer() {
  const seen: string[] = [];
  const served = serve((request) => {
    seen.push(`${request.method} ${request.url}`);
    return Response.json({ reached: true });
  });
  return { ...served, seen };
}

// Issue 18: before the fix, `..` (raw or percent-encoded) was resolved after routing and the
// catalogue's host became user-info: the proxy called `other` and passed its answer back.
Deno.test("catalogueProxy() refuses paths that leave the catalogue's /api/v1/, over a raw socket", async (t) => {
  const catalogue = recordingServer();
  const other = recordingServer();
  const otherHost = `127.0.0.1:${new URL(other.url).port}`;
  const proxy = serve((request) => catalogueProxy({ catalogueUrl: catalogue.url }).fetch(request));
  const port = Number(new URL(proxy.url).port);
  try {
    const escapes = [
      // The four forms of the audit: raw, lower-case, upper-case and mixed encoding of `..`.
      `/tech/api/v1/../../../xxxx@${otherHost}/x`,
      `/tech/api/v1/%2e%2e/%2e%2e/%2e%2e/xxxx@${otherHost}/x`,
      `/tech/api/v1/%2E%2E/%2E%2E/%2E%2E/xxxx@${otherHost}/x`,
      `/tech/api/v1/.%2e/%2e./%2E%2e/xxxx@${otherHost}/x`,
      "/tech/api/v1/technologies/..",
      "/tech/api/v1/technologies/.",
      "/tech/api/v1/technologies/%2e",
      "/tech/api/v1/technologies/..%2Fx",
      `/tech/api/v1/@${otherHost}`,
      `/tech/api/v1/technologies/a%40${otherHost}`,
      "/tech/api/v1/technologies/a\\b",
      "/tech/api/v1/technologies/%5c%5cevil/x",
      `/tech/api/v1//${otherHost}/x`,
      "/tech/api/v1/technologies//x",
      "/tech/api/v1/technologies/%2F%2Fevil",
      `/tech/api/v1/http:/${otherHost}/x`,
      `/tech/api/v1/http%3A/${otherHost}/x`,
      "/tech/api/v1/technologies/",
      "/tech/api/v1/",
      "/tech/api/v1/technologies/%zz",
    ];
    for (const path of escapes) {
      await t.step(`GET ${path}: 400, nothing sent`, async () => {
        const { status, head, body } = await rawRequest(port, `GET ${path} HTTP/1.1`);
        assert.equal(status, 400, `${head}\n${body}`);
        assert.match(head, /content-type: application\/json/i);
        assert.match(JSON.parse(body).error, /^Invalid catalogue path: /);
      });
    }
    await t.step("legitimate paths still go through", async () => {
      for (
        const path of [
          "/tech/api/v1/technologies/onshore_wind",
          "/tech/api/v1/technologies?type=storage&limit=2",
          "/tech/api/v1/technologies/a%20b?q=a%2Fb",
          "/tech/api/v1/technologies/a%2Fb",
          "/tech/api/v1/timeseries/DE_load.2016/data",
        ]
      ) {
        const { status, body } = await rawRequest(port, `GET ${path} HTTP/1.1`);
        assert.equal(status, 200, path);
        assert.deepEqual(JSON.parse(body), { reached: true });
      }
      const base = catalogue.url;
      assert.deepEqual(catalogue.seen, [
        `GET ${base}/api/v1/technologies/onshore_wind`,
        `GET ${base}/api/v1/technologies?type=storage&limit=2`,
        `GET ${base}/api/v1/technologies/a%20b?q=a%2Fb`,
        `GET ${base}/api/v1/technologies/a%2Fb`,
        `GET ${base}/api/v1/timeseries/DE_load.2016/data`,
      ]);
    });
    await t.step("neither the catalogue nor the other host got a refused request", () => {
      assert.deepEqual(other.seen, []);
      assert.equal(catalogue.seen.length, 5);
    });
  } finally {
    await proxy.close();
    await catalogue.close();
    await other.close();
  }
});

Deno.test("catalogueProxy() refuses bad paths in process too, without calling the catalogue", async () => {
  const { seen, fetchFn } = recordingFetch(() => new Response("ok"));
  const app = catalogueProxy({ catalogueUrl: "http://c.test", fetch: fetchFn });
  for (
    const path of [
      "/tech/api/v1/technologies//x",
      "/tech/api/v1/technologies/a%40evil.test",
      "/tech/api/v1/technologies/%5Cevil",
      "/tech/api/v1/http%3A/evil.test",
      "/tech/api/v1/technologies/",
    ]
  ) {
    const res = await app.request(path);
    assert.equal(res.status, 400, path);
    assert.match((await res.json()).error, /^Invalid catalogue path: /);
  }
  assert.equal(seen.length, 0);
});

// Issue 18: TRACE went to fetch(), which refuses it, and came back as a 502.
Deno.test("catalogueProxy() answers 405 with Allow to methods it does not pass on", async (t) => {
  const catalogue = recordingServer();
  const proxy = serve((request) => catalogueProxy({ catalogueUrl: catalogue.url }).fetch(request));
  const port = Number(new URL(proxy.url).port);
  try {
    for (const method of ["TRACE", "TRACK", "PROPFIND", "LINK"]) {
      await t.step(`${method} over a raw socket`, async () => {
        const { status, head, body } = await rawRequest(
          port,
          `${method} /tech/api/v1/technologies HTTP/1.1`,
        );
        assert.equal(status, 405, head);
        assert.match(head, /\r\nallow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n/i);
        assert.match(JSON.parse(body).error, new RegExp(`^Method ${method} is not passed on`));
      });
    }
    await t.step("CONNECT never reaches a route: Deno's HTTP parser answers 400", async () => {
      const { status } = await rawRequest(port, "CONNECT /tech/api/v1/technologies HTTP/1.1");
      assert.equal(status, 400);
    });
    await t.step("TRACE /tech/health: 405, GET and HEAD allowed", async () => {
      const { status, head } = await rawRequest(port, "TRACE /tech/health HTTP/1.1");
      assert.equal(status, 405, head);
      assert.match(head, /\r\nallow: GET, HEAD\r\n/i);
    });
    await t.step("PROPFIND in process", async () => {
      const res = await catalogueProxy({ catalogueUrl: catalogue.url }).request(
        "/tech/api/v1/technologies",
        { method: "PROPFIND" },
      );
      assert.equal(res.status, 405);
      assert.equal(res.headers.get("allow"), "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
      await res.body?.cancel();
    });
    assert.deepEqual(catalogue.seen, []);
  } finally {
    await proxy.close();
    await catalogue.close();
  }
});

Deno.test("catalogueProxy() fuzz: no raw path reaches anything but the catalogue's /api/v1/", async () => {
  const catalogue = recordingServer();
  const other = recordingServer();
  const otherHost = `127.0.0.1:${new URL(other.url).port}`;
  const proxy = serve((request) => catalogueProxy({ catalogueUrl: catalogue.url }).fetch(request));
  const port = Number(new URL(proxy.url).port);
  const segment = fc.constantFrom(
    "..",
    ".",
    "%2e%2e",
    "%2E%2e",
    ".%2e",
    "%2e.",
    "%2e",
    "",
    "@",
    "%40",
    "\\",
    "%5c",
    "%2f",
    "%2F%2F",
    "%2F..",
    "http:",
    "HTTP%3a",
    `xxxx@${otherHost}`,
    otherHost,
    "technologies",
    "onshore_wind",
    "a%20b",
    "%zz",
    "%",
    "?q=1",
    "%3F",
    "~",
  );
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 6 }), async (segments) => {
        const before = catalogue.seen.length;
        const path = `/tech/api/v1/${segments.join("/")}`;
        const { status } = await rawRequest(port, `GET ${path} HTTP/1.1`);
        assert.ok([200, 400, 404].includes(status), `${path}: ${status}`);
        if (status !== 200) {
          assert.equal(catalogue.seen.length, before, path);
          return;
        }
        const sent = new URL((catalogue.seen.at(-1) ?? "").slice("GET ".length));
        assert.equal(sent.origin, catalogue.url);
        assert.ok(sent.pathname.startsWith("/api/v1/"), sent.href);
        for (const part of sent.pathname.split("/").slice(1)) {
          assert.ok(![".", "..", ""].includes(decodeURIComponent(part)), sent.href);
        }
      }),
      { numRuns: 300 },
    );
    assert.deepEqual(other.seen, []);
  } finally {
    await proxy.close();
    await catalogue.close();
    await other.close();
  }
});
