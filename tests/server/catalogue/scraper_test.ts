import assert from "node:assert/strict";
import { ScraperConfigSchema } from "../../../lib/scraper/config.ts";
import { openStore } from "../../../lib/store/store.ts";
import { type FakeSources, startFakeSources } from "../../scraper/_sources.ts";
import { ADMIN, bearer, call, json, type TestApp, testApp, tokenFor } from "./_catalogue.ts";

const admin = await tokenFor(ADMIN);

/** The app with its scraper pointed at local fakes of the three sources (via the config). */
async function withScraper(
  test: (built: TestApp, sources: FakeSources) => Promise<void>,
  overrides: Record<string, unknown> = {},
  storePath?: string,
): Promise<void> {
  const sources = await startFakeSources();
  const built = await testApp({
    ...(storePath ? { store: await openStore(storePath) } : {}),
    config: {
      scraper: ScraperConfigSchema.parse({
        base_urls: {
          openalex: `${sources.server.url}/openalex`,
          crossref: `${sources.server.url}/crossref`,
          arxiv: `${sources.server.url}/arxiv`,
        },
        technology_ids: ["pem_electrolyzer"],
        timeout_ms: 2_000,
        request_interval_ms: { arxiv: 0 },
        ...overrides,
      }),
    },
  });
  try {
    await test(built, sources);
  } finally {
    await built.dispose();
    await sources.close();
  }
}

const RUN = "/api/v1/scraper/run";

Deno.test("POST /api/v1/scraper/run with wait runs against the configured sources", async () => {
  await withScraper(async ({ app }, sources) => {
    const before = await call(app, "/api/v1/scraper/status", bearer(admin));
    assert.equal(before.status, 200);
    assert.deepEqual(before.body, {
      scheduler_running: false,
      next_run: null,
      enabled_sources: ["openalex", "crossref", "arxiv"],
      pending_candidates: 0,
      last_run: null,
    });
    const run = await call(app, RUN, json("POST", { wait: true }, admin));
    assert.equal(run.status, 200);
    assert.equal(run.body.status, "completed");
    assert.ok(run.body.total_papers > 0);
    assert.ok(run.body.candidates_created > 0);
    for (const source of ["openalex", "crossref", "arxiv"] as const) {
      assert.ok(sources.count(source) > 0, `${source} was asked`);
    }
    const after = await call(app, "/api/v1/scraper/status", bearer(admin));
    assert.equal(after.body.last_run.run_id, run.body.run_id);
    assert.equal(after.body.last_run.candidates_created, run.body.candidates_created);
    assert.equal(after.body.pending_candidates, run.body.candidates_created);
  });
});

Deno.test("POST /api/v1/scraper/run starts in the background with 202 { run_id }", async () => {
  await withScraper(async (built) => {
    const { app } = built;
    const started = await call(app, RUN, { method: "POST", ...bearer(admin) });
    assert.equal(started.status, 202);
    assert.equal(started.body.status, "running");
    const busy = await call(app, RUN, json("POST", {}, admin));
    if (busy.status === 409) {
      assert.equal(busy.body.details.run_id, started.body.run_id);
    } else {
      assert.equal(busy.status, 202, "the first run may have ended already");
    }
    await built.scraper.close();
    const status = await call(app, "/api/v1/scraper/status", bearer(admin));
    assert.notEqual(status.body.last_run.status, "running");
  });
});

Deno.test("POST /api/v1/scraper/run errors: 400 for bad bodies, sources and technologies", async (t) => {
  await withScraper(async ({ app }) => {
    const cases: [string, RequestInit, number, RegExp][] = [
      ["unknown member", json("POST", { wiat: true }, admin), 400, /wiat: unknown member/],
      [
        "unknown source",
        json("POST", { sources: ["scholar"] }, admin),
        400,
        /sources\[0\]: must be one of/,
      ],
      [
        "empty sources",
        json("POST", { sources: [] }, admin),
        400,
        /sources: must have at least 1 items/,
      ],
      ["source not enabled", json("POST", { sources: ["arxiv"] }, admin), 400, /are not enabled/],
      [
        "technology not in the catalogue",
        json("POST", { technology_ids: ["perpetuum_mobile"] }, admin),
        400,
        /technology_ids: not in the catalogue: perpetuum_mobile/,
      ],
      ["malformed JSON", json("POST", "{", admin), 400, /^Malformed JSON/],
      ["no token", json("POST", {}), 401, /Missing Authorization/],
    ];
    for (const [name, init, status, error] of cases) {
      await t.step(name, async () => {
        const reply = await call(app, RUN, init);
        assert.equal(reply.status, status);
        assert.match(reply.body.error, error);
      });
    }
  }, { sources: ["openalex", "crossref"] });
});

