import assert from "node:assert/strict";
import { NO_REGION_REASON } from "../../../lib/extraction/extraction_runs.ts";
import { openStore } from "../../../lib/store/store.ts";
import {
  createTestApp,
  dataStorePath,
  importLiechtenstein,
  post,
  TRIESEN,
  waitForRun,
} from "./_fixture.ts";

// Liechtenstein imported once for this file, and one app whose Triesen run every test shares.
const setup = (async () => {
  const [osm, dataPath] = await Promise.all([importLiechtenstein(), dataStorePath()]);
  const data = await openStore(dataPath, { readOnly: true });
  const service = await createTestApp(osm, data);
  const [xmin, ymin, xmax, ymax] = TRIESEN;
  const res = await service.app.request(
    "/api/v1/runs",
    post("", { country: "li", heat_country: "at", xmin, ymin, xmax, ymax }),
  );
  const { run_id } = await res.json();
  return { osm, data, service, app: service.app, accepted: res.status, triesenRun: run_id };
})();

type App = Awaited<typeof setup>["app"];

async function send(app: App, path: string, init?: RequestInit) {
  const res = await app.request(path, init);
  const text = await res.text();
  return { res, status: res.status, body: text ? JSON.parse(text) : undefined };
}

const BOX = `xmin=${TRIESEN[0]}&ymin=${TRIESEN[1]}&xmax=${TRIESEN[2]}&ymax=${TRIESEN[3]}`;
const VALID = {
  country: "LI",
  heat_country: "AT",
  xmin: 9.5,
  ymin: 47.08,
  xmax: 9.56,
  ymax: 47.13,
};

Deno.test("POST /api/v1/runs over Triesen: 202 at once, then completed with buildings, surfaces and tabula", async () => {
  const { app, accepted, triesenRun } = await setup;
  assert.equal(accepted, 202);
  assert.equal(typeof triesenRun, "string");
  const view = await waitForRun(app, triesenRun);
  assert.equal(view["status"], "completed");
  assert.equal(view["country"], "LI", "stored upper case");
  assert.equal(view["heat_country"], "AT");
  assert.deepEqual(view["bbox"], [...TRIESEN]);
  assert.equal(view["progress_pct"], 100);
  assert.equal((view["options"] as Record<string, unknown>)["storey_height"], 3);
  assert.ok(typeof view["started_at"] === "string" && typeof view["finished_at"] === "string");
  assert.ok(!("error" in view) && !("reason" in view));
  const counts = view["counts"] as { buildings: number; surfaces: number };
  assert.ok(counts.buildings > 1000, `buildings ${counts.buildings}`);

  const page = await send(app, `/api/v1/buildings?country=LI&${BOX}&limit=50`);
  assert.equal(page.status, 200);
  assert.equal(page.body.total, counts.buildings, "counts match the buildings route's total");
  const first = page.body.buildings[0];
  assert.ok(first.surfaces.length > 0);
  assert.ok(!("geometry" in first), "no geometry, on purpose");
  const linked = page.body.buildings.filter((b: { tabula: unknown }) => b.tabula !== null);
  assert.ok(linked.length > 0);
  assert.match(linked[0].tabula.variant, /^AT\./);
  assert.equal(typeof linked[0].tabula.q_h_nd, "number");
});

Deno.test("POST /api/v1/runs: an empty box ends no_data with a reason, with or without heat_country", async (t) => {
  const { app } = await setup;
  const submit = async (body: Record<string, unknown>) => {
    const res = await send(app, "/api/v1/runs", post("", body));
    assert.equal(res.status, 202);
    return await waitForRun(app, res.body.run_id);
  };
  await t.step("a box inside the imported extent without a building", async () => {
    const view = await submit({ ...VALID, xmin: 9.60, ymin: 47.06, xmax: 9.61, ymax: 47.07 });
    assert.equal(view["status"], "no_data");
    assert.match(String(view["reason"]), /no building/);
    assert.ok(!("error" in view));
  });
  await t.step("a box no imported region covers", async () => {
    const view = await submit({ ...VALID, xmin: 10.0, ymin: 48.0, xmax: 10.01, ymax: 48.01 });
    assert.equal(view["status"], "no_data");
    assert.equal(view["reason"], NO_REGION_REASON);
  });
  // Issue 18: without heat_country the run failed ("LI has no TABULA typology") before it
  // looked at the box.
  await t.step("the spec's body (no heat_country) over an empty box (issue 18)", async () => {
    const view = await submit({ country: "LI", xmin: 9.60, ymin: 47.06, xmax: 9.61, ymax: 47.07 });
    assert.equal(view["status"], "no_data");
    assert.match(String(view["reason"]), /no building/);
  });
});

