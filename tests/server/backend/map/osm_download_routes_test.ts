import assert from "node:assert/strict";
import { testOsmContext } from "./_osm_context.ts";
import { listImportedRegions } from "../../../../lib/osm/osm_store.ts";
import { createRegionDownloads } from "../../../../lib/osm/download/region_download.ts";
import { openStore } from "../../../../lib/store/store.ts";
import { osmDownloadRoutes } from "../../../../server/backend/map/osm_download_routes.ts";
import {
  announceRegionImported,
  REGION_IMPORTED,
} from "../../../../server/backend/map/osm_context.ts";
import {
  crossCheckCounts,
  LIECHTENSTEIN_PBF,
  startFakeGeofabrik,
} from "../../../osm/_fake_geofabrik.ts";

interface Frame {
  type: string;
  message: string;
  bytes?: number;
  total_bytes?: number | null;
}

/** The frames of an event-stream body, read as the frontend reads them. */
async function framesOf(response: Response): Promise<Frame[]> {
  const text = await response.text();
  return text.split("\n").filter((line) => line.startsWith("data: ")).map((line) =>
    JSON.parse(line.slice(6))
  );
}

const post = (body: unknown, raw = false) => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: raw ? body as string : JSON.stringify(body),
});

const LI = { continent: "Europe", country: "Liechtenstein", region: "" };

