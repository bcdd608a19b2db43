import assert from "node:assert/strict";
import { DEFAULT_EXTRACTION_OPTIONS } from "../../lib/extraction/building_record.ts";
import {
  ExtractionRuns,
  NO_REGION_REASON,
  RunsClosedError,
  STOPPED_BEFORE_START,
} from "../../lib/extraction/extraction_runs.ts";
import { RunStore } from "../../lib/extraction/run_store.ts";
import { openStore, type Store } from "../../lib/store/store.ts";
import { dataStorePath, importLiechtenstein, TRIESEN } from "../server/extraction/_fixture.ts";

// Liechtenstein imported once for this file; the heat data store opened read-only once.
const stores = (async () => {
  const [osm, dataPath] = await Promise.all([importLiechtenstein(), dataStorePath()]);
  return { osm, data: await openStore(dataPath, { readOnly: true }) };
})();

/** A box inside Liechtenstein's extent without a building (mountains east of Triesenberg). */
const EMPTY_INSIDE = [9.60, 47.06, 9.61, 47.07] as const;
/** A box no imported region covers. */
const OUTSIDE = [10.0, 48.0, 10.01, 48.01] as const;

async function withRuns(
  test: (runs: RunStore, manager: ExtractionRuns, osm: Store) => Promise<void>,
) {
  const { osm, data } = await stores;
  const state = await openStore(":memory:");
  const runs = new RunStore(state);
  await runs.init();
  let n = 0;
  const manager = new ExtractionRuns({
    runs,
    osmStore: osm,
    dataStore: data,
    newId: () => `run-${++n}`,
  });
  try {
    await test(runs, manager, osm);
  } finally {
    await manager.close();
    await state.close();
  }
}

const request = (bbox: readonly [number, number, number, number], heat_country?: string) => ({
  country: "LI",
  ...(heat_country !== undefined ? { heat_country } : {}),
  bbox,
  options: DEFAULT_EXTRACTION_OPTIONS,
});

Deno.test("ExtractionRuns: a run over Triesen completes with buildings, surfaces and tabula", async () => {
  await withRuns(async (runs, manager) => {
    const id = await manager.submit(request(TRIESEN, "AT"));
    assert.equal(id, "run-1");
    await manager.idle();
    const run = await runs.getRun(id);
    assert.equal(run?.status, "completed", JSON.stringify(run));
    assert.equal(run?.progress_pct, 100);
    assert.ok((run?.counts.buildings ?? 0) > 1000, `buildings ${run?.counts.buildings}`);
    assert.ok((run?.counts.surfaces ?? 0) > (run?.counts.buildings ?? 0) * 4);
    assert.ok(run?.started_at !== null && run?.finished_at !== null);
    const page = await runs.buildingsInBox("LI", TRIESEN, { limit: 5 });
    assert.equal(page.buildings.length, 5);
    const linked = page.buildings.filter((b) => b.tabula !== null);
    assert.ok(linked.length > 0);
    assert.match(linked[0]!.tabula!.variant, /^AT\./);
    assert.ok(page.buildings.every((b) => b.surfaces.some((s) => s.type === "wall")));
  });
});

Deno.test("ExtractionRuns: no building in the box, or no region covering it, ends no_data", async () => {
  await withRuns(async (runs, manager) => {
    const empty = await manager.submit(request(EMPTY_INSIDE, "AT"));
    const outside = await manager.submit(request(OUTSIDE, "AT"));
    await manager.idle();
    const a = await runs.getRun(empty), b = await runs.getRun(outside);
    assert.equal(a?.status, "no_data", JSON.stringify(a));
    assert.match(a?.reason ?? "", /no building/);
    assert.equal(a?.error, null);
    assert.equal(b?.status, "no_data");
    assert.equal(b?.reason, NO_REGION_REASON);
    assert.deepEqual(b?.counts, { buildings: 0, surfaces: 0 });
  });
});

Deno.test("ExtractionRuns: LI without heat_country fails naming the missing typology", async () => {
  await withRuns(async (runs, manager) => {
    const id = await manager.submit(request(TRIESEN));
    await manager.idle();
    const run = await runs.getRun(id);
    assert.equal(run?.status, "failed");
    assert.match(run?.error ?? "", /LI has no TABULA typology/);
    const other = await manager.submit(request(TRIESEN, "XX"));
    await manager.idle();
    assert.match((await runs.getRun(other))?.error ?? "", /heat_country XX has a TABULA typology/);
  });
});

Deno.test("ExtractionRuns: runs one at a time in order; close fails the queued and finishes the running", async () => {
  await withRuns(async (runs, manager) => {
    const first = await manager.submit(request(TRIESEN, "AT"));
    const second = await manager.submit(request(TRIESEN, "AT"));
    assert.deepEqual(manager.counts(), { queued: 1, running: 1 });
    assert.equal((await runs.getRun(second))?.status, "queued");
    await manager.close();
    assert.equal((await runs.getRun(first))?.status, "completed");
    const stopped = await runs.getRun(second);
    assert.deepEqual([stopped?.status, stopped?.error], ["failed", STOPPED_BEFORE_START]);
    await assert.rejects(manager.submit(request(TRIESEN, "AT")), RunsClosedError);
    assert.deepEqual(manager.counts(), { queued: 0, running: 0 });
  });
});

Deno.test("ExtractionRuns: a store failure fails the run with its message", async () => {
  const { data } = await stores;
  const state = await openStore(":memory:");
  const runs = new RunStore(state);
  await runs.init();
  const broken = await openStore(":memory:");
  await broken.close(); // every read now fails
  const manager = new ExtractionRuns({ runs, osmStore: broken, dataStore: data });
  try {
    const id = await manager.submit(request(TRIESEN, "AT"));
    await manager.idle();
    const run = await runs.getRun(id);
    assert.equal(run?.status, "failed");
    assert.match(run?.error ?? "", /close/i);
  } finally {
    await manager.close();
    await state.close();
  }
});

Deno.test("close the shared stores", async () => {
  const { osm, data } = await stores;
  await osm.close();
  await data.close();
});