// Issue 18: a spec-shaped body for the shipped region failed every run with "LI has no TABULA
// typology"; it completes with the buildings and surfaces, each saying why it has no heat link.
Deno.test("POST /api/v1/runs: the spec's body for LI completes with buildings, surfaces and a per-building reason (issue 18, failed before)", async () => {
  const { app } = await setup;
  const box = { xmin: 9.52, ymin: 47.135, xmax: 9.525, ymax: 47.14 };
  const res = await send(app, "/api/v1/runs", post("", { country: "LI", ...box }));
  assert.equal(res.status, 202);
  const view = await waitForRun(app, res.body.run_id);
  assert.equal(view["status"], "completed", JSON.stringify(view));
  assert.equal(view["heat_country"], null);
  assert.ok(!("error" in view));
  const counts = view["counts"] as { buildings: number; surfaces: number };
  assert.ok(
    counts.buildings > 10 && counts.surfaces > counts.buildings * 4,
    JSON.stringify(counts),
  );
  const query = `country=LI&xmin=${box.xmin}&ymin=${box.ymin}&xmax=${box.xmax}&ymax=${box.ymax}`;
  // The newest run wins per building: other tests' runs do not reach into this box.
  const page = await send(app, `/api/v1/buildings?${query}&limit=5000`);
  assert.equal(page.status, 200);
  assert.equal(page.body.total, counts.buildings);
  for (const b of page.body.buildings) {
    assert.ok(b.surfaces.length > 0, b.id);
    assert.equal(b.tabula, null, b.id);
    assert.match(
      b.tabula_absent_reason,
      /^LI has no TABULA typology: name one with heat_country, e\.g\. AT \(a neighbour's\); typologies: AT, /,
    );
  }
});

Deno.test("POST /api/v1/runs: a heat_country without a TABULA typology is 400 listing those with one", async () => {
  const { app } = await setup;
  const res = await send(app, "/api/v1/runs", post("", { ...VALID, heat_country: "ch" }));
  assert.equal(res.status, 400);
  assert.match(
    res.body.error,
    /^Invalid request body: heat_country: CH has no TABULA typology; one of AT, BE, .*DE/,
  );
  assert.deepEqual(res.body.details.map((d: { path: string }) => d.path), ["heat_country"]);
});

// Issue 18: runs queued without bound.
Deno.test("POST /api/v1/runs: beyond EXTRACTION_MAX_QUEUED waiting runs, 503 naming the setting with Retry-After (issue 18)", async () => {
  const { osm, data } = await setup;
  const service = await createTestApp(osm, data, { maxQueued: 1 });
  try {
    const body = post("", VALID);
    const first = await service.app.request("/api/v1/runs", body);
    const second = await service.app.request("/api/v1/runs", post("", VALID));
    assert.deepEqual([first.status, second.status], [202, 202]);
    const third = await service.app.request("/api/v1/runs", post("", VALID));
    assert.equal(third.status, 503);
    assert.equal(third.headers.get("retry-after"), "10");
    assert.match(third.headers.get("content-type") ?? "", /^application\/json/);
    const answer = await third.json();
    assert.match(
      answer.error,
      /1 extraction run\(s\) are waiting already \(at most 1, EXTRACTION_MAX_QUEUED\)/,
    );
    const health = await (await service.app.request("/api/v1/health")).json();
    assert.deepEqual(health.runs, { queued: 1, running: 1 });
  } finally {
    await service.close();
  }
});

Deno.test("POST /api/v1/runs answers 400 naming the member at fault", async (t) => {
  const { app } = await setup;
  const cases: [string, unknown, RegExp][] = [
    ["country missing", { ...VALID, country: undefined }, /country: is required/],
    ["country not letters", { ...VALID, country: "L1" }, /country: must be two letters/],
    ["country of three letters", { ...VALID, country: "LIE" }, /country: must be two letters/],
    ["heat_country not a code", { ...VALID, heat_country: "A" }, /heat_country: must be two/],
    ["xmin a string", { ...VALID, xmin: "9.5" }, /xmin: must be a number/],
    ["xmin missing", { ...VALID, xmin: undefined }, /xmin: is required/],
    ["xmin out of range", { ...VALID, xmin: -181, xmax: -180.9 }, /xmin: must be >= -180/],
    ["xmax out of range", { ...VALID, xmin: 179.9, xmax: 180.5 }, /xmax: must be <= 180/],
    ["ymin out of range", { ...VALID, ymin: -91, ymax: -89.9 }, /ymin: must be >= -90/],
    ["ymax out of range", { ...VALID, ymin: 89.9, ymax: 90.1 }, /ymax: must be <= 90/],
    ["ymax null", { ...VALID, ymax: null }, /ymax: must be a number/],
    ["xmin not below xmax", { ...VALID, xmax: 9.5 }, /xmax: must be greater than xmin/],
    ["ymin above ymax", { ...VALID, ymin: 47.2 }, /ymax: must be greater than ymin/],
    ["box too wide", { ...VALID, xmax: 9.75 }, /xmax: .*at most 0\.2 x 0\.2 degrees/],
    ["box too high", { ...VALID, ymax: 47.4 }, /ymax: .*at most 0\.2 x 0\.2 degrees/],
    ["unknown member", { ...VALID, zoom: 3 }, /zoom: unknown member/],
    ["unknown option", { ...VALID, options: { storey: 3 } }, /options\.storey: unknown member/],
    [
      "option out of range",
      { ...VALID, options: { storey_height: 0 } },
      /options\.storey_height: must be > 1\.5/,
    ],
    [
      "option of the wrong kind",
      { ...VALID, options: { untagged_roof_shape: "dome" } },
      /options\.untagged_roof_shape: must be one of flat/,
    ],
    ["malformed JSON", "{", /Malformed JSON/],
    ["an array", "[]", /must be a JSON object, not an array/],
    ["empty", "", /it is empty/],
  ];
  for (const [name, body, message] of cases) {
    await t.step(name, async () => {
      const res = await send(app, "/api/v1/runs", post("", body));
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.match(res.body.error, message);
    });
  }
  await t.step("details list each problem", async () => {
    const res = await send(app, "/api/v1/runs", post("", { ...VALID, country: "1", xmax: 0 }));
    const paths = res.body.details.map((d: { path: string }) => d.path).sort();
    assert.deepEqual(paths, ["country", "xmax"]);
  });
});

Deno.test("POST /api/v1/runs: a body over 1 MiB is 413", async () => {
  const { app } = await setup;
  const body = JSON.stringify({ ...VALID, pad: "x".repeat(1024 * 1024) });
  const res = await send(app, "/api/v1/runs", post("", body));
  assert.equal(res.status, 413);
  assert.match(res.body.error, /larger than 1048576 bytes \(1 MiB\)/);
  // Without a declared length too (counted while read).
  const stream = new Blob([body]).stream();
  const streamed = await send(app, "/api/v1/runs", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: stream,
  });
  assert.equal(streamed.status, 413);
});

