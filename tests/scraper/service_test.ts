import assert from "node:assert/strict";
import { ScraperConfigSchema } from "../../lib/scraper/config.ts";
import { createDuckDbScraperRepository } from "../../lib/scraper/duckdb_repository.ts";
import type { ScraperRepository } from "../../lib/scraper/repository.ts";
import { createScraperService } from "../../lib/scraper/service.ts";
import { openStore } from "../../lib/store/store.ts";
import { type FakeSources, startFakeSources } from "./_sources.ts";

async function withService(
  config: Record<string, unknown>,
  test: (
    service: Awaited<ReturnType<typeof createScraperService>>,
    sources: FakeSources,
    repository: ScraperRepository,
  ) => Promise<void>,
  before?: (repository: ScraperRepository) => Promise<void>,
): Promise<void> {
  const store = await openStore(":memory:");
  const sources = await startFakeSources();
  try {
    const repository = await createDuckDbScraperRepository(store);
    await before?.(repository);
    const service = await createScraperService({
      repository,
      config: ScraperConfigSchema.parse({
        base_urls: {
          openalex: `${sources.server.url}/openalex`,
          crossref: `${sources.server.url}/crossref`,
          arxiv: `${sources.server.url}/arxiv`,
        },
        technology_ids: ["pem_electrolyzer"],
        timeout_ms: 2_000,
        request_interval_ms: { arxiv: 0 },
        ...config,
      }),
    });
    try {
      await test(service, sources, repository);
    } finally {
      await service.close();
    }
  } finally {
    await sources.close();
    await store.close();
  }
}

Deno.test("ScraperService.run({ wait: true }) returns the summary; status shows it", async () => {
  await withService({}, async (service) => {
    const before = await service.status();
    assert.deepEqual(before, {
      scheduler_running: false,
      next_run: null,
      enabled_sources: ["openalex", "crossref", "arxiv"],
      pending_candidates: 0,
      last_run: null,
    });
    const result = await service.run({ wait: true });
    assert.equal(result.kind, "finished");
    const summary = result.kind === "finished" ? result.summary : undefined;
    assert.equal(summary?.status, "completed");
    assert.equal(summary?.candidates_created, 6);
    const after = await service.status();
    assert.equal(after.pending_candidates, 6);
    assert.deepEqual(after.last_run, {
      run_id: summary?.run_id,
      started_at: summary?.started_at,
      status: "completed",
      total_papers: 6,
      candidates_created: 6,
    });
  });
});

Deno.test("ScraperService.run() starts in the background and refuses a second run meanwhile", async () => {
  await withService({ timeout_ms: 1_000 }, async (service, sources, repository) => {
    sources.set("arxiv", "hang");
    const first = await service.run();
    assert.equal(first.kind, "started");
    const run_id = first.kind === "started" ? first.run_id : "";
    assert.equal((await service.status()).last_run?.status, "running");
    assert.deepEqual(await service.run({ wait: true }), { kind: "busy", run_id });
    await service.close();
    assert.equal((await repository.getRun(run_id))?.status, "partial");
    // Once the run has ended a new one may start.
    sources.set("arxiv", "ok");
    assert.equal((await service.run({ wait: true })).kind, "finished");
  });
});

Deno.test("ScraperService.run() checks sources and technologies of the request", async () => {
  await withService({ sources: ["openalex"] }, async (service, sources) => {
    await assert.rejects(service.run({ sources: ["crossref"] }), /\[crossref\] are not enabled/);
    await assert.rejects(service.run({ sources: [] }), RangeError);
    await assert.rejects(service.run({ technology_ids: [] }), RangeError);
    const result = await service.run({ wait: true, technology_ids: ["lithium_ion_bess"] });
    assert.equal(result.kind === "finished" && result.summary.candidates_created, 4);
    assert.equal(sources.count("crossref"), 0);
    assert.deepEqual(
      (await service.listCandidates({ technology_id: "lithium_ion_bess" })).map((c) => c.source),
      ["openalex", "openalex", "openalex", "openalex"],
    );
  });
});

Deno.test("ScraperService reviews candidates: approve merges, reject archives", async () => {
  await withService({}, async (service) => {
    await service.run({ wait: true });
    const [first, second] = await service.listCandidates({ status: "pending" });
    assert.ok(first && second);
    const merged: string[] = [];
    const approved = await service.approve(first.id, (technology_id, instance) => {
      merged.push(`${technology_id}/${instance.instance_id}`);
      return Promise.resolve();
    });
    assert.equal(approved.ok, true);
    assert.deepEqual(merged, [
      `pem_electrolyzer/pem_electrolyzer-scraper-${first.id.replaceAll("-", "_")}`,
    ]);
    const rejected = await service.reject(second.id);
    assert.equal(rejected.ok && rejected.candidate.status, "rejected");
    assert.equal((await service.getCandidate(second.id))?.status, "rejected");
    assert.equal((await service.status()).pending_candidates, 4);
  });
});

Deno.test("createScraperService() marks runs left running by a previous process as failed", async () => {
  await withService({}, async (_service, _sources, repository) => {
    const run = await repository.getRun("stale");
    assert.equal(run?.status, "failed");
    assert.match(run?.errors[0]?.message ?? "", /interrupted/);
  }, async (repository) => {
    await repository.createRun({
      run_id: "stale",
      started_at: "2024-04-30T00:00:00.000Z",
      sources: ["openalex"],
      technology_ids: ["pem_electrolyzer"],
    });
  });
});

Deno.test("createScraperService() runs on the configured schedule", async () => {
  let created = 0;
  // 0.002 minutes: a run every 120 ms.
  await withService({ schedule_minutes: 0.002 }, async (service, _sources, repository) => {
    const status = await service.status();
    assert.equal(status.scheduler_running, true);
    // The first run is due one interval after the service was created.
    assert.ok(status.next_run && Date.parse(status.next_run) >= created + 120);
    const deadline = Date.now() + 5_000;
    while ((await repository.latestRun())?.status !== "completed") {
      assert.ok(Date.now() < deadline, "no scheduled run completed in time");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }, () => Promise.resolve(void (created = Date.now())));
});
