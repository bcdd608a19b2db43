import assert from "node:assert/strict";
import {
  type CatalogueService,
  createCatalogueService,
} from "../../../lib/catalogue/served/catalogue_service.ts";
import {
  createSubmissionDesk,
  MergeConflictError,
} from "../../../lib/catalogue/submissions/submission_desk.ts";
import type { Person } from "../../../lib/catalogue/submissions/submission_record.ts";
import {
  ADDITIONS_TABLE,
  createDuckDbSubmissionRepository,
  type SubmissionRepository,
} from "../../../lib/catalogue/submissions/submission_repository.ts";
import {
  checkTechnologyRecord,
  planMerge,
  type TechnologySubmission,
} from "../../../lib/catalogue/submissions/technology_submission.ts";
import {
  servedSubmittedProfile,
  submittedProfile,
  type TimeseriesSubmission,
  timeseriesSubmissionSchema,
} from "../../../lib/catalogue/submissions/timeseries_submission.ts";
import {
  type CatalogueTechnology,
  catalogueTechnologySchema,
} from "../../../lib/catalogue/schema/technology_schema.ts";
import { normaliseCatalogueTechnology } from "../../../lib/catalogue/loading/catalogue_file.ts";
import { openStore, type SqlValue, type Store } from "../../../lib/store/store.ts";

const CATALOGUE = new URL("../../../catalogues", import.meta.url).pathname;
const RESEARCHER: Person = { subject: "0000-0002-1825-0097", name: "Josiah Carberry" };
const ADMIN: Person = { subject: "admin:admin@example.org", name: "Administrator" };

/** A catalogue-format record with one instance per id. */
function record(id: string, instanceIds: string[], domain = "generation"): CatalogueTechnology {
  return catalogueTechnologySchema.parse({
    technology_id: id,
    technology_name: `Tech ${id}`,
    domain,
    carrier: "electricity",
    oeo_class: "https://openenergyplatform.org/ontology/oeo/OEO_00000311",
    description: null,
    instances: instanceIds.map((iid) => ({
      instance_id: iid,
      instance_name: iid,
      typical_capacity_mw: 3,
      capex_usd_per_kw: 1200,
      opex_fixed_usd_per_kw_yr: 30,
      opex_var_usd_per_mwh: null,
      efficiency_percent: null,
      lifetime_years: 25,
      co2_emission_factor_operational_g_per_kwh: 0,
      ramping_rate_percent_per_min: null,
      reference_source: "Test study (2025)",
    })),
  });
}

const catalogue = await createCatalogueService({
  catalogueDir: CATALOGUE,
  profilesDir: `${CATALOGUE}/profiles`,
  additions: [],
  submittedProfiles: [],
});

async function setup(store?: Store) {
  const db = store ?? await openStore(":memory:");
  const repository = await createDuckDbSubmissionRepository(db);
  // A fresh service per test, so approvals of one test do not leak into another.
  const service: CatalogueService = await createCatalogueService({
    catalogueDir: CATALOGUE,
    profilesDir: `${CATALOGUE}/profiles`,
    additions: await repository.additions(),
    submittedProfiles: (await repository.approvedTimeseries()).map(servedSubmittedProfile),
  });
  let n = 0;
  const desk = createSubmissionDesk({
    repository,
    catalogue: service,
    now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, n++)),
  });
  return { store: db, repository, service, desk };
}

