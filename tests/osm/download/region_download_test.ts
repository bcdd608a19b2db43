import assert from "node:assert/strict";
import { type ImportedRegion, listImportedRegions } from "../../../lib/osm/osm_store.ts";
import {
  createRegionDownloads,
  type DownloadFrame,
  DownloadsBusyError,
  FIRST_BYTE_TIMEOUT_MS,
  INTERRUPTED_BY_RESTART,
  MAX_DOWNLOAD_BYTES,
  MAX_RUNNING,
  type RegionDownloadOptions,
  type RegionDownloads,
  removeLeftovers,
  STALL_TIMEOUT_MS,
  STOPPED_MESSAGE,
} from "../../../lib/osm/download/region_download.ts";
import { parseMd5File } from "../../../lib/osm/download/extract_checksum.ts";
import { loadRegionsDb, type Region } from "../../../lib/osm/regions_db.ts";
import { openStore, type Store } from "../../../lib/store/store.ts";
import { GEO_DATA } from "../../../server/backend/map/osm_routes.ts";
import {
  crossCheckCounts,
  type FakeGeofabrik,
  LIECHTENSTEIN_PBF,
  startFakeGeofabrik,
} from "../_fake_geofabrik.ts";
import { corruptExtracts } from "../_corrupt_pbf.ts";
import { within } from "../../_within.ts";

interface Setup {
  fake: FakeGeofabrik;
  store: Store;
  dir: string;
  region: Region;
  imported: string[];
  downloads: RegionDownloads;
  stop: AbortController;
}

/** A manager over `store` with the real fetch, its files in `dir`; `extra` adds options. */
function downloadsIn(
  store: Store,
  dir: string,
  extra: Omit<RegionDownloadOptions, "store" | "fetch" | "downloadDir"> = {},
): RegionDownloads {
  return createRegionDownloads({ store, fetch: globalThis.fetch, downloadDir: dir, ...extra });
}

async function setup(): Promise<Setup> {
  const fake = await startFakeGeofabrik();
  const store = await openStore(":memory:");
  const dir = await Deno.makeTempDir();
  const regions = await loadRegionsDb(GEO_DATA.geofabrikIndex, fake.url);
  const region = regions.findRegion("europe/liechtenstein")!;
  const imported: string[] = [];
  const stop = new AbortController();
  const downloads = downloadsIn(store, dir, {
    onImported: (path) => imported.push(path),
    signal: stop.signal,
  });
  return { fake, store, dir, region, imported, downloads, stop };
}

async function teardown(s: Setup) {
  await s.downloads.close();
  await s.fake.close();
  await s.store.close();
  await Deno.remove(s.dir, { recursive: true });
}

async function dirEntries(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name);
}

async function liechtenstein(store: Store): Promise<ImportedRegion | undefined> {
  return (await listImportedRegions(store)).find((r) => r.region_path === "Europe/Liechtenstein");
}

Deno.test("parseMd5File reads Geofabrik's `<hash>  <file>` and refuses anything else", () => {
  const hash = "d41d8cd98f00b204e9800998ecf8427e";
  assert.equal(parseMd5File(`${hash.toUpperCase()}  liechtenstein-latest.osm.pbf\n`), hash);
  assert.throws(() => parseMd5File("<html>not found</html>"), SyntaxError);
  assert.throws(() => parseMd5File(""), SyntaxError);
});