Deno.test("candidates: list, filter, detail; approval adds an instance citing the paper", async (t) => {
  await withScraper(async ({ app }) => {
    await call(app, RUN, json("POST", { wait: true, sources: ["openalex", "crossref"] }, admin));
    const list = await call(app, "/api/v1/scraper/candidates?status=pending", bearer(admin));
    assert.equal(list.status, 200);
    assert.ok(list.body.total > 0);
    const candidates = list.body.candidates as {
      id: string;
      technology_id: string;
      catalogue_value: number | null;
      catalogue_field: string | null;
    }[];
    const convertible = candidates.find((c) => c.catalogue_value !== null);
    assert.ok(convertible, "the fixtures hold a value with a catalogue unit");

    await t.step("filters and pages", async () => {
      const byTech = await call(
        app,
        "/api/v1/scraper/candidates?technology_id=pem_electrolyzer",
        bearer(admin),
      );
      assert.equal(byTech.body.total, list.body.total);
      const none = await call(
        app,
        "/api/v1/scraper/candidates?technology_id=onshore_wind",
        bearer(admin),
      );
      assert.equal(none.body.total, 0);
      const page = await call(app, "/api/v1/scraper/candidates?limit=1&skip=1", bearer(admin));
      assert.equal(page.body.candidates.length, Math.min(1, list.body.total - 1));
      const bad = await call(app, "/api/v1/scraper/candidates?status=maybe", bearer(admin));
      assert.equal(bad.status, 400);
    });
    await t.step("detail and 404", async () => {
      const one = await call(app, `/api/v1/scraper/candidates/${convertible.id}`, bearer(admin));
      assert.equal(one.status, 200);
      assert.equal(one.body.id, convertible.id);
      assert.equal(typeof one.body.title, "string");
      const missing = await call(app, "/api/v1/scraper/candidates/nope", bearer(admin));
      assert.equal(missing.status, 404);
    });
    await t.step("approve: a new instance of the technology, citing the paper", async () => {
      const before = (await call(app, `/api/v1/technologies/${convertible.technology_id}`)).body;
      const reply = await call(app, `/api/v1/scraper/candidates/${convertible.id}/approve`, {
        method: "POST",
        ...bearer(admin),
      });
      assert.equal(reply.status, 200);
      assert.equal(reply.body.candidate.status, "approved");
      const instance = reply.body.instance;
      assert.equal(instance[convertible.catalogue_field!], convertible.catalogue_value);
      const after = (await call(app, `/api/v1/technologies/${convertible.technology_id}`)).body;
      assert.equal(after.instances.length, before.instances.length + 1);
      const added = after.instances.at(-1);
      assert.equal(added.instance_id, instance.instance_id);
      assert.equal(added.reference_source, instance.reference_source);
      assert.ok(added.missing_fields.length > 0);
    });
    await t.step("approve or reject again: 409; unknown: 404", async () => {
      for (const action of ["approve", "reject"]) {
        const again = await call(app, `/api/v1/scraper/candidates/${convertible.id}/${action}`, {
          method: "POST",
          ...bearer(admin),
        });
        assert.equal(again.status, 409);
        assert.match(again.body.error, /is approved, not pending/);
      }
      for (const action of ["approve", "reject"]) {
        const unknown = await call(app, `/api/v1/scraper/candidates/nope/${action}`, {
          method: "POST",
          ...bearer(admin),
        });
        assert.equal(unknown.status, 404);
      }
    });
    await t.step("reject: archived, listed as rejected", async () => {
      const other = candidates.find((c) => c.id !== convertible.id);
      assert.ok(other, "the fixtures hold a second pending candidate to reject");
      const reply = await call(app, `/api/v1/scraper/candidates/${other.id}/reject`, {
        method: "POST",
        ...bearer(admin),
      });
      assert.equal(reply.status, 200);
      assert.equal(reply.body.candidate.status, "rejected");
      const rejected = await call(app, "/api/v1/scraper/candidates?status=rejected", bearer(admin));
      assert.equal(rejected.body.total, 1);
      assert.equal(rejected.body.candidates[0].id, other.id);
    });
  });
});