Deno.test("GET /api/v1/runs/{id}: an unknown run is 404", async () => {
  const { app } = await setup;
  const res = await send(app, "/api/v1/runs/no-such-run");
  assert.equal(res.status, 404);
  assert.match(res.body.error, /No run no-such-run/);
});

Deno.test("GET /api/v1/coverage: full, partial and no coverage by completed runs", async (t) => {
  const { app, triesenRun } = await setup;
  await waitForRun(app, triesenRun);
  const coverage = (query: string) => send(app, `/api/v1/coverage?${query}`);
  await t.step("full", async () => {
    const res = await coverage("country=li&xmin=9.51&ymin=47.09&xmax=9.55&ymax=47.12");
    assert.equal(res.status, 200);
    assert.equal(res.body.covered, true);
    assert.ok(Math.abs(res.body.fraction - 1) < 1e-9);
    assert.deepEqual(res.body.runs.map((r: { run_id: string }) => r.run_id), [triesenRun]);
  });
  await t.step("partial: half the box", async () => {
    const res = await coverage("country=LI&xmin=9.53&ymin=47.08&xmax=9.59&ymax=47.13");
    assert.equal(res.body.covered, false);
    assert.ok(Math.abs(res.body.fraction - 0.5) < 1e-9, `fraction ${res.body.fraction}`);
    assert.equal(res.body.runs.length, 1);
  });
  await t.step("none: elsewhere, or another country", async () => {
    const elsewhere = await coverage("country=LI&xmin=9.6&ymin=47.2&xmax=9.62&ymax=47.22");
    assert.deepEqual(elsewhere.body, { covered: false, fraction: 0, runs: [] });
    const other = await coverage(`country=AT&${BOX}`);
    assert.deepEqual(other.body, { covered: false, fraction: 0, runs: [] });
  });
  await t.step("400 naming the parameter", async () => {
    const cases: [string, RegExp][] = [
      [BOX, /country: is required/],
      ["country=LI&xmin=9.5&ymin=47&xmax=9.6", /ymax: is required/],
      ["country=LI&xmin=abc&ymin=47&xmax=9.6&ymax=47.1", /xmin: /],
      ["country=LI&xmin=9.7&ymin=47&xmax=9.6&ymax=47.1", /xmax: must be greater than xmin/],
      ["country=LI&xmin=9.5&ymin=47&xmax=9.6&ymax=95", /ymax: must be <= 90/],
      ["country=LIE&xmin=9.5&ymin=47&xmax=9.6&ymax=47.1", /country: must be two letters/],
    ];
    for (const [query, message] of cases) {
      const res = await coverage(query);
      assert.equal(res.status, 400, query);
      assert.match(res.body.error, message, query);
    }
  });
});