Deno.test("createRegionDownloads: download, verify, import; failures keep the data", async (t) => {
  const s = await setup();
  try {
    await t.step("a correct download imports the cross-check's layers", async () => {
      const { download, attached } = s.downloads.start(s.region);
      assert.equal(attached, false);
      assert.match(download.id, /^[0-9a-f-]{36}$/);
      const live: DownloadFrame[] = [];
      download.subscribe((f) => live.push(f));
      await download.finished;
      const view = download.view();
      assert.equal(view.status, "completed", view.error ?? "");
      assert.equal(view.region, "Europe/Liechtenstein");
      const size = (await Deno.stat(LIECHTENSTEIN_PBF)).size;
      assert.equal(view.bytes, size);
      assert.equal(view.total_bytes, size);
      assert.ok(view.finished_at);
      assert.deepEqual(live, download.history());
      const progress = live.filter((f) => f.type === "progress");
      assert.ok(progress.length >= 1);
      const bytes = progress.map((f) => f.bytes as number);
      assert.deepEqual(bytes, [...bytes].sort((a, b) => a - b));
      assert.equal(bytes.at(-1), size);
      assert.ok(live.some((f) => f.type === "log" && /checksum verified/.test(f.message)));
      assert.equal(live.at(-1)!.type, "done");
      assert.equal(live.filter((f) => f.type === "done" || f.type === "error").length, 1);
      assert.deepEqual(s.imported, ["Europe/Liechtenstein"]);
      const region = await liechtenstein(s.store);
      assert.equal(region?.source_url, `${s.fake.url}/europe/liechtenstein-latest.osm.pbf`);
      for (const [layer, n] of Object.entries(crossCheckCounts())) {
        assert.equal(region?.counts[layer as keyof ImportedRegion["counts"]], n, layer);
      }
      assert.deepEqual(await dirEntries(s.dir), []);
      assert.equal(s.downloads.get(download.id), download);
    });

    const before = await liechtenstein(s.store);
    for (
      const [mode, pattern] of [
        ["wrong-checksum", /Checksum mismatch/],
        ["broken", /broke off/],
        ["missing", /HTTP 404/],
      ] as const
    ) {
      await t.step(`${mode}: failed with an error frame, the previous data stays`, async () => {
        s.fake.mode = mode;
        const { download } = s.downloads.start(s.region);
        await download.finished;
        const view = download.view();
        assert.equal(view.status, "failed");
        assert.match(view.error ?? "", pattern);
        const last = download.history().at(-1)!;
        assert.equal(last.type, "error");
        assert.equal(last.message, view.error);
        assert.deepEqual(await liechtenstein(s.store), before);
        assert.deepEqual(await dirEntries(s.dir), []);
        const rows = await s.store.all<{ n: bigint | number }>(
          `SELECT count(*) AS n FROM substations WHERE region_path = 'Europe/Liechtenstein'`,
        );
        assert.equal(Number(rows[0]!.n), crossCheckCounts().substations);
      });
    }

    await t.step("no .md5 offered: says so, imports anyway", async () => {
      s.fake.mode = "no-md5";
      const { download } = s.downloads.start(s.region);
      await download.finished;
      assert.equal(download.view().status, "completed", download.view().error ?? "");
      assert.ok(download.history().some((f) => /no checksum offered/.test(f.message)));
    });

    await t.step("a second start while one runs attaches to it", async () => {
      s.fake.mode = "slow";
      const first = s.downloads.start(s.region);
      const second = s.downloads.start({ ...s.region, path: "europe/LIECHTENSTEIN" });
      assert.equal(second.attached, true);
      assert.equal(second.download, first.download);
      await first.download.finished;
      assert.equal(first.download.view().status, "completed", first.download.view().error ?? "");
      const progress = first.download.history().filter((f) => f.type === "progress");
      assert.ok(progress.length >= 3, `${progress.length} progress frames`);
      assert.ok(progress.length <= 30, `${progress.length} progress frames`);
      s.fake.mode = "missing";
      const third = s.downloads.start(s.region);
      assert.equal(third.attached, false);
      await third.download.finished;
    });

    await t.step("the service's stop fails a running download", async () => {
      s.fake.mode = "slow";
      s.fake.slowMs = 5000;
      const { download } = s.downloads.start(s.region);
      await new Promise((resolve) => setTimeout(resolve, 300));
      s.stop.abort();
      await download.finished;
      assert.equal(download.view().status, "failed");
      assert.equal(download.view().error, STOPPED_MESSAGE);
      assert.deepEqual(await dirEntries(s.dir), []);
    });
  } finally {
    await teardown(s);
  }
});

Deno.test("createRegionDownloads keeps finished downloads within maxFinished and keepFinishedMs", async () => {
  const s = await setup();
  s.fake.mode = "missing";
  const bounded = downloadsIn(s.store, s.dir, { maxFinished: 1 });
  const expiring = downloadsIn(s.store, s.dir, { keepFinishedMs: 0 });
  try {
    const first = bounded.start(s.region).download;
    await first.finished;
    assert.equal(bounded.get(first.id), first);
    const second = bounded.start(s.region).download;
    await second.finished;
    assert.equal(bounded.get(second.id), second);
    assert.equal(bounded.get(first.id), undefined);

    const gone = expiring.start(s.region).download;
    assert.equal(expiring.get(gone.id), gone, "kept while it runs");
    await gone.finished;
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(expiring.get(gone.id), undefined);
  } finally {
    await bounded.close();
    await expiring.close();
    await teardown(s);
  }
});

