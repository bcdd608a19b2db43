import assert from "node:assert/strict";
import { openStore } from "../../../lib/store/store.ts";
import { ADMIN, bearer, call, json, RESEARCHER, testApp, tokenFor } from "./_catalogue.ts";

const researcher = await tokenFor(RESEARCHER);
const admin = await tokenFor(ADMIN);
const SUBMIT = "/api/v1/technologies/submit";

/** A technology record in the catalogue file format. */
function record(id: string, instanceIds: string[], overrides: Record<string, unknown> = {}) {
  return {
    technology_id: id,
    technology_name: `Technology ${id}`,
    domain: "generation",
    carrier: "electricity",
    oeo_class: "https://openenergyplatform.org/ontology/oeo/OEO_00000311",
    description: "Submitted for the test",
    tags: ["renewable", "submitted"],
    lifecycle: "demonstration",
    instances: instanceIds.map((iid) => ({
      instance_id: iid,
      instance_name: `Instance ${iid}`,
      typical_capacity_mw: 10,
      capex_usd_per_kw: 2500,
      opex_fixed_usd_per_kw_yr: 60,
      opex_var_usd_per_mwh: null,
      efficiency_percent: null,
      lifetime_years: 25,
      co2_emission_factor_operational_g_per_kwh: 0,
      ramping_rate_percent_per_min: null,
      reference_source: "Pilot project report (2025)",
    })),
    ...overrides,
  };
}

function review(id: string, action: string, token = admin): [string, RequestInit] {
  return [
    `/api/v1/admin/technologies/submissions/${id}/${action}`,
    { method: "PATCH", ...bearer(token) },
  ];
}

Deno.test("POST /api/v1/technologies/submit queues a record; approval serves a new technology", async (t) => {
  const built = await testApp();
  try {
    const submitted = await call(
      built.app,
      SUBMIT,
      json("POST", record("tidal_stream", ["tidal_stream-2030"]), researcher),
    );
    await t.step("202 with the merge it will make", () => {
      assert.equal(submitted.status, 202);
      assert.deepEqual(
        { ...submitted.body, submission_id: undefined },
        {
          submission_id: undefined,
          status: "pending",
          technology_id: "tidal_stream",
          merge: "new_technology",
        },
      );
    });
    await t.step("not served while pending; listed for the admin", async () => {
      assert.equal((await call(built.app, "/api/v1/technologies/tidal_stream")).status, 404);
      const list = await call(built.app, "/api/v1/admin/technologies/submissions", bearer(admin));
      assert.equal(list.status, 200);
      const [s] = list.body.submissions;
      assert.equal(s.submission_id, submitted.body.submission_id);
      assert.deepEqual(s.instance_ids, ["tidal_stream-2030"]);
      assert.equal(s.record.oeo_class, "https://openenergyplatform.org/ontology/oeo/OEO_00000311");
    });
    await t.step("approve: the technology is served with the served shape", async () => {
      const reply = await call(built.app, ...review(submitted.body.submission_id, "approve"));
      assert.equal(reply.status, 200);
      assert.equal(reply.body.status, "approved");
      const detail = await call(built.app, "/api/v1/technologies/tidal_stream");
      assert.equal(detail.status, 200);
      assert.equal(detail.body.oeo_class, "OEO_00000311");
      assert.equal(detail.body.oeo_uri, "https://openenergyplatform.org/ontology/oeo/OEO_00000311");
      assert.deepEqual(detail.body.instances[0].missing_fields, [
        "opex_var_usd_per_mwh",
        "efficiency_percent",
        "ramping_rate_percent_per_min",
      ]);
      const list = await call(built.app, "/api/v1/technologies?tag=submitted");
      assert.equal(list.body.total, 1);
      const pypsa = await call(built.app, "/api/v1/adapt/pypsa/tidal_stream");
      assert.equal(pypsa.status, 200);
      const health = await call(built.app, "/health");
      assert.equal(health.body.technologies, 40);
    });
    await t.step("approve or reject again: 409; unknown: 404", async () => {
      for (const action of ["approve", "reject"]) {
        const again = await call(built.app, ...review(submitted.body.submission_id, action));
        assert.equal(again.status, 409);
      }
      const unknown = await call(built.app, ...review("nope", "approve"));
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error, 'Technology submission "nope" not found');
    });
  } finally {
    await built.dispose();
  }
});

Deno.test("a record for an existing technology adds its instances on approval", async () => {
  const built = await testApp();
  try {
    const before = (await call(built.app, "/api/v1/technologies/onshore_wind")).body;
    const submitted = await call(
      built.app,
      SUBMIT,
      json(
        "POST",
        record("onshore_wind", ["onshore_wind-field_study"], { technology_name: "Other name" }),
        researcher,
      ),
    );
    assert.equal(submitted.status, 202);
    assert.equal(submitted.body.merge, "new_instances");
    const approved = await call(built.app, ...review(submitted.body.submission_id, "approve"));
    assert.equal(approved.status, 200);
    assert.equal(approved.body.merge, "new_instances");
    const after = (await call(built.app, "/api/v1/technologies/onshore_wind")).body;
    assert.equal(after.instances.length, before.instances.length + 1);
    assert.equal(after.technology_name, before.technology_name, "the technology keeps its fields");
    const added = await call(
      built.app,
      "/api/v1/technologies/onshore_wind/instances/onshore_wind-field_study",
    );
    assert.equal(added.status, 200);
    assert.equal(added.body.reference_source, "Pilot project report (2025)");
  } finally {
    await built.dispose();
  }
});