Deno.test("timeseriesSubmissionSchema checks members, value counts and capacity factors", async (t) => {
  const ok = { profile_id: "DE_test_2030", name: "Test", values: [0.1, 0.2] };
  await t.step("the minimum body is valid; defaults fill the rest", () => {
    const body = timeseriesSubmissionSchema.parse(ok);
    assert.deepEqual(submittedProfile(body), {
      ...ok,
      type: null,
      resolution: "1h",
      location: null,
      carrier: null,
      year: null,
      source: null,
      unit: null,
    });
  });
  const cases: [string, unknown, RegExp][] = [
    ["no values", { ...ok, values: [] }, /values/],
    ["too many values", { ...ok, values: new Array(35_137).fill(0) }, /values/],
    ["a string value", { ...ok, values: [0.1, "x"] }, /values/],
    ["an unknown member", { ...ok, colour: "red" }, /colour/],
    ["a bad id", { ...ok, profile_id: "a b" }, /profile_id/],
    ["a bad resolution", { ...ok, resolution: "hourly" }, /resolution/],
    [
      "capacity factors outside [0, 1]",
      { ...ok, type: "capacity_factor", values: [0.5, 1.2, -0.1] },
      /values\.1|values/,
    ],
  ];
  for (const [name, body, path] of cases) {
    await t.step(name, () => {
      const result = timeseriesSubmissionSchema.safeParse(body);
      assert.equal(result.success, false);
      if (!result.success) {
        const paths = result.error.issues.map((i) =>
          [...i.path, ...("keys" in i ? i.keys : [])].join(".")
        );
        assert.ok(paths.some((p) => path.test(p)), paths.join(", "));
      }
    });
  }
  await t.step("35,136 values and loads above 1 are fine", () => {
    const body = { ...ok, type: "load", values: new Array(35_136).fill(1500) };
    assert.equal(timeseriesSubmissionSchema.safeParse(body).success, true);
  });
  await t.step("many out-of-range capacity factors are summed up after 20", () => {
    const body = { ...ok, type: "capacity_factor", values: new Array(30).fill(2) };
    const result = timeseriesSubmissionSchema.safeParse(body);
    assert.equal(result.success, false);
    if (!result.success) {
      assert.equal(result.error.issues.length, 21);
      assert.match(result.error.issues.at(-1)?.message ?? "", /^10 more values outside/);
    }
  });
});

Deno.test("checkTechnologyRecord() finds duplicate instances and mismatched OEO classes", () => {
  assert.deepEqual(checkTechnologyRecord(record("a", ["a-1", "a-2"])), []);
  const twice = record("a", ["a-1", "a-1"]);
  assert.deepEqual(checkTechnologyRecord(twice), [
    'instances[1].instance_id: "a-1" is also instances[0]',
  ]);
  const mismatch = {
    ...record("a", ["a-1"]),
    oeo_uri: "https://openenergyplatform.org/ontology/oeo/OEO_00000999",
  };
  assert.match(checkTechnologyRecord(mismatch)[0] ?? "", /^oeo_uri: names class OEO_00000999/);
});

Deno.test("planMerge() is a new technology, new instances, or a list of conflicts", () => {
  const incoming = normaliseCatalogueTechnology(record("onshore_wind", ["onshore_wind-x"]));
  assert.deepEqual(planMerge(undefined, incoming), {
    ok: true,
    merge: "new_technology",
    instance_ids: ["onshore_wind-x"],
  });
  const existing = catalogue.current().technology("onshore_wind");
  assert.deepEqual(planMerge(existing, incoming), {
    ok: true,
    merge: "new_instances",
    instance_ids: ["onshore_wind-x"],
  });
  const clash = normaliseCatalogueTechnology(
    record("onshore_wind", ["onshore_wind-2025"], "storage"),
  );
  const plan = planMerge(existing, clash);
  assert.equal(plan.ok, false);
  if (!plan.ok) {
    assert.equal(plan.problems.length, 2);
    assert.match(plan.problems[0] ?? "", /^domain: "storage" differs/);
    assert.match(plan.problems[1] ?? "", /already has instance "onshore_wind-2025"/);
  }
});

