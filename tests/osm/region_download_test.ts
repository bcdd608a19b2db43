import assert from "node:assert/strict";
import { type ImportedRegion, listImportedRegions } from "../../lib/osm/osm_store.ts";
import {
  createRegionDownloads,
  type DownloadFrame,
  parseMd5File,
  type RegionDownloads,
  STOPPED_MESSAGE,
} from "../../lib/osm/region_download.ts";
import { loadRegionsDb, type Region } from "../../lib/osm/regions_db.ts";
import { openStore, type Store } from "../../lib/store/store.ts";
import { GEO_DATA } from "../../server/backend/osm_routes.ts";
import {
  crossCheckCounts,
  type FakeGeofabrik,
  LIECHTENSTEIN_PBF,
  startFakeGeofabrik,
} from "./_fake_geofabrik.ts";

interface Setup {
  fake: FakeGeofabrik;
  store: Store;
  dir: string;
  region: Region;
  imported: string[];
  downloads: RegionDownloads;
  stop: AbortController;
}

async function setup(): Promise<Setup> {
  const fake = await startFakeGeofabrik();
  const store = await openStore(":memory:");
  const dir = await Deno.makeTempDir();
  const regions = await loadRegionsDb(GEO_DATA.geofabrikIndex, fake.url);
  const region = regions.findRegion("europe/liechtenstein")!;
  const imported: string[] = [];
  const stop = new AbortController();
  const downloads = createRegionDownloads({
    store,
    fetch: globalThis.fetch,
    downloadDir: dir,
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
  const bounded = createRegionDownloads({
    store: s.store,
    fetch: globalThis.fetch,
    downloadDir: s.dir,
    maxFinished: 1,
  });
  const expiring = createRegionDownloads({
    store: s.store,
    fetch: globalThis.fetch,
    downloadDir: s.dir,
    keepFinishedMs: 0,
  });
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