Deno.test("POST /api/v1/technologies/submit errors: 401, 400, 409", async (t) => {
  const built = await testApp();
  try {
    const cases: [string, RequestInit, number, RegExp][] = [
      ["no token", json("POST", record("a_tech", ["a-1"])), 401, /Missing Authorization/],
      [
        "no instances",
        json("POST", record("a_tech", []), researcher),
        400,
        /instances: must have at least 1 items/,
      ],
      [
        "unknown domain",
        json("POST", record("a_tech", ["a-1"], { domain: "space" }), researcher),
        400,
        /domain: must be one of generation/,
      ],
      [
        "an unknown member",
        json("POST", record("a_tech", ["a-1"], { colour: "red" }), researcher),
        400,
        /colour: unknown member/,
      ],
      [
        "oeo_class not an IRI",
        json("POST", record("a_tech", ["a-1"], { oeo_class: "OEO_1" }), researcher),
        400,
        /oeo_class/,
      ],
      ["malformed JSON", json("POST", "{]", researcher), 400, /^Malformed JSON/],
      [
        "an instance id the technology has",
        json("POST", record("onshore_wind", ["onshore_wind-2025"]), researcher),
        409,
        /^Technology "onshore_wind" cannot join the catalogue$/,
      ],
      [
        "another domain than the existing technology",
        json("POST", record("lithium_ion_bess", ["lithium_ion_bess-x"]), researcher),
        409,
        /cannot join/,
      ],
      [
        "duplicate instance ids",
        json("POST", record("b_tech", ["b-1", "b-1"]), researcher),
        409,
        /cannot join/,
      ],
    ];
    for (const [name, init, status, error] of cases) {
      await t.step(`${name}: ${status}`, async () => {
        const reply = await call(built.app, SUBMIT, init);
        assert.equal(reply.status, status, JSON.stringify(reply.body));
        assert.match(reply.body.error, error);
        if (status === 409) assert.ok(reply.body.details.problems.length > 0);
      });
    }
  } finally {
    await built.dispose();
  }
});

Deno.test("approval re-checks the catalogue; rejection archives; double approve is 200 + 409", async (t) => {
  const built = await testApp();
  try {
    const a = await call(
      built.app,
      SUBMIT,
      json("POST", record("wave_energy", ["wave-1"]), researcher),
    );
    const b = await call(
      built.app,
      SUBMIT,
      json("POST", record("wave_energy", ["wave-1"]), researcher),
    );
    await t.step("two approvals at once: one 200, one 409", async () => {
      const [x, y] = await Promise.all([
        call(built.app, ...review(a.body.submission_id, "approve")),
        call(built.app, ...review(a.body.submission_id, "approve")),
      ]);
      assert.deepEqual([x.status, y.status].sort(), [200, 409]);
    });
    await t.step("a record that no longer fits: 409, stays pending", async () => {
      const late = await call(built.app, ...review(b.body.submission_id, "approve"));
      assert.equal(late.status, 409);
      assert.match(late.body.error, /no longer fits the catalogue; reject it$/);
      assert.match(late.body.details.problems[0], /already has instance "wave-1"/);
      const pending = await call(
        built.app,
        "/api/v1/admin/technologies/submissions",
        bearer(admin),
      );
      assert.deepEqual(
        pending.body.submissions.map((s: { submission_id: string }) => s.submission_id),
        [
          b.body.submission_id,
        ],
      );
    });
    await t.step("reject: 200, listed as rejected", async () => {
      const reply = await call(built.app, ...review(b.body.submission_id, "reject"));
      assert.equal(reply.status, 200);
      assert.equal(reply.body.status, "rejected");
      const rejected = await call(
        built.app,
        "/api/v1/admin/technologies/submissions?status=rejected",
        bearer(admin),
      );
      assert.equal(rejected.body.submissions.length, 1);
      const bad = await call(
        built.app,
        "/api/v1/admin/technologies/submissions?status=x",
        bearer(admin),
      );
      assert.equal(bad.status, 400);
    });
    await t.step("20 parallel submissions, each approved twice at once: 20 additions", async () => {
      const subs = await Promise.all(
        Array.from(
          { length: 20 },
          (_, i) =>
            call(
              built.app,
              SUBMIT,
              json("POST", record(`par_tech_${i}`, [`par_tech_${i}-1`]), researcher),
            ),
        ),
      );
      assert.ok(subs.every((s) => s.status === 202));
      const reviews = await Promise.all(
        subs.flatMap((s) =>
          [0, 1].map(() => call(built.app, ...review(s.body.submission_id, "approve")))
        ),
      );
      assert.equal(reviews.filter((r) => r.status === 200).length, 20);
      assert.equal(reviews.filter((r) => r.status === 409).length, 20);
      const list = await call(built.app, "/api/v1/technologies?tag=submitted&limit=200");
      assert.equal(list.body.total, 21);
    });
  } finally {
    await built.dispose();
  }
});

Deno.test("approved technologies survive a restart of the app", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/state.duckdb`;
  try {
    const first = await testApp({ store: await openStore(path) });
    const s = await call(
      first.app,
      SUBMIT,
      json("POST", record("kept_tech", ["kept-1"]), researcher),
    );
    await call(first.app, ...review(s.body.submission_id, "approve"));
    await first.dispose();
    const second = await testApp({ store: await openStore(path) });
    try {
      const detail = await call(second.app, "/api/v1/technologies/kept_tech");
      assert.equal(detail.status, 200);
      assert.equal(detail.body.instances[0].instance_id, "kept-1");
    } finally {
      await second.dispose();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