Deno.test("the desk takes a time series, refuses taken ids and serves it once approved", async () => {
  const { desk, service, store } = await setup();
  try {
    const body = timeseriesSubmissionSchema.parse({
      profile_id: "XX_wind_2030",
      name: "Test wind",
      type: "capacity_factor",
      values: [0.1, 0.4],
    });
    const submitted = await desk.submitTimeseries(body, RESEARCHER);
    assert.ok(submitted.ok);
    const id = submitted.value.submission_id;
    const again = await desk.submitTimeseries(body, RESEARCHER);
    assert.deepEqual(again.ok ? undefined : again.reason, "conflict");
    const catalogued = await desk.submitTimeseries(
      { ...body, profile_id: "DE_load_2016" },
      RESEARCHER,
    );
    assert.equal(catalogued.ok, false);
    if (!catalogued.ok) assert.match(catalogued.message, /already in the catalogue/);
    assert.equal(service.current().profile("XX_wind_2030"), undefined, "not served while pending");

    const approved = await desk.reviewTimeseries(id, "approve", ADMIN);
    assert.ok(approved.ok);
    assert.deepEqual(approved.value.reviewed_by, ADMIN);
    const served = service.current().profile("XX_wind_2030");
    assert.deepEqual(served?.values, [0.1, 0.4]);
    assert.equal(served?.origin, "submission");
    assert.match(served?.notes[0] ?? "", /Submitted by Josiah Carberry/);

    const twice = await desk.reviewTimeseries(id, "approve", ADMIN);
    assert.equal(twice.ok ? "ok" : twice.reason, "conflict");
    const unknown = await desk.reviewTimeseries("nope", "reject", ADMIN);
    assert.equal(unknown.ok ? "ok" : unknown.reason, "not_found");
  } finally {
    await store.close();
  }
});

Deno.test("the desk refuses to approve a profile whose id a file now has", async () => {
  const { desk, repository, store } = await setup();
  try {
    // Stored directly, as if the file had appeared after the submission.
    await repository.insertTimeseries({
      submission_id: "s-1",
      status: "pending",
      profile: submittedProfile({ profile_id: "DE_load_2016", name: "x", values: [1] }),
      submitted_by: RESEARCHER,
      submitted_at: "2026-01-01T00:00:00.000Z",
      reviewed_by: null,
      reviewed_at: null,
    });
    const result = await desk.reviewTimeseries("s-1", "approve", ADMIN);
    assert.equal(result.ok, false);
    if (!result.ok) assert.match(result.message, /now in the catalogue; reject/);
    const rejected = await desk.reviewTimeseries("s-1", "reject", ADMIN);
    assert.equal(rejected.ok && rejected.value.status, "rejected");
  } finally {
    await store.close();
  }
});

