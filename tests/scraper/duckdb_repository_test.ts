import assert from "node:assert/strict";
import { openStore, type SqlValue, type Store } from "../../lib/store/store.ts";
import {
  CANDIDATES_TABLE,
  createDuckDbScraperRepository,
} from "../../lib/scraper/duckdb_repository.ts";
import type { Paper } from "../../lib/scraper/paper.ts";
import type { ExtractedParameter } from "../../lib/scraper/parameters.ts";
import type { NewCandidate, ScraperRepository } from "../../lib/scraper/repository.ts";
import { within } from "../_within.ts";

const PAPER: Paper = {
  source: "openalex",
  source_id: "W4321000001",
  doi: "10.1016/j.ijhydene.2023.01.101",
  title: "Techno-economic assessment of PEM electrolysis",
  abstract: "We estimate a capital cost of USD 1,200/kW.",
  url: "https://doi.org/10.1016/j.ijhydene.2023.01.101",
  year: 2023,
  authors: ["Anna Weber", "Mei Chen"],
};

const CAPEX: ExtractedParameter = {
  parameter: "capex",
  value: 1200,
  unit: "USD/kW",
  currency: "USD",
  matched_text: "USD 1,200/kW",
  context: "We estimate a capital cost of USD 1,200/kW.",
  confidence: 0.9,
  catalogue_field: "capex_usd_per_kw",
  catalogue_value: 1200,
};

let counter = 0;

function candidate(overrides: Partial<NewCandidate> = {}): NewCandidate {
  counter++;
  return {
    id: `c${counter}`,
    run_id: "run-1",
    technology_id: "pem_electrolyzer",
    paper: PAPER,
    extracted: CAPEX,
    extractor: "pattern",
    created_at: `2024-05-01T10:00:${String(counter % 60).padStart(2, "0")}.000Z`,
    ...overrides,
  };
}

async function withRepository(
  test: (repository: ScraperRepository, store: Store) => Promise<void>,
): Promise<void> {
  const store = await openStore(":memory:");
  try {
    await test(await createDuckDbScraperRepository(store), store);
  } finally {
    await store.close();
  }
}

Deno.test("insertCandidate() stores a candidate and reads it back", async () => {
  await withRepository(async (repository) => {
    const input = candidate({ id: "first" });
    assert.equal(await repository.insertCandidate(input), true);
    assert.deepEqual(await repository.getCandidate("first"), {
      id: "first",
      status: "pending",
      run_id: "run-1",
      technology_id: "pem_electrolyzer",
      parameter: "capex",
      value: 1200,
      unit: "USD/kW",
      currency: "USD",
      catalogue_field: "capex_usd_per_kw",
      catalogue_value: 1200,
      matched_text: "USD 1,200/kW",
      context: "We estimate a capital cost of USD 1,200/kW.",
      confidence: 0.9,
      extractor: "pattern",
      paper_key: "doi:10.1016/j.ijhydene.2023.01.101",
      source: "openalex",
      source_id: "W4321000001",
      doi: "10.1016/j.ijhydene.2023.01.101",
      title: "Techno-economic assessment of PEM electrolysis",
      abstract: "We estimate a capital cost of USD 1,200/kW.",
      url: "https://doi.org/10.1016/j.ijhydene.2023.01.101",
      year: 2023,
      authors: ["Anna Weber", "Mei Chen"],
      created_at: input.created_at,
      reviewed_at: null,
      instance_id: null,
    });
    assert.equal(await repository.getCandidate("missing"), undefined);
  });
});