Deno.test("createRegionDownloads: a corrupt extract fails with the parser's message; the process lives on (issue 18)", async (t) => {
  // Before the fix the parser threw from a stream callback: an uncaught error that ended the
  // process (here: the test runner). Any such error is recorded and fails the test.
  const uncaught: unknown[] = [];
  const onError = (e: ErrorEvent) => {
    e.preventDefault();
    uncaught.push(e.error);
  };
  const onRejection = (e: PromiseRejectionEvent) => {
    e.preventDefault();
    uncaught.push(e.reason);
  };
  globalThis.addEventListener("error", onError);
  globalThis.addEventListener("unhandledrejection", onRejection);
  const s = await setup();
  try {
    for (const [name, bytes] of Object.entries(corruptExtracts())) {
      for (const md5 of ["no-md5", "correct"] as const) {
        await t.step(`${name}, ${md5 === "correct" ? "matching .md5" : "no .md5"}`, async () => {
          s.fake.extract = bytes;
          s.fake.mode = md5;
          const { download } = s.downloads.start(s.region);
          await within(download.finished, 30_000, "the download");
          const view = download.view();
          assert.equal(view.status, "failed");
          assert.match(
            view.error ?? "",
            /^Import of Europe\/Liechtenstein failed: not a valid OSM PBF file: /,
          );
          assert.doesNotMatch(view.error ?? "", new RegExp(s.dir));
          assert.deepEqual(download.history().at(-1), { type: "error", message: view.error });
          assert.deepEqual(await dirEntries(s.dir), []);
          assert.deepEqual(s.imported, []);
          assert.deepEqual(uncaught, []);
        });
      }
    }
  } finally {
    globalThis.removeEventListener("error", onError);
    globalThis.removeEventListener("unhandledrejection", onRejection);
    await teardown(s);
  }
});