Deno.test("osmDownloadRoutes: download, follow, re-attach, fail, refuse", async (t) => {
  const fake = await startFakeGeofabrik();
  const store = await openStore(":memory:");
  const downloadDir = await Deno.makeTempDir();
  const shutdown = new AbortController();
  const context = await testOsmContext(store, { GEOFABRIK_URL: fake.url }, {
    shutdown: shutdown.signal,
  });
  const announced: string[] = [];
  context.events.addEventListener(
    REGION_IMPORTED,
    (e) => announced.push((e as CustomEvent<string>).detail),
  );
  // The routes' own manager, built as the default is, so the test can wait for it to end.
  const downloads = createRegionDownloads({
    store,
    fetch: context.fetch,
    downloadDir,
    onImported: (path) => announceRegionImported(context, path),
    signal: shutdown.signal,
  });
  const app = osmDownloadRoutes(context, { downloadDir, downloads });
  const liechtenstein = async () =>
    (await listImportedRegions(store)).find((r) => r.region_path === "Europe/Liechtenstein");

  try {
    let firstId = "";
    let firstFrames: Frame[] = [];
    await t.step("POST streams the download to done; the region is imported", async () => {
      const response = await app.request("/api/osm/download", post(LI));
      assert.equal(response.status, 200);
      assert.match(response.headers.get("Content-Type") ?? "", /^text\/event-stream/);
      firstId = response.headers.get("X-Download-Id") ?? "";
      assert.match(firstId, /^[0-9a-f-]{36}$/);
      const text = await response.clone().text();
      assert.match(text, /^data: \{/);
      firstFrames = await framesOf(response);
      const size = (await Deno.stat(LIECHTENSTEIN_PBF)).size;
      const progress = firstFrames.filter((f) => f.type === "progress");
      assert.ok(progress.length >= 1);
      const bytes = progress.map((f) => f.bytes!);
      assert.deepEqual(bytes, [...bytes].sort((a, b) => a - b));
      assert.equal(bytes.at(-1), size);
      assert.equal(progress[0]!.total_bytes, size);
      assert.ok(firstFrames.every((f) => typeof f.message === "string"));
      assert.equal(firstFrames.at(-1)!.type, "done");
      assert.equal(firstFrames.filter((f) => f.type === "error").length, 0);

      const region = await liechtenstein();
      assert.ok(region);
      for (const [layer, n] of Object.entries(crossCheckCounts())) {
        assert.equal(region.counts[layer as keyof typeof region.counts], n, layer);
      }
      assert.deepEqual(announced, ["Europe/Liechtenstein"]);

      const view = await app.request(`/api/osm/download/${firstId}`);
      assert.equal(view.status, 200);
      const body = await view.json();
      assert.equal(body.id, firstId);
      assert.equal(body.region, "Europe/Liechtenstein");
      assert.equal(body.status, "completed");
      assert.equal(body.bytes, size);
      assert.equal(body.total_bytes, size);
      assert.equal("error" in body, false);
    });

    await t.step("GET .../stream after completion gives the full history", async () => {
      const response = await app.request(`/api/osm/download/${firstId}/stream`);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("X-Download-Id"), firstId);
      assert.deepEqual(await framesOf(response), firstFrames);
    });

    await t.step("a second POST for a running region attaches to it", async () => {
      fake.mode = "slow";
      // Names are matched without regard to case; the frontend's `region: ""` is the country.
      const [a, b] = [
        await app.request("/api/osm/download", post(LI)),
        await app.request(
          "/api/osm/download",
          post({ continent: "europe", country: "LIECHTENSTEIN" }),
        ),
      ];
      assert.equal(a.status, 200);
      assert.equal(b.status, 200);
      const id = a.headers.get("X-Download-Id");
      assert.notEqual(id, firstId);
      assert.equal(b.headers.get("X-Download-Id"), id);
      const running = await (await app.request(`/api/osm/download/${id}`)).json();
      assert.ok(["queued", "downloading"].includes(running.status), running.status);
      const [framesA, framesB] = await Promise.all([framesOf(a), framesOf(b)]);
      assert.deepEqual(framesA, framesB);
      assert.equal(framesA.at(-1)!.type, "done");
      assert.ok(framesA.filter((f) => f.type === "progress").length >= 3);
    });

    const before = await liechtenstein();
    for (
      const [mode, pattern] of [["wrong-checksum", /Checksum mismatch/], [
        "broken",
        /broke off/,
      ]] as const
    ) {
      await t.step(`${mode}: an error frame, status failed, the data stays`, async () => {
        fake.mode = mode;
        const response = await app.request("/api/osm/download", post(LI));
        assert.equal(response.status, 200);
        const frames = await framesOf(response);
        const last = frames.at(-1)!;
        assert.equal(last.type, "error");
        assert.match(last.message, pattern);
        const id = response.headers.get("X-Download-Id");
        const view = await (await app.request(`/api/osm/download/${id}`)).json();
        assert.equal(view.status, "failed");
        assert.equal(view.error, last.message);
        assert.deepEqual(await liechtenstein(), before);
        const rows = await store.all<{ n: bigint }>(
          `SELECT count(*) AS n FROM power_plants WHERE region_path = 'Europe/Liechtenstein'`,
        );
        assert.equal(Number(rows[0]!.n), crossCheckCounts().power_plants);
      });
    }

    await t.step("400 naming the field, for every bad body", async (t) => {
      const cases: [string, string | object, RegExp][] = [
        ["not JSON", "{continent:", /JSON/i],
        ["an array", [], /request body/],
        ["continent missing", { country: "Liechtenstein" }, /continent/],
        ["country missing", { continent: "Europe" }, /country/],
        ["country not a string", { continent: "Europe", country: 7 }, /country/],
        [
          "continent with a slash",
          { continent: "Europe/x", country: "Liechtenstein" },
          /continent/,
        ],
        ["country with <", { continent: "Europe", country: "<script>" }, /country/],
        ["country too long", { continent: "Europe", country: "a".repeat(81) }, /country/],
        ["region with a dot", { ...LI, region: "../etc" }, /region/],
        ["continent blank", { continent: "  ", country: "Liechtenstein" }, /continent/],
      ];
      for (const [name, body, pattern] of cases) {
        await t.step(name, async () => {
          const response = await app.request(
            "/api/osm/download",
            post(body, typeof body === "string"),
          );
          assert.equal(response.status, 400);
          assert.match((await response.json()).error, pattern);
        });
      }
    });

    await t.step("415 for a body that is not sent as JSON", async () => {
      const response = await app.request("/api/osm/download", {
        method: "POST",
        headers: { "Content-Type": "text/plain" },
        body: JSON.stringify(LI),
      });
      assert.equal(response.status, 415);
    });

    await t.step("letters of any script are valid: Baden-Württemberg is found", async () => {
      fake.mode = "missing"; // the fake serves Liechtenstein only: this download fails at once
      const response = await app.request(
        "/api/osm/download",
        post({ continent: "Europe", country: "Germany", region: "Baden-Württemberg" }),
      );
      assert.equal(response.status, 200);
      const frames = await framesOf(response);
      assert.match(frames.at(-1)!.message, /HTTP 404/);
    });

    await t.step("404 for an unknown region or download id", async () => {
      const region = await app.request(
        "/api/osm/download",
        post({ continent: "Europe", country: "Atlantis", region: "" }),
      );
      assert.equal(region.status, 404);
      assert.match((await region.json()).error, /Europe\/Atlantis/);
      for (const path of ["/api/osm/download/nope", "/api/osm/download/nope/stream"]) {
        const response = await app.request(path);
        assert.equal(response.status, 404, path);
        assert.match((await response.json()).error, /nope/);
      }
    });

    await t.step("the OpenAPI document describes every route and error", () => {
      const doc = app.getOpenAPIDocument({
        openapi: "3.0.0",
        info: { title: "t", version: "1" },
      });
      const start = doc.paths?.["/api/osm/download"]?.post;
      assert.deepEqual(Object.keys(start?.responses ?? {}).sort(), [
        "200",
        "400",
        "404",
        "415",
        "503",
      ]);
      assert.ok(doc.paths?.["/api/osm/download/{id}"]?.get?.responses?.["404"]);
      assert.ok(doc.paths?.["/api/osm/download/{id}/stream"]?.get?.responses?.["404"]);
    });
  } finally {
    shutdown.abort();
    await downloads.close();
    await fake.close();
    await store.close();
    await Deno.remove(downloadDir, { recursive: true });
  }
});