Deno.test("the desk merges technology records as new technologies or new instances", async (t) => {
  const { desk, service, store, repository } = await setup();
  try {
    await t.step("a new technology", async () => {
      const result = await desk.submitTechnology(
        record("tidal_stream", ["tidal_stream-2030"]),
        RESEARCHER,
      );
      assert.ok(result.ok);
      assert.equal(result.value.merge, "new_technology");
      const approved = await desk.reviewTechnology(result.value.submission_id, "approve", ADMIN);
      assert.ok(approved.ok);
      const served = service.current().technology("tidal_stream");
      assert.equal(served?.oeo_class, "OEO_00000311");
      assert.equal(served?.instances.length, 1);
    });
    await t.step("new instances of an existing technology", async () => {
      const before = service.current().technology("onshore_wind")?.instances.length ?? 0;
      const result = await desk.submitTechnology(
        record("onshore_wind", ["onshore_wind-study"]),
        RESEARCHER,
      );
      assert.ok(result.ok);
      assert.equal(result.value.merge, "new_instances");
      const approved = await desk.reviewTechnology(result.value.submission_id, "approve", ADMIN);
      assert.ok(approved.ok);
      const wind = service.current().technology("onshore_wind");
      assert.equal(wind?.instances.length, before + 1);
      assert.equal(wind?.technology_name, "Onshore wind", "the technology keeps its own fields");
    });
    await t.step("conflicts at submission", async () => {
      const taken = await desk.submitTechnology(
        record("onshore_wind", ["onshore_wind-2025"]),
        RESEARCHER,
      );
      assert.ok(!taken.ok && taken.reason === "conflict", "a taken instance id is a conflict");
      assert.equal(taken.problems.length, 1);
      assert.match(taken.problems[0]!, /already has instance "onshore_wind-2025"/);
      const twice = await desk.submitTechnology(record("x_tech", ["x-1", "x-1"]), RESEARCHER);
      assert.equal(twice.ok, false);
    });
    await t.step("a record that no longer fits at approval stays pending", async () => {
      const a = await desk.submitTechnology(record("geo_new", ["geo_new-1"]), RESEARCHER);
      const b = await desk.submitTechnology(record("geo_new", ["geo_new-1"]), RESEARCHER);
      assert.ok(a.ok && b.ok);
      assert.ok((await desk.reviewTechnology(a.value.submission_id, "approve", ADMIN)).ok);
      const late = await desk.reviewTechnology(b.value.submission_id, "approve", ADMIN);
      assert.equal(late.ok, false);
      if (!late.ok) assert.match(late.message, /no longer fits the catalogue/);
      assert.equal((await repository.getTechnology(b.value.submission_id))?.status, "pending");
      const rejected = await desk.reviewTechnology(b.value.submission_id, "reject", ADMIN);
      assert.equal(rejected.ok && rejected.value.status, "rejected");
      const again = await desk.reviewTechnology(b.value.submission_id, "reject", ADMIN);
      assert.equal(again.ok ? "ok" : again.reason, "conflict");
      const unknown = await desk.reviewTechnology("nope", "approve", ADMIN);
      assert.equal(unknown.ok ? "ok" : unknown.reason, "not_found");
    });
  } finally {
    await store.close();
  }
});

Deno.test("the desk merges a scraper instance once and refuses what does not fit", async () => {
  const { desk, service, store, repository } = await setup();
  try {
    const tech = normaliseCatalogueTechnology(record("onshore_wind", ["onshore_wind-scraper-c1"]));
    const instance = tech.instances[0]!;
    await desk.mergeScraped("onshore_wind", instance, "c1", ADMIN);
    // A retry of the same candidate (the instance exists now) is refused by the catalogue check.
    await assert.rejects(
      desk.mergeScraped("onshore_wind", instance, "c1", ADMIN),
      MergeConflictError,
    );
    await assert.rejects(
      desk.mergeScraped("no_such_tech", instance, "c2", ADMIN),
      /not in the served/,
    );
    const wind = service.current().technology("onshore_wind");
    assert.equal(wind?.instances.filter((i) => i.instance_id === instance.instance_id).length, 1);
    const additions = await repository.additions();
    assert.deepEqual(additions.map((a) => [a.origin, a.origin_id]), [["scraper_candidate", "c1"]]);
    // The same origin id stored twice keeps the first.
    assert.equal(await repository.insertAddition({ ...additions[0]! }), undefined);
  } finally {
    await store.close();
  }
});