Deno.test("GET /api/v1/buildings: paging through a box with the cursor gives each building once", async () => {
  const { app, triesenRun } = await setup;
  await waitForRun(app, triesenRun);
  const seen = new Set<string>();
  let total = -1, pages = 0;
  let cursor: string | null = null;
  do {
    const res: Awaited<ReturnType<typeof send>> = await send(
      app,
      `/api/v1/buildings?country=LI&${BOX}&limit=700${cursor ? `&cursor=${cursor}` : ""}`,
    );
    assert.equal(res.status, 200);
    total = res.body.total;
    for (const b of res.body.buildings) {
      assert.ok(!seen.has(b.id), `${b.id} twice`);
      seen.add(b.id);
    }
    cursor = res.body.next_cursor;
    pages++;
  } while (cursor !== null);
  assert.equal(seen.size, total);
  assert.equal(pages, Math.ceil(total / 700));
  // The default page is 500.
  const first = await send(app, `/api/v1/buildings?country=LI&${BOX}`);
  assert.equal(first.body.buildings.length, 500);
});

Deno.test("GET /api/v1/buildings?id=: one building's record, 404 when no run has it", async () => {
  const { app, triesenRun } = await setup;
  await waitForRun(app, triesenRun);
  const page = await send(app, `/api/v1/buildings?country=LI&${BOX}&limit=1`);
  const id = page.body.buildings[0].id;
  const one = await send(app, `/api/v1/buildings?id=${encodeURIComponent(id)}`);
  assert.equal(one.status, 200);
  assert.deepEqual(one.body, { buildings: [page.body.buildings[0]], total: 1, next_cursor: null });
  const missing = await send(app, "/api/v1/buildings?id=way/1");
  assert.equal(missing.status, 404);
  assert.match(missing.body.error, /way\/1/);
});

