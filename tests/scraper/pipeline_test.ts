import assert from "node:assert/strict";
import { createDuckDbScraperRepository } from "../../lib/scraper/duckdb_repository.ts";
import { createPatternExtractor } from "../../lib/scraper/extract.ts";
import { createExtractors } from "../../lib/scraper/extractors.ts";
import type { Extractor } from "../../lib/scraper/parameters.ts";
import { runScraper, type ScraperRunOptions, startScraperRun } from "../../lib/scraper/pipeline.ts";
import type { ScraperRepository } from "../../lib/scraper/repository.ts";
import { SOURCE_NAMES } from "../../lib/scraper/source.ts";
import { openStore } from "../../lib/store/store.ts";
import { json, startFakeServer } from "./_fake_server.ts";
import { type FakeSources, startFakeSources } from "./_sources.ts";

async function withSetup(
  test: (
    sources: FakeSources,
    repository: ScraperRepository,
    options: ScraperRunOptions,
  ) => Promise<void>,
  timeoutMs?: number,
): Promise<void> {
  const store = await openStore(":memory:");
  const sources = await startFakeSources(timeoutMs);
  try {
    const repository = await createDuckDbScraperRepository(store);
    let tick = 0;
    const options: ScraperRunOptions = {
      sources: SOURCE_NAMES,
      technologyIds: ["pem_electrolyzer"],
      clients: sources.clients,
      repository,
      extractors: [createPatternExtractor()],
      // A clock that moves one second per call keeps timestamps distinct and ordered.
      now: () => new Date(Date.UTC(2024, 4, 1, 12, 0, tick++)),
      limit: 10,
    };
    await test(sources, repository, options);
  } finally {
    await sources.close();
    await store.close();
  }
}

Deno.test("runScraper() stores each paper's parameters for the technology once", async () => {
  await withSetup(async (sources, repository, options) => {
    const summary = await runScraper(options);
    assert.equal(summary.status, "completed");
    assert.deepEqual(summary.errors, []);
    // 3 OpenAlex + 2 Crossref + 2 arXiv papers, one of them found by two sources.
    assert.equal(summary.total_papers, 6);
    assert.equal(summary.candidates_created, 6);
    assert.equal(summary.started_at, "2024-05-01T12:00:00.000Z");
    for (const source of SOURCE_NAMES) assert.equal(sources.count(source), 1);

    const candidates = await repository.listCandidates({ technology_id: "pem_electrolyzer" });
    const found = candidates.map((c) => `${c.source}:${c.source_id} ${c.parameter}=${c.value}`);
    assert.deepEqual(found.sort(), [
      "arxiv:2301.01234 capex=1100000",
      "arxiv:2301.01234 efficiency=62",
      "openalex:W4321000001 capex=1200",
      "openalex:W4321000001 efficiency=65",
      "openalex:W4321000001 lifetime=20",
      "openalex:W4321000001 opex_fixed=2",
    ]);
    const capex = candidates.find((c) => c.source === "openalex" && c.parameter === "capex");
    assert.equal(capex?.status, "pending");
    assert.equal(capex?.run_id, summary.run_id);
    assert.equal(capex?.doi, "10.1016/j.ijhydene.2023.01.101");
    assert.equal(capex?.matched_text, "USD 1,200/kW");
    assert.equal(capex?.catalogue_value, 1200);
    assert.equal(capex?.url, "https://doi.org/10.1016/j.ijhydene.2023.01.101");
    // No exchange rate configured: the EUR figure is kept without a catalogue value.
    const euro = candidates.find((c) => c.source === "arxiv" && c.parameter === "capex");
    assert.equal(euro?.unit, "EUR/MW");
    assert.equal(euro?.catalogue_value, null);

    const latest = await repository.latestRun();
    assert.equal(latest?.status, "completed");
    assert.equal(latest?.candidates_created, 6);
  });
});

Deno.test("runScraper() run twice over the same papers stores nothing new", async () => {
  await withSetup(async (_sources, repository, options) => {
    await runScraper(options);
    const second = await runScraper(options);
    assert.equal(second.status, "completed");
    assert.equal(second.total_papers, 6);
    assert.equal(second.candidates_created, 0);
    assert.equal(await repository.countPending(), 6);
  });
});

Deno.test("runScraper() converts with the fx table and covers several technologies", async () => {
  await withSetup(async (_sources, repository, options) => {
    // A test rate, not a real one.
    const summary = await runScraper({
      ...options,
      technologyIds: ["pem_electrolyzer", "alkaline_electrolyzer", "lithium_ion_bess"],
      extractors: [createPatternExtractor({ fx: { EUR: 1.1 } })],
    });
    assert.equal(summary.status, "completed");
    const euro = (await repository.listCandidates({ technology_id: "pem_electrolyzer" }))
      .find((c) => c.source === "arxiv" && c.parameter === "capex");
    assert.equal(euro?.catalogue_field, "capex_usd_per_kw");
    assert.equal(euro?.catalogue_value, 1210);
    const alkaline = await repository.listCandidates({ technology_id: "alkaline_electrolyzer" });
    assert.deepEqual(alkaline.map((c) => [c.parameter, c.catalogue_value]).sort(), [
      ["capex", 935],
      ["efficiency", 70],
      ["lifetime", 30],
    ]);
    const battery = await repository.listCandidates({ technology_id: "lithium_ion_bess" });
    assert.deepEqual(battery.map((c) => [c.parameter, c.catalogue_field]).sort(), [
      ["capex", "capex_usd_per_kwh"],
      ["efficiency", "efficiency_percent"],
      ["lifetime", "lifetime_years"],
      ["opex_fixed", "opex_fixed_usd_per_kw_yr"],
    ]);
  });
});