Deno.test("50 concurrent submissions and reviews lose nothing; each approval happens once", async () => {
  const { desk, repository, service, store } = await setup();
  try {
    const bodies = Array.from(
      { length: 50 },
      (_, i) =>
        timeseriesSubmissionSchema.parse({ profile_id: `P_${i}`, name: `P ${i}`, values: [i] }),
    );
    const results = await Promise.all(bodies.map((b) => desk.submitTimeseries(b, RESEARCHER)));
    assert.ok(results.every((r) => r.ok));
    const sameId = await Promise.all(
      Array.from({ length: 10 }, () => desk.submitTimeseries(bodies[0]!, RESEARCHER)),
    );
    assert.equal(sameId.filter((r) => r.ok).length, 0, "P_0 is pending already");
    const ids = results.map((r) => r.ok ? r.value.submission_id : "");
    const reviews = await Promise.all(
      ids.flatMap((id) => [
        desk.reviewTimeseries(id, "approve", ADMIN),
        desk.reviewTimeseries(id, "approve", ADMIN),
      ]),
    );
    assert.equal(reviews.filter((r) => r.ok).length, 50);
    assert.equal(reviews.filter((r) => !r.ok && r.reason === "conflict").length, 50);
    assert.equal((await repository.listTimeseries("approved")).length, 50);
    assert.equal(service.current().counts.profiles, 57 + 50);

    const records = Array.from({ length: 20 }, (_, i) => record(`c_tech_${i}`, [`c_tech_${i}-1`]));
    const subs = await Promise.all(records.map((r) => desk.submitTechnology(r, RESEARCHER)));
    const techIds = subs.map((s) => s.ok ? s.value.submission_id : "");
    const approvals = await Promise.all(
      techIds.flatMap((id) => [
        desk.reviewTechnology(id, "approve", ADMIN),
        desk.reviewTechnology(id, "approve", ADMIN),
      ]),
    );
    assert.equal(approvals.filter((r) => r.ok).length, 20);
    assert.equal((await repository.additions()).length, 20);
    assert.equal(service.current().counts.technologies, 39 + 20);
    const rows = await store.all<{ n: number }>(`SELECT count(*) AS n FROM ${ADDITIONS_TABLE}`);
    assert.equal(rows[0]?.n, 20);
  } finally {
    await store.close();
  }
});