Deno.test("approving a candidate whose value has no catalogue unit answers 422", async () => {
  await withScraper(async ({ app }) => {
    await call(app, RUN, json("POST", { wait: true, sources: ["openalex", "crossref"] }, admin));
    const list = await call(app, "/api/v1/scraper/candidates?limit=200", bearer(admin));
    const stuck = list.body.candidates.find((c: { catalogue_value: number | null }) =>
      c.catalogue_value === null
    );
    assert.ok(stuck, "without an exchange rate a EUR value has no catalogue value");
    const reply = await call(app, `/api/v1/scraper/candidates/${stuck.id}/approve`, {
      method: "POST",
      ...bearer(admin),
    });
    assert.equal(reply.status, 422);
    assert.match(reply.body.error, /cannot join the catalogue/);
    const still = await call(app, `/api/v1/scraper/candidates/${stuck.id}`, bearer(admin));
    assert.equal(still.body.status, "pending");
  }, { fx: {} });
});

Deno.test("approving a candidate for a technology the catalogue lacks: 409, stays pending", async () => {
  await withScraper(async (built) => {
    const { app } = built;
    await call(app, RUN, json("POST", { wait: true, sources: ["openalex", "crossref"] }, admin));
    const list = await call(app, "/api/v1/scraper/candidates?limit=200", bearer(admin));
    const candidate = list.body.candidates.find((c: { catalogue_value: number | null }) =>
      c.catalogue_value !== null
    );
    assert.ok(candidate);
    // The technology leaves the served catalogue (e.g. a reload without it).
    const snapshot = built.catalogue.current();
    const original = snapshot.technology;
    Object.defineProperty(snapshot, "technology", {
      value: (id: string) => id === candidate.technology_id ? undefined : original(id),
    });
    const reply = await call(app, `/api/v1/scraper/candidates/${candidate.id}/approve`, {
      method: "POST",
      ...bearer(admin),
    });
    assert.equal(reply.status, 409);
    assert.match(reply.body.error, /is not in the served catalogue; the candidate stays pending$/);
    const still = await call(app, `/api/v1/scraper/candidates/${candidate.id}`, bearer(admin));
    assert.equal(still.body.status, "pending");
  });
});

Deno.test("SCRAPER_SCHEDULE_HOURS turns the schedule on; the status shows the next run", async () => {
  const now = Date.now();
  await withScraper(async ({ app }) => {
    const { body } = await call(app, "/api/v1/scraper/status", bearer(admin));
    assert.equal(body.scheduler_running, true);
    const next = Date.parse(body.next_run);
    assert.ok(next >= now + 6 * 3600_000 - 1000 && next <= Date.now() + 6 * 3600_000 + 1000);
  }, { schedule_minutes: 360 });
});

Deno.test("runs, candidates and merged instances survive a restart of the app", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/state.duckdb`;
  try {
    let runId = "";
    let approved = { id: "", technology_id: "", instance_id: "" };
    await withScraper(
      async ({ app }) => {
        const run = await call(app, RUN, json("POST", { wait: true }, admin));
        runId = run.body.run_id;
        const list = await call(app, "/api/v1/scraper/candidates?limit=200", bearer(admin));
        const candidate = list.body.candidates.find((c: { catalogue_value: number | null }) =>
          c.catalogue_value !== null
        );
        const reply = await call(app, `/api/v1/scraper/candidates/${candidate.id}/approve`, {
          method: "POST",
          ...bearer(admin),
        });
        approved = {
          id: candidate.id,
          technology_id: candidate.technology_id,
          instance_id: reply.body.instance.instance_id,
        };
      },
      { sources: ["openalex", "crossref"] },
      path,
    );
    await withScraper(
      async ({ app }) => {
        const status = await call(app, "/api/v1/scraper/status", bearer(admin));
        assert.equal(status.body.last_run.run_id, runId);
        const candidate = await call(
          app,
          `/api/v1/scraper/candidates/${approved.id}`,
          bearer(admin),
        );
        assert.equal(candidate.body.status, "approved");
        const instance = await call(
          app,
          `/api/v1/technologies/${approved.technology_id}/instances/${approved.instance_id}`,
        );
        assert.equal(instance.status, 200);
      },
      { sources: ["openalex", "crossref"] },
      path,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