Deno.test("runScraper() records a failing source and keeps the others (partial run)", async (t) => {
  const cases = [
    ["crossref", "http500", /crossref: HTTP 500/],
    ["openalex", "bad_payload", /openalex: answer is not a works list/],
    ["arxiv", "bad_payload", /arxiv: answer is not an Atom feed/],
    ["arxiv", "hang", /arxiv: no answer from .* within 1000 ms/],
  ] as const;
  for (const [source, behaviour, message] of cases) {
    await t.step(`${source} ${behaviour}`, async () => {
      await withSetup(async (sources, repository, options) => {
        sources.set(source, behaviour);
        const summary = await runScraper(options);
        assert.equal(summary.status, "partial");
        assert.equal(summary.errors.length, 1);
        assert.equal(summary.errors[0]?.source, source);
        assert.equal(summary.errors[0]?.technology_id, "pem_electrolyzer");
        assert.match(summary.errors[0]?.message ?? "", message);
        assert.ok(summary.candidates_created > 0);
        const stored = await repository.getRun(summary.run_id);
        assert.equal(stored?.status, "partial");
        assert.deepEqual(stored?.errors, summary.errors);
      }, behaviour === "hang" ? 1_000 : undefined);
    });
  }
});

Deno.test("runScraper() fails when every source fails", async () => {
  await withSetup(async (sources, _repository, options) => {
    for (const source of SOURCE_NAMES) sources.set(source, "http500");
    const summary = await runScraper(options);
    assert.equal(summary.status, "failed");
    assert.equal(summary.errors.length, 3);
    assert.equal(summary.candidates_created, 0);
  });
});

Deno.test("runScraper() records a source without a client as an error", async () => {
  await withSetup(async (_sources, _repository, options) => {
    const summary = await runScraper({
      ...options,
      clients: { openalex: options.clients.openalex! },
    });
    assert.equal(summary.status, "partial");
    assert.deepEqual(summary.errors.map((e) => e.message), [
      "crossref: no client configured",
      "arxiv: no client configured",
    ]);
  });
});

Deno.test("runScraper() keeps the pattern candidates when another extractor fails", async () => {
  await withSetup(async (_sources, _repository, options) => {
    const broken: Extractor = {
      name: "llm",
      extract: () => Promise.reject(new Error("llm: HTTP 429: rate limited")),
    };
    const summary = await runScraper({ ...options, extractors: [...options.extractors, broken] });
    assert.equal(summary.status, "partial");
    assert.equal(summary.candidates_created, 6);
    assert.deepEqual(new Set(summary.errors.map((e) => e.source)), new Set(["llm"]));
  });
});

Deno.test("runScraper() calls the language model only when a key is configured", async () => {
  const llm = startFakeServer(() =>
    json({
      id: "chatcmpl-test",
      object: "chat.completion",
      created: 1_714_000_000,
      model: "gpt-4o-mini",
      choices: [{
        index: 0,
        message: { role: "assistant", content: '{"parameters":[]}', refusal: null },
        logprobs: null,
        finish_reason: "stop",
      }],
      usage: { prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 },
    })
  );
  try {
    await withSetup(async (_sources, _repository, options) => {
      const without = await runScraper({
        ...options,
        extractors: createExtractors({ llm: { baseUrl: llm.url } }),
      });
      assert.equal(without.candidates_created, 6);
      assert.equal(llm.requests.length, 0);
    });
    await withSetup(async (_sources, _repository, options) => {
      const withKey = await runScraper({
        ...options,
        extractors: createExtractors({ llm: { apiKey: "test-key", baseUrl: llm.url } }),
      });
      assert.equal(withKey.status, "completed");
      // Once per on-topic paper: the OpenAlex and the arXiv PEM papers.
      assert.equal(llm.requests.length, 2);
    });
  } finally {
    await llm.close();
  }
});

Deno.test("startScraperRun() gives the run id at once and the summary at the end", async () => {
  await withSetup(async (sources, repository, options) => {
    sources.set("arxiv", "hang");
    const started = await startScraperRun(options);
    assert.equal((await repository.getRun(started.run_id))?.status, "running");
    const summary = await started.finished;
    assert.equal(summary.run_id, started.run_id);
    assert.equal((await repository.getRun(started.run_id))?.status, "partial");
  }, 1_000);
});