Deno.test("insertCandidate() refuses the same paper and parameter twice", async (t) => {
  await withRepository(async (repository) => {
    assert.equal(await repository.insertCandidate(candidate()), true);
    await t.step("same paper again", async () => {
      assert.equal(await repository.insertCandidate(candidate()), false);
    });
    await t.step("same DOI from another source", async () => {
      const crossref: Paper = { ...PAPER, source: "crossref", source_id: PAPER.doi as string };
      assert.equal(await repository.insertCandidate(candidate({ paper: crossref })), false);
    });
    await t.step("same source id, DOI learnt later", async () => {
      const arxiv: Paper = { ...PAPER, source: "arxiv", source_id: "2301.01234" };
      const { doi: _doi, ...noDoi } = arxiv;
      assert.equal(await repository.insertCandidate(candidate({ paper: noDoi })), true);
      assert.equal(await repository.insertCandidate(candidate({ paper: arxiv })), false);
    });
    await t.step("another parameter or technology is a new candidate", async () => {
      const lifetime: ExtractedParameter = { ...CAPEX, parameter: "lifetime", unit: "years" };
      assert.equal(await repository.insertCandidate(candidate({ extracted: lifetime })), true);
      assert.equal(
        await repository.insertCandidate(candidate({ technology_id: "alkaline_electrolyzer" })),
        true,
      );
    });
    assert.equal((await repository.listCandidates()).length, 4);
  });
});

Deno.test("insertCandidate() run concurrently neither loses nor duplicates", async () => {
  await withRepository(async (repository) => {
    // 60 inserts of 20 distinct papers, three copies each, all at once.
    const inserts = Array.from({ length: 60 }, (_, i) => {
      const paper: Paper = { ...PAPER, doi: `10.1000/test.${i % 20}`, source_id: `W${i % 20}` };
      return repository.insertCandidate(candidate({ paper }));
    });
    const results = await Promise.all(inserts);
    assert.equal(results.filter(Boolean).length, 20);
    assert.equal(await repository.countPending(), 20);
  });
});

Deno.test("the repository's calls made at once do not mix up their results", async () => {
  await withRepository(async (repository) => {
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) {
      calls.push(repository.createRun({
        run_id: `run-${i}`,
        started_at: `2024-05-01T00:00:${String(i).padStart(2, "0")}.000Z`,
        sources: ["openalex", "arxiv"],
        technology_ids: ["pem_electrolyzer"],
      }));
      const paper: Paper = { ...PAPER, doi: `10.1000/mix.${i}`, source_id: `W${i}` };
      calls.push(repository.insertCandidate(candidate({ paper })));
      calls.push(repository.latestRun());
      calls.push(repository.countPending());
    }
    await Promise.all(calls);
    const latest = await repository.latestRun();
    assert.equal(latest?.run_id, "run-39");
    assert.deepEqual(latest?.sources, ["openalex", "arxiv"]);
    assert.equal(await repository.countPending(), 40);
  });
});

Deno.test("listCandidates() filters by status and technology, newest first", async () => {
  await withRepository(async (repository) => {
    for (
      const [i, technology_id] of ["pem_electrolyzer", "onshore_wind", "pem_electrolyzer"].entries()
    ) {
      const paper: Paper = { ...PAPER, doi: `10.1000/list.${i}`, source_id: `W${i}` };
      await repository.insertCandidate(candidate({ id: `l${i}`, paper, technology_id }));
    }
    await repository.setCandidateStatus("l0", "rejected", { at: "2024-05-02T00:00:00.000Z" });
    const ids = async (filter: Parameters<ScraperRepository["listCandidates"]>[0]) =>
      (await repository.listCandidates(filter)).map((c) => c.id);
    assert.deepEqual(await ids({}), ["l2", "l1", "l0"]);
    assert.deepEqual(await ids({ status: "pending" }), ["l2", "l1"]);
    assert.deepEqual(await ids({ technology_id: "pem_electrolyzer" }), ["l2", "l0"]);
    assert.deepEqual(await ids({ status: "pending", technology_id: "pem_electrolyzer" }), ["l2"]);
    assert.deepEqual(await ids({ status: "approved" }), []);
    assert.deepEqual(await ids({ limit: 1, offset: 1 }), ["l1"]);
    await assert.rejects(repository.listCandidates({ limit: -1 }), RangeError);
  });
});

