import assert from "node:assert/strict";
import { createDuckDbScraperRepository } from "../../lib/scraper/duckdb_repository.ts";
import { startSchedule } from "../../lib/scraper/schedule.ts";
import { buildScraperStatus } from "../../lib/scraper/status.ts";
import { openStore } from "../../lib/store/store.ts";

Deno.test("buildScraperStatus() reports schedule, sources, pending count and the last run", async () => {
  const store = await openStore(":memory:");
  try {
    const repository = await createDuckDbScraperRepository(store);
    assert.deepEqual(
      await buildScraperStatus({ repository, enabledSources: ["openalex", "arxiv"] }),
      {
        scheduler_running: false,
        next_run: null,
        enabled_sources: ["openalex", "arxiv"],
        pending_candidates: 0,
        last_run: null,
      },
    );

    await repository.createRun({
      run_id: "r1",
      started_at: "2024-05-01T12:00:00.000Z",
      sources: ["openalex"],
      technology_ids: ["pem_electrolyzer"],
    });
    await repository.finishRun({
      run_id: "r1",
      started_at: "2024-05-01T12:00:00.000Z",
      finished_at: "2024-05-01T12:00:09.000Z",
      status: "completed",
      total_papers: 6,
      candidates_created: 1,
      errors: [],
    });
    await repository.insertCandidate({
      id: "c1",
      run_id: "r1",
      technology_id: "pem_electrolyzer",
      paper: { source: "arxiv", source_id: "2301.01234", title: "t", url: "u" },
      extracted: {
        parameter: "efficiency",
        value: 62,
        unit: "%",
        matched_text: "efficiency of 62 %",
        confidence: 0.6,
      },
      extractor: "pattern",
      created_at: "2024-05-01T12:00:05.000Z",
    });
    const schedule = startSchedule({ intervalMs: 3_600_000, run: () => Promise.resolve() });
    try {
      const status = await buildScraperStatus({
        repository,
        schedule,
        enabledSources: ["openalex"],
      });
      assert.equal(status.scheduler_running, true);
      assert.equal(status.next_run, schedule.nextRun()?.toISOString());
      assert.equal(status.pending_candidates, 1);
      assert.deepEqual(status.last_run, {
        run_id: "r1",
        started_at: "2024-05-01T12:00:00.000Z",
        status: "completed",
        total_papers: 6,
        candidates_created: 1,
      });
    } finally {
      await schedule.stop();
    }
  } finally {
    await store.close();
  }
});
