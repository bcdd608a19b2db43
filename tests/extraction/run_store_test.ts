import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type BuildingRecord,
  DEFAULT_EXTRACTION_OPTIONS,
} from "../../lib/extraction/building_record.ts";
import {
  buildingChunks,
  coveredArea,
  INTERRUPTED_BY_RESTART,
  RunStore,
} from "../../lib/extraction/run_store.ts";
import { openStore } from "../../lib/store/store.ts";

const T0 = "2026-01-01T00:00:00.000Z";

/** A small building record at `lon, lat`. */
function building(id: string, lon: number, lat: number, area = 100): BuildingRecord {
  return {
    id,
    country: "LI",
    building_type: "house",
    footprint_area: area,
    height: 6,
    height_source: "default",
    storeys: 2,
    roof_levels: 0,
    roof_shape: "flat",
    attached_neighbours: 0,
    year: null,
    centroid: [lon, lat],
    flags: { small: false, unheated_type: false, overlaps: false },
    surfaces: [{ id: `${id}/floor`, type: "floor", area, azimuth: null, tilt: 90 }],
    tabula: null,
  };
}

async function newRun(runs: RunStore, runId: string, bbox: [number, number, number, number]) {
  await runs.insertRun({
    run_id: runId,
    country: "LI",
    heat_country: "AT",
    bbox,
    options: DEFAULT_EXTRACTION_OPTIONS,
    created_at: T0,
  });
}

Deno.test("coveredArea() is the exact area of the union of boxes inside the clip", async (t) => {
  const clip = [0, 0, 10, 10] as const;
  const cases: [string, [number, number, number, number][], number][] = [
    ["none", [], 0],
    ["one inside", [[1, 1, 3, 3]], 4],
    ["the whole clip and more", [[-5, -5, 15, 15]], 100],
    ["two overlapping", [[0, 0, 6, 10], [4, 0, 10, 10]], 100],
    ["overlap counted once", [[0, 0, 4, 4], [2, 2, 6, 6]], 28],
    ["outside", [[20, 20, 30, 30]], 0],
    ["touching only", [[10, 0, 12, 10]], 0],
    ["nested", [[0, 0, 10, 5], [1, 1, 2, 2]], 50],
    ["an L from three", [[0, 0, 5, 5], [5, 0, 10, 5], [0, 5, 5, 10]], 75],
  ];
  for (const [name, boxes, want] of cases) {
    await t.step(name, () => assert.ok(Math.abs(coveredArea(boxes, clip) - want) < 1e-9));
  }
});

Deno.test("RunStore: a run goes queued -> running -> completed with its buildings", async () => {
  const runs = new RunStore(await openStore(":memory:"));
  try {
    assert.equal(await runs.init(T0), 0);
    await newRun(runs, "r1", [9.5, 47.0, 9.6, 47.1]);
    let run = await runs.getRun("r1");
    assert.equal(run?.status, "queued");
    assert.equal(run?.started_at, null);
    assert.deepEqual(run?.bbox, [9.5, 47.0, 9.6, 47.1]);
    assert.deepEqual(run?.options, DEFAULT_EXTRACTION_OPTIONS);
    await runs.markRunning("r1", T0);
    await runs.setProgress("r1", 40);
    run = await runs.getRun("r1");
    assert.equal(run?.status, "running");
    assert.equal(run?.progress_pct, 40);
    await runs.complete("r1", [building("way/1", 9.55, 47.05), building("way/2", 9.56, 47.06)], T0);
    run = await runs.getRun("r1");
    assert.equal(run?.status, "completed");
    assert.equal(run?.progress_pct, 100);
    assert.deepEqual(run?.counts, { buildings: 2, surfaces: 2 });
    assert.equal(run?.error, null);
    assert.equal((await runs.buildingById("way/2"))?.centroid[0], 9.56);
    assert.equal(await runs.buildingById("way/3"), undefined);
    assert.equal(await runs.getRun("nope"), undefined);
  } finally {
    await runs.store.close();
  }
});