Deno.test("createRegionDownloads removes the temporary files a killed process left (issue 18)", async () => {
  const dir = await Deno.makeTempDir();
  const store = await openStore(":memory:");
  try {
    for (const name of ["region-a1b2.osm.pbf", "region-zz.osm.pbf", "notes.txt", "region.txt"]) {
      await Deno.writeTextFile(`${dir}/${name}`, "partial");
    }
    const logged: string[] = [];
    const downloads = downloadsIn(store, dir, { log: (m) => logged.push(m) });
    assert.deepEqual((await dirEntries(dir)).sort(), ["notes.txt", "region.txt"]);
    assert.match(logged[0]!, /removed 2 unfinished download/);
    await downloads.close();
    assert.deepEqual(removeLeftovers(`${dir}/missing`), []);
  } finally {
    await store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("createRegionDownloads: deadlines for the first byte and a stalled body (issue 18)", async (t) => {
  assert.equal(FIRST_BYTE_TIMEOUT_MS, 30_000);
  assert.equal(STALL_TIMEOUT_MS, 60_000);
  const s = await setup();
  const downloads = downloadsIn(s.store, s.dir, { firstByteTimeoutMs: 300, stallTimeoutMs: 400 });
  try {
    for (
      const [mode, pattern] of [
        ["hang", /^No answer from http:\S+\.osm\.pbf within 0\.3 s \(OSM_DOWNLOAD_FIRST_BYTE_S\)$/],
        ["stall", /stalled: no data for 0\.4 s after \d+ bytes \(OSM_DOWNLOAD_STALL_S\)$/],
        ["hang-md5", /^No answer from http:\S+\.md5 within 0\.3 s \(OSM_DOWNLOAD_FIRST_BYTE_S\)$/],
      ] as const
    ) {
      await t.step(
        `${mode}: failed within the deadline, the next start begins afresh`,
        async () => {
          s.fake.mode = mode;
          const started = performance.now();
          const { download } = downloads.start(s.region);
          // Before the fix the download waited for the server as long as it liked.
          await within(download.finished, 5000, "the download");
          const took = performance.now() - started;
          assert.equal(download.view().status, "failed");
          assert.match(download.view().error ?? "", pattern);
          assert.ok(took < 3000, `${took.toFixed(0)} ms`);
          assert.deepEqual(await dirEntries(s.dir), []);
          s.fake.mode = "missing";
          const next = downloads.start(s.region);
          assert.equal(next.attached, false);
          await next.download.finished;
        },
      );
    }
  } finally {
    await downloads.close();
    await teardown(s);
  }
});

Deno.test("createRegionDownloads: an extract over maxBytes fails naming OSM_DOWNLOAD_MAX_MB (issue 18)", async (t) => {
  const s = await setup();
  const downloads = downloadsIn(s.store, s.dir, { maxBytes: 1024 * 1024 });
  try {
    assert.equal(MAX_DOWNLOAD_BYTES, 8 * 1024 ** 3);
    for (
      const [mode, pattern] of [
        ["correct", /is 2\.8 MB, over the limit of 1\.0 MB \(OSM_DOWNLOAD_MAX_MB\)$/],
        ["no-length", /passed 1\.0 MB, over the limit of 1\.0 MB \(OSM_DOWNLOAD_MAX_MB\)$/],
      ] as const
    ) {
      await t.step(mode === "correct" ? "by Content-Length" : "by counting", async () => {
        s.fake.mode = mode;
        const { download } = downloads.start(s.region);
        await within(download.finished, 10_000, "the download");
        const view = download.view();
        assert.equal(view.status, "failed");
        assert.match(view.error ?? "", pattern);
        if (mode === "correct") assert.equal(view.bytes, 0);
        else assert.ok(view.bytes <= 1024 * 1024 + 65536, `${view.bytes} bytes`);
        assert.deepEqual(await dirEntries(s.dir), []);
        assert.deepEqual(s.imported, []);
      });
    }
  } finally {
    await downloads.close();
    await teardown(s);
  }
});

Deno.test("createRegionDownloads: at most maxRunning downloads at once; attaching always works (issue 18)", async () => {
  const s = await setup();
  const regions = await loadRegionsDb(GEO_DATA.geofabrikIndex, s.fake.url);
  const downloads = downloadsIn(s.store, s.dir, { maxRunning: 1 });
  try {
    assert.equal(MAX_RUNNING, 2);
    s.fake.mode = "hang";
    const first = downloads.start(s.region);
    assert.equal(downloads.start(s.region).download, first.download);
    const bayern = regions.findRegion("Europe/Germany/Bayern")!;
    assert.throws(
      () => downloads.start(bayern),
      (e) =>
        e instanceof DownloadsBusyError &&
        /1 download\(s\) are running, at most 1 at once \(OSM_DOWNLOADS_MAX\)/.test(e.message),
    );
    await downloads.close();
    assert.equal(first.download.view().status, "failed");
  } finally {
    await downloads.close();
    await teardown(s);
  }
});

// Issue 19: the downloads are kept in the OSM store with the engine's restart rule.
Deno.test("a restart reads a download left running as failed and a finished one as it ended", async () => {
  const s = await setup();
  const later = downloadsIn(s.store, s.dir);
  try {
    s.fake.mode = "missing";
    const ended = s.downloads.start(s.region).download;
    await ended.finished;
    const endedView = ended.view();
    s.fake.mode = "slow";
    s.fake.slowMs = 5000;
    // A process that stops without ending its download: the manager is left as it is.
    const left = s.downloads.start(s.region).download;
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(left.view().status, "downloading");

    assert.equal(later.get(left.id), undefined, "unknown before its restore");
    assert.equal(await later.restore(), 1);
    const interrupted = later.get(left.id)!.view();
    assert.equal(interrupted.status, "failed");
    assert.equal(interrupted.error, INTERRUPTED_BY_RESTART);
    assert.ok(interrupted.finished_at !== null);
    const again = later.get(ended.id)!;
    assert.deepEqual(again.view(), endedView, "a finished download reads as it ended");
    assert.deepEqual(again.history(), [{ type: "error", message: endedView.error }]);
    assert.deepEqual(again.history(), [ended.history().at(-1)], "the frame that ended it, as sent");
  } finally {
    s.fake.slowMs = 0;
    await later.close();
    await teardown(s);
  }
});
