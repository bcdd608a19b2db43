import assert from "node:assert/strict";
import { instanceSchema } from "../../lib/catalogue/schema/technology_schema.ts";
import {
  approveCandidate,
  candidateInstance,
  type MergeInstance,
  referenceSource,
  rejectCandidate,
} from "../../lib/scraper/approval.ts";
import { createDuckDbScraperRepository } from "../../lib/scraper/duckdb_repository.ts";
import type { Paper } from "../../lib/scraper/paper.ts";
import type { ExtractedParameter } from "../../lib/scraper/parameters.ts";
import type { ScraperRepository } from "../../lib/scraper/repository.ts";
import { openStore } from "../../lib/store/store.ts";

const PAPER: Paper = {
  source: "openalex",
  source_id: "W4321000001",
  doi: "10.1016/j.ijhydene.2023.01.101",
  title: "Techno-economic assessment of PEM electrolysis for hydrogen production",
  url: "https://doi.org/10.1016/j.ijhydene.2023.01.101",
  year: 2023,
  authors: ["Anna Weber", "Luis García", "Mei Chen"],
};

const CAPEX: ExtractedParameter = {
  parameter: "capex",
  value: 1200,
  unit: "USD/kW",
  currency: "USD",
  matched_text: "USD 1,200/kW",
  confidence: 0.9,
  catalogue_field: "capex_usd_per_kw",
  catalogue_value: 1200,
};

const NOW = () => new Date("2024-05-02T09:30:00.000Z");

async function withCandidates(
  test: (repository: ScraperRepository) => Promise<void>,
): Promise<void> {
  const store = await openStore(":memory:");
  try {
    const repository = await createDuckDbScraperRepository(store);
    const add = (id: string, extracted: ExtractedParameter) =>
      repository.insertCandidate({
        id,
        run_id: "r1",
        technology_id: "pem_electrolyzer",
        paper: PAPER,
        extracted,
        extractor: "pattern",
        created_at: "2024-05-01T12:00:00.000Z",
      });
    await add("5f0c8a1e-7a2b-4c3d-9e8f-0a1b2c3d4e5f", CAPEX);
    // No exchange rate was configured, so the EUR figure has no catalogue field.
    await add("c-eur", {
      parameter: "opex_fixed",
      value: 15,
      unit: "EUR/kW/yr",
      currency: "EUR",
      matched_text: "EUR 15/kW/yr",
      confidence: 0.9,
    });
    await add("c-life", {
      parameter: "lifetime",
      value: 20,
      unit: "years",
      matched_text: "lifetime of 20 years",
      confidence: 0.85,
      catalogue_field: "lifetime_years",
      catalogue_value: 20,
    });
    await test(repository);
  } finally {
    await store.close();
  }
}

function recordingMerge(): { merge: MergeInstance; calls: Parameters<MergeInstance>[] } {
  const calls: Parameters<MergeInstance>[] = [];
  return { calls, merge: (...args) => Promise.resolve(void calls.push(args)) };
}

Deno.test("approveCandidate() merges a new catalogue instance that cites the paper", async () => {
  await withCandidates(async (repository) => {
    const { merge, calls } = recordingMerge();
    const id = "5f0c8a1e-7a2b-4c3d-9e8f-0a1b2c3d4e5f";
    const result = await approveCandidate({ repository, id, merge, now: NOW });
    assert.equal(result.ok, true);
    assert.equal(calls.length, 1);
    const [technology_id, instance, candidate] = calls[0]!;
    assert.equal(technology_id, "pem_electrolyzer");
    assert.equal(candidate.status, "approved");
    assert.equal(
      instance.instance_id,
      "pem_electrolyzer-scraper-5f0c8a1e_7a2b_4c3d_9e8f_0a1b2c3d4e5f",
    );
    assert.equal(instance.capex_usd_per_kw, 1200);
    assert.equal(instance.efficiency_percent, null);
    assert.equal(
      instance.reference_source,
      "Anna Weber et al. (2023). Techno-economic assessment of PEM electrolysis for hydrogen " +
        "production. https://doi.org/10.1016/j.ijhydene.2023.01.101",
    );
    assert.match(instance.notes[0] ?? "", /scraper candidate 5f0c8a1e.*"USD 1,200\/kW"/);
    // The instance is a valid catalogue instance.
    assert.deepEqual(instanceSchema.parse(instance), instance);
    const stored = await repository.getCandidate(id);
    assert.equal(stored?.status, "approved");
    assert.equal(stored?.reviewed_at, "2024-05-02T09:30:00.000Z");
    assert.equal(stored?.instance_id, instance.instance_id);
  });
});

Deno.test("approveCandidate() twice is a conflict and merges once", async () => {
  await withCandidates(async (repository) => {
    const { merge, calls } = recordingMerge();
    assert.equal((await approveCandidate({ repository, id: "c-life", merge })).ok, true);
    const again = await approveCandidate({ repository, id: "c-life", merge });
    assert.equal(!again.ok && again.reason, "conflict");
    assert.equal(calls.length, 1);
  });
});

Deno.test("approveCandidate() puts the candidate back to pending when the merge fails", async () => {
  await withCandidates(async (repository) => {
    const failing: MergeInstance = () => Promise.reject(new Error("catalogue is read-only"));
    await assert.rejects(
      approveCandidate({ repository, id: "c-life", merge: failing }),
      /catalogue is read-only/,
    );
    const candidate = await repository.getCandidate("c-life");
    assert.equal(candidate?.status, "pending");
    assert.equal(candidate?.instance_id, null);
  });
});

Deno.test("approveCandidate() refuses unknown ids and values without a catalogue field", async () => {
  await withCandidates(async (repository) => {
    const { merge, calls } = recordingMerge();
    assert.deepEqual(await approveCandidate({ repository, id: "nope", merge }), {
      ok: false,
      reason: "not_found",
    });
    const euro = await approveCandidate({ repository, id: "c-eur", merge });
    assert.equal(!euro.ok && euro.reason, "not_convertible");
    assert.match(
      !euro.ok && euro.reason === "not_convertible" ? euro.message : "",
      /no exchange rate for EUR/,
    );
    assert.equal((await repository.getCandidate("c-eur"))?.status, "pending");
    assert.equal(calls.length, 0);
  });
});

Deno.test("rejectCandidate() archives a pending candidate only", async () => {
  await withCandidates(async (repository) => {
    const rejected = await rejectCandidate(repository, "c-eur", NOW);
    assert.equal(rejected.ok && rejected.candidate.status, "rejected");
    const again = await rejectCandidate(repository, "c-eur", NOW);
    assert.equal(!again.ok && again.reason, "conflict");
    const { merge } = recordingMerge();
    const approve = await approveCandidate({ repository, id: "c-eur", merge });
    assert.equal(!approve.ok && approve.reason, "conflict");
  });
});

Deno.test("candidateInstance() and referenceSource() without DOI or authors", async () => {
  await withCandidates(async (repository) => {
    const candidate = await repository.getCandidate("c-life");
    assert.ok(candidate);
    const bare = {
      ...candidate,
      doi: null,
      authors: [],
      year: null,
      url: "http://arxiv.org/abs/1",
    };
    assert.equal(
      referenceSource(bare),
      "(n.d.). Techno-economic assessment of PEM electrolysis for hydrogen production. " +
        "http://arxiv.org/abs/1",
    );
    assert.equal(candidateInstance(bare)?.lifetime_years, 20);
    assert.equal(candidateInstance({ ...bare, catalogue_value: null }), undefined);
  });
});