Deno.test("RunStore: no_data keeps a reason, failed an error; neither has buildings", async () => {
  const runs = new RunStore(await openStore(":memory:"));
  try {
    await runs.init(T0);
    await newRun(runs, "a", [0, 0, 0.1, 0.1]);
    await newRun(runs, "b", [0, 0, 0.1, 0.1]);
    await runs.finish("a", { status: "no_data", reason: "nothing there" }, T0);
    await runs.finish("b", { status: "failed", error: "broken" }, T0);
    const a = await runs.getRun("a"), b = await runs.getRun("b");
    assert.deepEqual([a?.status, a?.reason, a?.error], ["no_data", "nothing there", null]);
    assert.deepEqual([b?.status, b?.reason, b?.error], ["failed", null, "broken"]);
    const page = await runs.buildingsInBox("LI", [-1, -1, 1, 1], { limit: 10 });
    assert.equal(page.total, 0);
  } finally {
    await runs.store.close();
  }
});

Deno.test("RunStore.buildingsInBox() pages by id, each building once with its latest run's record", async () => {
  const runs = new RunStore(await openStore(":memory:"));
  try {
    await runs.init(T0);
    await newRun(runs, "old", [9.5, 47.0, 9.6, 47.1]);
    await runs.complete("old", [
      building("way/1", 9.51, 47.01, 10),
      building("way/2", 9.52, 47.02),
      building("way/3", 9.53, 47.03),
    ], "2026-01-01T00:00:01.000Z");
    await newRun(runs, "new", [9.5, 47.0, 9.6, 47.1]);
    await runs.complete("new", [
      building("way/1", 9.51, 47.01, 99),
      building("way/4", 9.54, 47.04),
      building("way/9", 9.70, 47.04), // centroid outside the query box
    ], "2026-01-01T00:00:02.000Z");
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await runs.buildingsInBox("LI", [9.5, 47.0, 9.6, 47.1], {
        limit: 2,
        ...(after !== undefined ? { after } : {}),
      });
      assert.equal(page.total, 4);
      seen.push(...page.buildings.map((b) => b.id));
      if (page.next === null) break;
      after = page.next;
    }
    assert.deepEqual(seen, ["way/1", "way/2", "way/3", "way/4"]);
    assert.equal((await runs.buildingById("way/1"))?.footprint_area, 99, "the latest run's record");
    assert.equal((await runs.buildingsInBox("AT", [9.5, 47.0, 9.6, 47.1], { limit: 5 })).total, 0);
  } finally {
    await runs.store.close();
  }
});

Deno.test("RunStore.coverage() names the completed runs that intersect and the share they cover", async () => {
  const runs = new RunStore(await openStore(":memory:"));
  try {
    await runs.init(T0);
    await newRun(runs, "west", [9.5, 47.0, 9.6, 47.1]);
    await runs.complete("west", [building("way/1", 9.55, 47.05)], T0);
    await newRun(runs, "east", [9.6, 47.0, 9.7, 47.1]);
    await runs.complete("east", [building("way/2", 9.65, 47.05)], T0);
    await newRun(runs, "failed", [9.7, 47.0, 9.8, 47.1]);
    await runs.finish("failed", { status: "failed", error: "x" }, T0);
    const full = await runs.coverage("LI", [9.52, 47.02, 9.68, 47.08]);
    assert.deepEqual([full.covered, full.runs.map((r) => r.run_id)], [true, ["west", "east"]]);
    assert.ok(Math.abs(full.fraction - 1) < 1e-9);
    const half = await runs.coverage("LI", [9.65, 47.0, 9.75, 47.1]);
    assert.equal(half.covered, false);
    assert.ok(Math.abs(half.fraction - 0.5) < 1e-9, `fraction ${half.fraction}`);
    assert.deepEqual(half.runs.map((r) => r.run_id), ["east"]);
    const none = await runs.coverage("LI", [9.75, 47.0, 9.8, 47.1]);
    assert.deepEqual(none, { covered: false, fraction: 0, runs: [] });
    assert.equal((await runs.coverage("CH", [9.52, 47.02, 9.68, 47.08])).fraction, 0);
  } finally {
    await runs.store.close();
  }
});