Deno.test("osmDownloadRoutes: the service's stop ends the stream and fails the download", async () => {
  const fake = await startFakeGeofabrik();
  fake.mode = "slow";
  fake.slowMs = 10_000;
  const store = await openStore(":memory:");
  const downloadDir = await Deno.makeTempDir();
  const shutdown = new AbortController();
  const context = await testOsmContext(store, { GEOFABRIK_URL: fake.url }, {
    shutdown: shutdown.signal,
  });
  // The default manager: built by the routes over the context, stopped by its signal.
  const app = osmDownloadRoutes(context, { downloadDir });
  try {
    const response = await app.request("/api/osm/download", post(LI));
    const id = response.headers.get("X-Download-Id");
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes('"type":"progress"')) text += (await reader.read()).value ?? "";
    shutdown.abort();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      text += chunk.value;
    }
    const last = text.trim().split("\n").at(-1)!;
    assert.equal(JSON.parse(last.slice(6)).type, "error");
    // The download itself fails with the stop; its temporary file goes.
    let view = await (await app.request(`/api/osm/download/${id}`)).json();
    for (let i = 0; i < 100 && view.status !== "failed"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      view = await (await app.request(`/api/osm/download/${id}`)).json();
    }
    assert.equal(view.status, "failed");
    assert.match(view.error, /stopping/);
    for (let i = 0; i < 100 && (await Array.fromAsync(Deno.readDir(downloadDir))).length; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.deepEqual(await Array.fromAsync(Deno.readDir(downloadDir)), []);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const refused = await app.request("/api/osm/download", post(LI));
    assert.equal(refused.status, 503);
  } finally {
    shutdown.abort();
    await fake.close();
    await store.close();
    await Deno.remove(downloadDir, { recursive: true });
  }
});

Deno.test("osmDownloadRoutes: 503 beyond OSM_DOWNLOADS_MAX; the first-byte deadline ends a silent server (issue 18)", async () => {
  const fake = await startFakeGeofabrik();
  fake.mode = "hang";
  const store = await openStore(":memory:");
  const downloadDir = await Deno.makeTempDir();
  const shutdown = new AbortController();
  // The default manager takes its bounds from the settings.
  const context = await testOsmContext(store, {
    GEOFABRIK_URL: fake.url,
    OSM_DOWNLOADS_MAX: "1",
    OSM_DOWNLOAD_FIRST_BYTE_S: "0.3",
  }, { shutdown: shutdown.signal });
  const app = osmDownloadRoutes(context, { downloadDir });
  const bayern = { continent: "Europe", country: "Germany", region: "Bayern" };
  try {
    const first = await app.request("/api/osm/download", post(LI));
    assert.equal(first.status, 200);
    const id = first.headers.get("X-Download-Id");
    const refused = await app.request("/api/osm/download", post(bayern));
    assert.equal(refused.status, 503);
    assert.match(refused.headers.get("Content-Type") ?? "", /application\/json/);
    assert.match(
      (await refused.json()).error,
      /1 download\(s\) are running, at most 1 at once \(OSM_DOWNLOADS_MAX\)/,
    );
    const attached = await app.request("/api/osm/download", post(LI));
    assert.equal(attached.status, 200);
    assert.equal(attached.headers.get("X-Download-Id"), id);
    const started = performance.now();
    const frames = await framesOf(first);
    await attached.body?.cancel();
    assert.ok(performance.now() - started < 3000);
    assert.match(frames.at(-1)!.message, /within 0\.3 s \(OSM_DOWNLOAD_FIRST_BYTE_S\)/);
    // The slot is free again.
    fake.mode = "missing";
    const next = await app.request("/api/osm/download", post(bayern));
    assert.equal(next.status, 200);
    assert.match((await framesOf(next)).at(-1)!.message, /HTTP 404/);
  } finally {
    shutdown.abort();
    await fake.close();
    await store.close();
    await Deno.remove(downloadDir, { recursive: true });
  }
});