Deno.test("GET /api/v1/buildings answers 400 naming the parameter", async () => {
  const { app } = await setup;
  const cases: [string, RegExp][] = [
    [`country=LI&${BOX}&limit=5001`, /limit: must be <= 5000/],
    [`country=LI&${BOX}&limit=0`, /limit: must be >= 1/],
    [`country=LI&${BOX}&limit=2.5`, /limit: must be an integer/],
    [`country=LI&${BOX}&cursor=nonsense`, /cursor: not a next_cursor/],
    [BOX, /country: required/],
    ["country=LI&xmin=9.5", /ymin, xmax, ymax: required/],
    ["", /country, xmin, ymin, xmax, ymax: required/],
  ];
  for (const [query, message] of cases) {
    const res = await send(app, `/api/v1/buildings?${query}`);
    assert.equal(res.status, 400, query);
    assert.match(res.body.error, message, query);
  }
});

Deno.test("GET /api/v1/geometry: footprints by ids and by box as GeoJSON with the ODbL attribution", async (t) => {
  const { app, osm } = await setup;
  const rows = await osm.all<{ osm_id: string; building: string }>(
    `SELECT osm_id, building FROM buildings ORDER BY osm_id LIMIT 2`,
  );
  await t.step("by ids", async () => {
    const ids = rows.map((r) => r.osm_id);
    const res = await send(app, `/api/v1/geometry?ids=${ids.join(",")},way/1`);
    assert.equal(res.status, 200);
    assert.equal(res.res.headers.get("content-type"), "application/geo+json; charset=utf-8");
    assert.equal(res.body.type, "FeatureCollection");
    assert.match(res.body.attribution, /OpenStreetMap contributors, ODbL/);
    assert.deepEqual(res.body.features.map((f: { id: string }) => f.id), ids);
    const feature = res.body.features[0];
    assert.deepEqual(feature.properties, { id: rows[0]!.osm_id, building: rows[0]!.building });
    assert.equal(feature.geometry.type, "MultiPolygon");
  });
  await t.step("by box: the footprints whose centre is in it", async () => {
    const box = "xmin=9.52&ymin=47.10&xmax=9.53&ymax=47.11";
    const res = await send(app, `/api/v1/geometry?country=LI&${box}`);
    assert.equal(res.status, 200);
    const [count] = await osm.all<{ n: number }>(
      `SELECT count(*) AS n FROM buildings WHERE (min_lon + max_lon) / 2 >= 9.52 AND
       (min_lon + max_lon) / 2 < 9.53 AND (min_lat + max_lat) / 2 >= 47.10 AND
       (min_lat + max_lat) / 2 < 47.11`,
    );
    assert.ok((count?.n ?? 0) > 0);
    assert.equal(res.body.features.length, count?.n);
  });
  await t.step("400 naming the parameter or the limit", async () => {
    const many = Array.from({ length: 5001 }, (_, i) => `way/${i}`).join(",");
    const cases: [string, RegExp][] = [
      ["ids=way/1,house/2", /ids: "house\/2" is not an OSM id/],
      [`ids=${"way/1,".repeat(30_000)}`, /ids: longer than 130000 characters/],
      [`ids=${many}`, /ids: 5001 ids; at most 5000 features/],
      ["xmin=9.4&ymin=47.0&xmax=9.7&ymax=47.3", /at most 5000 features/],
      ["xmin=9.4&ymin=47.0", /xmax, ymax: required/],
      ["xmin=9.5&ymin=47&xmax=9.4&ymax=47.1", /xmax: must be greater than xmin/],
    ];
    for (const [query, message] of cases) {
      const res = await send(app, `/api/v1/geometry?${query}`);
      assert.equal(res.status, 400, query.slice(0, 60));
      assert.match(res.body.error, message, `${query.slice(0, 60)}: ${res.body.error}`);
    }
  });
});