Deno.test("RunStore.init() fails the runs a stopped process left queued or running", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "extraction.duckdb");
    const first = new RunStore(await openStore(path));
    await first.init(T0);
    await newRun(first, "running", [0, 0, 0.1, 0.1]);
    await first.markRunning("running", T0);
    await newRun(first, "queued", [0, 0, 0.1, 0.1]);
    await newRun(first, "done", [0, 0, 0.1, 0.1]);
    await first.complete("done", [building("way/1", 0.05, 0.05)], T0);
    await first.store.close();

    const second = new RunStore(await openStore(path));
    try {
      assert.equal(await second.init("2026-01-02T00:00:00.000Z"), 2);
      for (const id of ["running", "queued"]) {
        const run = await second.getRun(id);
        assert.equal(run?.status, "failed");
        assert.equal(run?.error, INTERRUPTED_BY_RESTART);
        assert.equal(run?.finished_at, "2026-01-02T00:00:00.000Z");
      }
      assert.equal((await second.getRun("done"))?.status, "completed");
    } finally {
      await second.store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("RunStore.completeChunks() writes records from text and from files exactly as given", async () => {
  const dir = await Deno.makeTempDir({ prefix: "run_store_chunks_" });
  const runs = new RunStore(await openStore(":memory:"));
  try {
    await runs.init();
    await newRun(runs, "r", [9.5, 47.0, 9.6, 47.1]);
    // Text outside Latin-1, and numbers that must come back as written.
    const a = { ...building("way/1", 9.5123457, 47.0000001), building_type: "Gebäude ✓" };
    const b = building("way/2", 9.55, 47.05);
    const c = building("relation/3", 9.56, 47.06);
    const [first, second] = buildingChunks([a, b, c], 2);
    assert.equal(first?.buildings, 2);
    const file = join(dir, "chunk.jsonl");
    await Deno.writeTextFile(file, second!.text);
    const before = runs.completedRuns;
    await runs.completeChunks("r", [first!, { buildings: 1, surfaces: 1, file }], T0);
    assert.equal(runs.completedRuns, before + 2, "changed before and after the commit");
    assert.deepEqual((await runs.getRun("r"))?.counts, { buildings: 3, surfaces: 3 });
    const page = await runs.buildingsInBox("LI", [9.5, 47.0, 9.6, 47.1], { limit: 10 });
    assert.deepEqual(page.texts, [c, a, b].map((x) => JSON.stringify(x)));
    assert.deepEqual(await runs.buildingById("way/1"), a);
    // The keys were read from the records: the box filter sees the centroid.
    const edge = await runs.buildingsInBox("LI", [9.5123457, 47.0000001, 9.52, 47.01], {
      limit: 10,
    });
    assert.deepEqual(edge.buildings.map((x) => x.id), ["way/1"]);
  } finally {
    await runs.store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("RunStore.prune() keeps the newest finished runs within both bounds, never one in progress (issue 18)", async () => {
  const runs = new RunStore(await openStore(":memory:"));
  try {
    await runs.init();
    const box: [number, number, number, number] = [9.5, 47.0, 9.6, 47.1];
    for (const id of ["a", "b", "c", "d", "e"]) await newRun(runs, id, box);
    await runs.complete("a", [building("way/1", 9.51, 47.01), building("way/2", 9.52, 47.02)], T0);
    await runs.finish("b", { status: "no_data", reason: "none" }, T0);
    await runs.complete("c", [building("way/3", 9.53, 47.03)], T0);
    await runs.markRunning("d", T0); // in progress: never pruned
    await runs.complete("e", [building("way/4", 9.54, 47.04), building("way/5", 9.55, 47.05)], T0);
    assert.deepEqual(await runs.prune({ runs: 10, buildings: 100 }), []);
    // At most 3 buildings: e (2) and c (1) fit; b counts as a run with none, then a does not fit.
    const before = runs.completedRuns;
    assert.deepEqual(await runs.prune({ runs: 10, buildings: 3 }), ["a"]);
    assert.equal(runs.completedRuns, before + 2);
    assert.equal(await runs.getRun("a"), undefined);
    assert.equal(await runs.buildingById("way/1"), undefined);
    // At most 2 runs: e and c.
    assert.deepEqual(await runs.prune({ runs: 2, buildings: 100 }), ["b"]);
    assert.deepEqual(
      (await runs.store.all<{ run_id: string }>(
        `SELECT run_id FROM extraction_runs ORDER BY run_id`,
      )).map((r) => r.run_id),
      ["c", "d", "e"],
    );
    // The newest finished run is kept even when it alone is over the bound.
    assert.deepEqual(await runs.prune({ runs: 1, buildings: 1 }), ["c"]);
    assert.equal((await runs.getRun("e"))?.status, "completed");
    assert.equal((await runs.getRun("d"))?.status, "running");
    const [left] = await runs.store.all<{ n: number }>(
      `SELECT count(*)::INTEGER AS n FROM run_buildings`,
    );
    assert.equal(left?.n, 2);
  } finally {
    await runs.store.close();
  }
});
