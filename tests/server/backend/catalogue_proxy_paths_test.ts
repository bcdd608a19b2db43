/**
 * Issue 18: the catalogue pass-through reaches nothing but the catalogue's `/api/v1/`. Paths that
 * would leave it (`..`, `%2e%2e`, `@`, `\\`, `//`, a scheme, empty segments) are refused with
 * 400 over a raw socket and in process, with a fake "other host" that must receive nothing;
 * methods it does not pass on get 405 with `Allow`.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { catalogueProxy } from "../../../server/backend/catalogue_proxy.ts";
import { rawRequest } from "../_raw_http.ts";
import { recordingFetch, serve } from "./_proxy_fakes.ts";

/** `rawRequest` of `requestLine` as is and a Host: the answer's status, head and body. */
function rawRequestLine(port: number, requestLine: string) {
  return rawRequest(port, `${requestLine}\r\nHost: 127.0.0.1\r\n`);
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
        const { status, head, body } = await rawRequestLine(port, `GET ${path} HTTP/1.1`);
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
        const { status, body } = await rawRequestLine(port, `GET ${path} HTTP/1.1`);
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
        const { status, head, body } = await rawRequestLine(
          port,
          `${method} /tech/api/v1/technologies HTTP/1.1`,
        );
        assert.equal(status, 405, head);
        assert.match(head, /\r\nallow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n/i);
        assert.match(JSON.parse(body).error, new RegExp(`^Method ${method} is not passed on`));
      });
    }
    await t.step("CONNECT never reaches a route: Deno's HTTP parser answers 400", async () => {
      const { status } = await rawRequestLine(port, "CONNECT /tech/api/v1/technologies HTTP/1.1");
      assert.equal(status, 400);
    });
    await t.step("TRACE /tech/health: 405, GET and HEAD allowed", async () => {
      const { status, head } = await rawRequestLine(port, "TRACE /tech/health HTTP/1.1");
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
        const { status } = await rawRequestLine(port, `GET ${path} HTTP/1.1`);
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