Deno.test("the service: health, OpenAPI document of every route, docs, no CORS, JSON 404", async () => {
  const { app } = await setup;
  const health = await send(app, "/api/v1/health");
  assert.equal(health.status, 200);
  assert.equal(health.body.status, "ok");
  assert.deepEqual(Object.keys(health.body.runs).sort(), ["queued", "running"]);

  const doc = await send(app, "/api/v1/openapi.json");
  assert.equal(doc.status, 200);
  assert.deepEqual(Object.keys(doc.body.paths).sort(), [
    "/api/v1/buildings",
    "/api/v1/coverage",
    "/api/v1/geometry",
    "/api/v1/health",
    "/api/v1/runs",
    "/api/v1/runs/{id}",
  ]);
  const schemas = doc.body.components.schemas;
  assert.match(schemas.ExtractedSurface.properties.tilt.description, /0 = vertical/);
  assert.match(schemas.ExtractedSurface.properties.azimuth.description, /clockwise from north/);
  assert.ok(doc.body.paths["/api/v1/runs"].post.responses["413"]);
  assert.match(
    doc.body.paths["/api/v1/runs"].post.responses["503"].description,
    /EXTRACTION_MAX_QUEUED/,
  );
  assert.match(schemas.ExtractedBuilding.properties.tabula_absent_reason.description, /null/);
  assert.match(schemas.RunRequest.properties.heat_country.description, /tabula_absent_reason/);
  assert.ok(doc.body.paths["/api/v1/runs"].post.requestBody);

  const docs = await app.request("/api/v1/docs");
  assert.equal(docs.status, 200);
  assert.match(await docs.text(), /Building-data extraction API/);

  const cors = await app.request("/api/v1/health", { headers: { Origin: "https://evil.example" } });
  assert.equal(cors.headers.get("access-control-allow-origin"), null);
  const preflight = await app.request("/api/v1/runs", {
    method: "OPTIONS",
    headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" },
  });
  assert.equal(preflight.headers.get("access-control-allow-origin"), null);

  const unknown = await send(app, "/api/v1/nothing");
  assert.equal(unknown.status, 404);
  assert.match(unknown.body.error, /Not found/);
  const wrongMethod = await send(app, "/api/v1/runs", { method: "DELETE" });
  assert.equal(wrongMethod.status, 404);
  assert.match(wrongMethod.body.error, /Not found: DELETE/);
});

Deno.test("GET /api/v1/buildings: gzip on request, the same page; a completed run refreshes it", async () => {
  const { app, triesenRun } = await setup;
  await waitForRun(app, triesenRun);
  const path = `/api/v1/buildings?country=LI&${BOX}&limit=5`;
  const plain = await app.request(path);
  assert.equal(plain.headers.get("content-encoding"), null);
  const plainBody = await plain.json();
  const zipped = await app.request(path, { headers: { "Accept-Encoding": "gzip, br" } });
  assert.equal(zipped.status, 200, await zipped.clone().text());
  assert.equal(zipped.headers.get("content-encoding"), "gzip");
  assert.match(zipped.headers.get("vary") ?? "", /Accept-Encoding/);
  const unzipped = await new Response(
    zipped.body!.pipeThrough(new DecompressionStream("gzip")),
  ).json();
  assert.deepEqual(unzipped, plainBody);
  assert.equal(plainBody.total, 3060);

  // A second run over part of the box: its newer records answer at once (the cache is dropped).
  const before = plainBody.buildings[0];
  const res = await app.request(
    "/api/v1/runs",
    post("", {
      country: "LI",
      heat_country: "AT",
      xmin: TRIESEN[0],
      ymin: TRIESEN[1],
      xmax: TRIESEN[2],
      ymax: TRIESEN[3],
      options: { storey_height: 2.5 },
    }),
  );
  const rerun = await waitForRun(app, (await res.json()).run_id);
  assert.equal(rerun["status"], "completed", JSON.stringify(rerun));
  const after = (await (await app.request(path)).json()).buildings[0];
  assert.equal(after.id, before.id);
  assert.notEqual(after.height, before.height);
});

Deno.test("close the shared app and stores", async () => {
  const { service, osm, data } = await setup;
  await service.close();
  await osm.close();
  await data.close();
});