Deno.test("setCandidateStatus() moves only pending candidates", async (t) => {
  await withRepository(async (repository) => {
    await repository.insertCandidate(candidate({ id: "a" }));
    await repository.insertCandidate(
      candidate({ id: "b", extracted: { ...CAPEX, parameter: "lifetime" } }),
    );
    await t.step("pending -> approved", async () => {
      const change = await repository.setCandidateStatus("a", "approved", {
        at: "2024-05-02T00:00:00.000Z",
        instance_id: "pem_electrolyzer-scraper-a",
      });
      assert.equal(change.ok, true);
      assert.equal(change.ok && change.candidate.status, "approved");
      assert.equal(change.ok && change.candidate.reviewed_at, "2024-05-02T00:00:00.000Z");
      assert.equal(change.ok && change.candidate.instance_id, "pem_electrolyzer-scraper-a");
    });
    await t.step("approve twice -> conflict", async () => {
      const change = await repository.setCandidateStatus("a", "approved", { at: "x" });
      assert.equal(change.ok, false);
      assert.equal(!change.ok && change.reason, "conflict");
      assert.equal(
        !change.ok && change.reason === "conflict" && change.candidate.status,
        "approved",
      );
    });
    await t.step("approved -> rejected -> conflict", async () => {
      const change = await repository.setCandidateStatus("a", "rejected", { at: "x" });
      assert.equal(!change.ok && change.reason, "conflict");
    });
    await t.step("pending -> rejected, then approve -> conflict", async () => {
      assert.equal((await repository.setCandidateStatus("b", "rejected", { at: "x" })).ok, true);
      const change = await repository.setCandidateStatus("b", "approved", { at: "y" });
      assert.equal(!change.ok && change.reason, "conflict");
      assert.equal((await repository.getCandidate("b"))?.status, "rejected");
    });
    await t.step("unknown id -> not_found", async () => {
      assert.deepEqual(await repository.setCandidateStatus("zz", "approved", { at: "x" }), {
        ok: false,
        reason: "not_found",
      });
    });
    await t.step("two concurrent approvals: exactly one wins", async () => {
      await repository.insertCandidate(
        candidate({ id: "c", extracted: { ...CAPEX, parameter: "efficiency" } }),
      );
      const changes = await Promise.all([
        repository.setCandidateStatus("c", "approved", { at: "x" }),
        repository.setCandidateStatus("c", "rejected", { at: "x" }),
      ]);
      assert.equal(changes.filter((c) => c.ok).length, 1);
    });
    await t.step("reopenCandidate() undoes an approval only", async () => {
      assert.equal(await repository.reopenCandidate("a"), true);
      const reopened = await repository.getCandidate("a");
      assert.equal(reopened?.status, "pending");
      assert.equal(reopened?.instance_id, null);
      assert.equal(await repository.reopenCandidate("b"), false);
    });
    assert.equal(await repository.countPending(), 1);
  });
});

Deno.test("runs are created, finished, listed latest first and abandoned after a restart", async () => {
  await withRepository(async (repository) => {
    assert.equal(await repository.latestRun(), undefined);
    await repository.createRun({
      run_id: "r1",
      started_at: "2024-05-01T00:00:00.000Z",
      sources: ["openalex"],
      technology_ids: ["pem_electrolyzer"],
    });
    await repository.finishRun({
      run_id: "r1",
      started_at: "2024-05-01T00:00:00.000Z",
      finished_at: "2024-05-01T00:01:00.000Z",
      status: "partial",
      total_papers: 7,
      candidates_created: 3,
      errors: [{ source: "crossref", message: "crossref: HTTP 500", technology_id: "x" }],
    });
    await repository.createRun({
      run_id: "r2",
      started_at: "2024-05-02T00:00:00.000Z",
      sources: ["openalex", "arxiv"],
      technology_ids: ["onshore_wind"],
    });
    assert.deepEqual(await repository.latestRun(), {
      run_id: "r2",
      started_at: "2024-05-02T00:00:00.000Z",
      finished_at: null,
      status: "running",
      sources: ["openalex", "arxiv"],
      technology_ids: ["onshore_wind"],
      total_papers: 0,
      candidates_created: 0,
      errors: [],
    });
    assert.deepEqual((await repository.getRun("r1"))?.errors, [
      { source: "crossref", message: "crossref: HTTP 500", technology_id: "x" },
    ]);
    assert.equal(await repository.abandonRunningRuns("2024-05-03T00:00:00.000Z"), 1);
    assert.equal((await repository.getRun("r2"))?.status, "failed");
    assert.equal((await repository.getRun("r1"))?.status, "partial");
    await assert.rejects(
      repository.finishRun({
        run_id: "nope",
        started_at: "",
        finished_at: "",
        status: "completed",
        total_papers: 0,
        candidates_created: 0,
        errors: [],
      }),
      RangeError,
    );
  });
});