Deno.test("submissions, reviews and additions survive closing and reopening the store", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/state.duckdb`;
  try {
    const first = await setup(await openStore(path));
    const ts = await first.desk.submitTimeseries(
      timeseriesSubmissionSchema.parse({
        profile_id: "KEEP_1",
        name: "Kept",
        values: [0.25, 1e-9],
      }),
      RESEARCHER,
    );
    const pending = await first.desk.submitTimeseries(
      timeseriesSubmissionSchema.parse({ profile_id: "KEEP_2", name: "Pending", values: [3] }),
      RESEARCHER,
    );
    const tech = await first.desk.submitTechnology(
      record("kept_tech", ["kept_tech-1"]),
      RESEARCHER,
    );
    assert.ok(ts.ok && pending.ok && tech.ok);
    assert.ok((await first.desk.reviewTimeseries(ts.value.submission_id, "approve", ADMIN)).ok);
    assert.ok((await first.desk.reviewTechnology(tech.value.submission_id, "approve", ADMIN)).ok);
    await first.store.close();

    const second = await setup(await openStore(path));
    try {
      assert.deepEqual(second.service.current().profile("KEEP_1")?.values, [0.25, 1e-9]);
      assert.equal(second.service.current().technology("kept_tech")?.instances.length, 1);
      const waiting = await second.repository.listTimeseries("pending");
      assert.deepEqual(waiting.map((s) => s.profile.profile_id), ["KEEP_2"]);
      assert.deepEqual(waiting[0]?.submitted_by, RESEARCHER);
      const techs = await second.repository.listTechnology();
      assert.equal(techs[0]?.status, "approved");
      assert.deepEqual(techs[0]?.record, record("kept_tech", ["kept_tech-1"]));
      assert.equal(await second.repository.profileIdInUse("KEEP_2"), true);
      assert.equal(await second.repository.profileIdInUse("KEEP_3"), false);
    } finally {
      await second.store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the repository answers not_found and conflict for status changes", async () => {
  const { repository, store }: { repository: SubmissionRepository; store: Store } = await setup();
  try {
    assert.deepEqual(await repository.reviewTimeseries("x", "approved", ADMIN, "t"), {
      ok: false,
      reason: "not_found",
    });
    assert.deepEqual(await repository.rejectTechnology("x", ADMIN, "t"), {
      ok: false,
      reason: "not_found",
    });
    const addition = {
      origin: "technology_submission" as const,
      origin_id: "x",
      technology_id: "t",
      technology: null,
      instances: [],
      added_at: "t",
      added_by: "a",
    };
    assert.deepEqual(
      await repository.approveTechnology("x", ADMIN, "t", "new_technology", addition),
      {
        ok: false,
        reason: "not_found",
      },
    );
    await repository.insertTechnology({
      submission_id: "s",
      status: "rejected",
      technology_id: "t",
      record: record("t", ["t-1"]),
      merge: "new_technology",
      submitted_by: RESEARCHER,
      submitted_at: "t",
      reviewed_by: null,
      reviewed_at: null,
    });
    const conflict = await repository.approveTechnology("s", ADMIN, "t", "new_technology", {
      ...addition,
      origin_id: "s",
    });
    assert.equal(conflict.ok ? "ok" : conflict.reason, "conflict");
    assert.deepEqual(await repository.additions(), [], "nothing stored for a refused approval");
  } finally {
    await store.close();
  }
});

/** `store` with its reads counted: how many rows read so far carried `column`. */
function countingReads(store: Store, column: string): { store: Store; rows: () => number } {
  let rows = 0;
  const all: Store["all"] = async <T>(sql: string, params?: readonly SqlValue[]) => {
    const read = await store.all<T>(sql, params);
    rows += read.filter((r) => typeof r === "object" && r !== null && column in r).length;
    return read;
  };
  return { store: { ...store, all }, rows: () => rows };
}

function timeseriesSubmission(i: number, by: Person = RESEARCHER): TimeseriesSubmission {
  return {
    submission_id: `ts-${String(i).padStart(3, "0")}`,
    status: "pending",
    profile: submittedProfile(
      timeseriesSubmissionSchema.parse({
        profile_id: `PAGE_${i}`,
        name: `Page ${i}`,
        values: new Array(1000).fill(i),
      }),
    ),
    submitted_by: by,
    submitted_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    reviewed_by: null,
    reviewed_at: null,
  };
}

function technologySubmission(i: number, by: Person = RESEARCHER): TechnologySubmission {
  return {
    submission_id: `tech-${String(i).padStart(3, "0")}`,
    status: "pending",
    technology_id: `paged_${i}`,
    record: record(`paged_${i}`, [`paged_${i}-1`]),
    merge: "new_technology",
    submitted_by: by,
    submitted_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    reviewed_by: null,
    reviewed_at: null,
  };
}

Deno.test("listTimeseries() with a page reads the values of that page's submissions only", async () => {
  const db = await openStore(":memory:");
  try {
    const counted = countingReads(db, "profile_json");
    const repository = await createDuckDbSubmissionRepository(counted.store);
    for (let i = 0; i < 12; i++) await repository.insertTimeseries(timeseriesSubmission(i));
    const before = counted.rows();
    const page = await repository.listTimeseries("pending", { skip: 3, limit: 4 });
    assert.deepEqual(page.map((s) => s.submission_id), ["ts-003", "ts-004", "ts-005", "ts-006"]);
    assert.deepEqual(page[0]?.profile.values, new Array(1000).fill(3));
    assert.equal(counted.rows() - before, 4, "profile_json read for the 4 rows of the page");
    assert.equal(await repository.countTimeseries("pending"), 12);
    assert.equal(await repository.countTimeseries(), 12);
    assert.equal(await repository.countTimeseries("approved"), 0);
    assert.deepEqual(await repository.listTimeseries("pending", { skip: 12, limit: 4 }), []);
    assert.equal((await repository.listTimeseries("pending")).length, 12, "no page: all");
    await assert.rejects(repository.listTimeseries("pending", { skip: -1, limit: 4 }), RangeError);
  } finally {
    await db.close();
  }
});

Deno.test("listTechnology() with a page reads the records of that page's submissions only", async () => {
  const db = await openStore(":memory:");
  try {
    const counted = countingReads(db, "record_json");
    const repository = await createDuckDbSubmissionRepository(counted.store);
    for (let i = 0; i < 7; i++) await repository.insertTechnology(technologySubmission(i));
    const before = counted.rows();
    const page = await repository.listTechnology(undefined, { skip: 5, limit: 50 });
    assert.deepEqual(page.map((s) => s.submission_id), ["tech-005", "tech-006"]);
    assert.deepEqual(page[0]?.record, record("paged_5", ["paged_5-1"]));
    assert.equal(counted.rows() - before, 2);
    assert.equal(await repository.countTechnology(), 7);
    assert.equal(await repository.countTechnology("pending"), 7);
    await assert.rejects(repository.listTechnology(undefined, { skip: 0, limit: 0.5 }), RangeError);
  } finally {
    await db.close();
  }
});

Deno.test("countPendingBy() counts a submitter's pending submissions of both kinds", async () => {
  const { repository, store } = await setup();
  try {
    const other: Person = { subject: "0000-0001-0000-0001", name: RESEARCHER.name };
    await repository.insertTimeseries(timeseriesSubmission(1));
    await repository.insertTimeseries(timeseriesSubmission(2));
    await repository.insertTechnology(technologySubmission(3));
    await repository.insertTechnology(technologySubmission(4, other));
    // The same subject under another display name is the same submitter.
    await repository.insertTechnology(
      technologySubmission(5, { subject: RESEARCHER.subject, name: "J. Carberry" }),
    );
    assert.equal(await repository.countPendingBy(RESEARCHER.subject), 4);
    assert.equal(await repository.countPendingBy(other.subject), 1);
    assert.equal(await repository.countPendingBy("nobody"), 0);
    await repository.reviewTimeseries("ts-001", "rejected", ADMIN, "t");
    assert.equal(await repository.countPendingBy(RESEARCHER.subject), 3, "reviewed: not pending");
  } finally {
    await store.close();
  }
});

Deno.test("the desk refuses a submitter at maxPendingPerSubmitter, both kinds counted", async () => {
  const db = await openStore(":memory:");
  try {
    const repository = await createDuckDbSubmissionRepository(db);
    const desk = createSubmissionDesk({
      repository,
      catalogue: await createCatalogueService({
        catalogueDir: CATALOGUE,
        profilesDir: `${CATALOGUE}/profiles`,
        additions: [],
        submittedProfiles: [],
      }),
      now: () => new Date("2026-01-01T00:00:00Z"),
      maxPendingPerSubmitter: 2,
    });
    const profile = (id: string) =>
      timeseriesSubmissionSchema.parse({ profile_id: id, name: id, values: [1] });
    const first = await desk.submitTimeseries(profile("LIMIT_1"), RESEARCHER);
    const second = await desk.submitTechnology(record("limit_tech", ["limit_tech-1"]), RESEARCHER);
    assert.ok(first.ok && second.ok);
    const refused = await desk.submitTimeseries(profile("LIMIT_2"), RESEARCHER);
    assert.deepEqual(refused, {
      ok: false,
      reason: "limit",
      message: `${RESEARCHER.subject} has 2 submissions pending review, the most allowed is 2: ` +
        "submit more once some are reviewed",
    });
    const refusedTech = await desk.submitTechnology(record("limit_b", ["limit_b-1"]), RESEARCHER);
    assert.equal(refusedTech.ok ? "ok" : refusedTech.reason, "limit");
    assert.ok((await desk.submitTimeseries(profile("LIMIT_3"), ADMIN)).ok, "others may submit");
    assert.ok((await desk.reviewTimeseries(first.value.submission_id, "reject", ADMIN)).ok);
    assert.ok((await desk.submitTimeseries(profile("LIMIT_2"), RESEARCHER)).ok, "room again");
  } finally {
    await db.close();
  }
});