Deno.test("createDuckDbScraperRepository() keeps existing rows when the tables exist", async () => {
  await withRepository(async (repository, store) => {
    await repository.insertCandidate(candidate({ id: "kept" }));
    const again = await createDuckDbScraperRepository(store);
    assert.equal((await again.getCandidate("kept"))?.id, "kept");
    const [row] = await store.all<{ n: number }>(`SELECT count(*) AS n FROM ${CANDIDATES_TABLE}`);
    assert.equal(row?.n, 1);
  });
});

Deno.test("the repository's reads answer while a transaction holds the store's writer", async () => {
  await withRepository(async (repository, store) => {
    await repository.insertCandidate(candidate({ id: "read" }));
    let release!: () => void;
    const held = store.transaction(() => new Promise<void>((resolve) => release = resolve));
    try {
      const reads = Promise.all([
        repository.getCandidate("read"),
        repository.countPending(),
        repository.listCandidates({ status: "pending" }),
      ]);
      const [found, pending, list] = await within(reads, 2000, "reads behind the held writer");
      assert.equal(found?.id, "read");
      assert.equal(pending, 1);
      assert.deepEqual(list.map((c) => c.id), ["read"]);
    } finally {
      release();
    }
    await held;
  });
});

Deno.test("listCandidates() with a page reads that page's rows only; countCandidates() counts", async () => {
  const db = await openStore(":memory:");
  try {
    let abstracts = 0;
    const all: Store["all"] = async <T>(sql: string, params?: readonly SqlValue[]) => {
      const rows = await db.all<T>(sql, params);
      abstracts += rows.filter((r) => typeof r === "object" && r !== null && "abstract" in r)
        .length;
      return rows;
    };
    const repository = await createDuckDbScraperRepository({ ...db, all });
    for (let i = 0; i < 9; i++) {
      const paper: Paper = { ...PAPER, doi: `10.1000/page.${i}`, source_id: `P${i}` };
      await repository.insertCandidate(
        candidate({
          id: `p${i}`,
          paper,
          created_at: `2024-06-01T00:00:0${i}.000Z`,
          technology_id: i % 3 === 0 ? "onshore_wind" : "pem_electrolyzer",
        }),
      );
    }
    const before = abstracts;
    const page = await repository.listCandidates({ status: "pending", limit: 2, offset: 1 });
    assert.deepEqual(page.map((c) => c.id), ["p7", "p6"]);
    assert.equal(abstracts - before, 2, "abstracts read for the 2 rows of the page");
    assert.equal(await repository.countCandidates({ status: "pending" }), 9);
    assert.equal(await repository.countCandidates({ technology_id: "onshore_wind" }), 3);
    assert.equal(await repository.countCandidates({ status: "approved" }), 0);
    assert.equal(await repository.countCandidates({ limit: 1 }), 9, "limit does not count");
    assert.deepEqual(await repository.listCandidates({ limit: 5, offset: 20 }), []);
  } finally {
    await db.close();
  }
});
