import assert from "node:assert/strict";
import { openStore } from "../../../lib/store/store.ts";
import { ADMIN, bearer, call, json, RESEARCHER, testApp, tokenFor } from "./_catalogue.ts";

const researcher = await tokenFor(RESEARCHER);
const admin = await tokenFor(ADMIN);

function submit(body: unknown, token = researcher): RequestInit {
  return json("POST", body, token);
}

Deno.test("GET /api/v1/timeseries lists metadata, filtered and paginated", async (t) => {
  const built = await testApp();
  try {
    await t.step("all, default page", async () => {
      const { status, body } = await call(built.app, "/api/v1/timeseries");
      assert.equal(status, 200);
      assert.equal(body.total, 57);
      assert.equal(body.profiles.length, 50);
      assert.equal(body.profiles[0].values, undefined);
      assert.equal(body.profiles[0].n_timesteps, 8760);
      assert.equal(body.profiles[0].origin, "catalogue");
    });
    await t.step("type and location", async () => {
      const { body } = await call(built.app, "/api/v1/timeseries?type=capacity_factor&location=DK");
      assert.deepEqual(body.profiles.map((p: { profile_id: string }) => p.profile_id), [
        "DK_offshore_wind_2016",
        "DK_onshore_wind_2016",
        "DK_solar_pv_2016",
      ]);
      assert.equal(body.total, 3);
    });
    await t.step("skip and limit", async () => {
      const { body } = await call(built.app, "/api/v1/timeseries?skip=55&limit=10");
      assert.equal(body.profiles.length, 2);
    });
    await t.step("limit over 200 (the frontend asks 500): served at 200", async () => {
      const { status, body } = await call(built.app, "/api/v1/timeseries?limit=500");
      assert.equal(status, 200);
      assert.equal(body.limit, 200);
      assert.equal(body.profiles.length, 57);
    });
    for (const query of ["limit=0", "skip=-3", "limit=x"]) {
      await t.step(`${query}: 400`, async () => {
        const reply = await call(built.app, `/api/v1/timeseries?${query}`);
        assert.equal(reply.status, 400);
        assert.match(reply.body.error, /^Invalid query: (limit|skip): /);
      });
    }
  } finally {
    await built.dispose();
  }
});

Deno.test("GET /api/v1/timeseries/{id}/data gives metadata and values from memory", async () => {
  const built = await testApp();
  try {
    const res = await built.app.request("/api/v1/timeseries/DE_solar_pv_2016/data");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    const body = await res.json();
    assert.equal(body.profile_id, "DE_solar_pv_2016");
    assert.equal(body.type, "capacity_factor");
    assert.equal(body.values.length, 8760);
    assert.ok(body.values.every((v: number) => v >= 0 && v <= 1));
    const again = await (await built.app.request("/api/v1/timeseries/DE_solar_pv_2016/data"))
      .text();
    assert.equal(again, JSON.stringify(body));
    const missing = await call(built.app, "/api/v1/timeseries/XX_nothing/data");
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { error: 'Profile "XX_nothing" not found' });
  } finally {
    await built.dispose();
  }
});

Deno.test("POST /api/v1/timeseries/submit validates, queues and refuses taken ids", async (t) => {
  const built = await testApp();
  const path = "/api/v1/timeseries/submit";
  try {
    let id = "";
    await t.step("a valid body: 202 pending", async () => {
      const reply = await call(
        built.app,
        path,
        submit({
          profile_id: "FI_wind_2030",
          name: "Finland wind 2030",
          type: "capacity_factor",
          location: "FI",
          carrier: "wind",
          year: 2030,
          source: "Own model run",
          values: [0, 0.5, 1],
        }),
      );
      assert.equal(reply.status, 202);
      assert.equal(reply.body.status, "pending");
      assert.match(reply.body.submission_id, /^[0-9a-f-]{36}$/);
      id = reply.body.submission_id;
    });
    await t.step("not served while pending", async () => {
      assert.equal((await call(built.app, "/api/v1/timeseries/FI_wind_2030/data")).status, 404);
    });
    const cases: [string, RequestInit, number, RegExp][] = [
      ["no token", json("POST", { profile_id: "a", name: "a", values: [1] }), 401, /Missing/],
      [
        "missing name",
        submit({ profile_id: "a", values: [1] }),
        400,
        /^Invalid request body: name: is required/,
      ],
      ["missing values", submit({ profile_id: "a", name: "a" }), 400, /values: is required/],
      [
        "empty values",
        submit({ profile_id: "a", name: "a", values: [] }),
        400,
        /values: must have at least 1 items/,
      ],
      [
        "too many values",
        submit({ profile_id: "a", name: "a", values: new Array(35_137).fill(0) }),
        400,
        /values: must have at most 35136 items/,
      ],
      [
        "non-numbers",
        submit({ profile_id: "a", name: "a", values: [1, null] }),
        400,
        /values\[1\]/,
      ],
      [
        "capacity factor above 1",
        submit({ profile_id: "a", name: "a", type: "capacity_factor", values: [0.2, 1.5] }),
        400,
        /values\[1\]: 1\.5 is outside \[0, 1\] for a capacity factor/,
      ],
      [
        "unknown member",
        submit({ profile_id: "a", name: "a", values: [1], n: 1 }),
        400,
        /n: unknown member/,
      ],
      ["malformed JSON", submit('{"profile_id":'), 400, /^Malformed JSON in request body$/],
      [
        "id in the catalogue",
        submit({ profile_id: "DE_load_2016", name: "a", values: [1] }),
        409,
        /^Profile id "DE_load_2016" is already in the catalogue$/,
      ],
      [
        "id of a pending submission",
        submit({ profile_id: "FI_wind_2030", name: "again", values: [1] }),
        409,
        /already used by a pending or approved submission/,
      ],
    ];
    for (const [name, init, status, error] of cases) {
      await t.step(`${name}: ${status}`, async () => {
        const reply = await call(built.app, path, init);
        assert.equal(reply.status, status);
        assert.match(reply.body.error, error);
      });
    }
    await t.step("the admin list shows the pending submission with statistics", async () => {
      const reply = await call(built.app, "/api/v1/admin/timeseries/submissions", bearer(admin));
      assert.equal(reply.status, 200);
      assert.equal(reply.body.submissions.length, 1);
      const [s] = reply.body.submissions;
      assert.equal(s.submission_id, id);
      assert.deepEqual(s.submitted_by, { subject: RESEARCHER.sub, name: RESEARCHER.name });
      assert.deepEqual(s.profile.statistics, { min: 0, max: 1, mean: 0.5 });
      assert.equal(s.profile.values, undefined);
      const none = await call(
        built.app,
        "/api/v1/admin/timeseries/submissions?status=approved",
        bearer(admin),
      );
      assert.deepEqual(none.body.submissions, []);
      const bad = await call(
        built.app,
        "/api/v1/admin/timeseries/submissions?status=done",
        bearer(admin),
      );
      assert.equal(bad.status, 400);
    });
  } finally {
    await built.dispose();
  }
});

Deno.test("PATCH /api/v1/admin/timeseries/{id}/approve serves the profile; reviews happen once", async (t) => {
  const built = await testApp();
  try {
    const submitted = await call(
      built.app,
      "/api/v1/timeseries/submit",
      submit({
        profile_id: "SE_load_2030",
        name: "Sweden load 2030",
        type: "load",
        location: "SE",
        values: [1500.5, 1600, 1700.25],
      }),
    );
    const id = submitted.body.submission_id;
    await t.step("approve: 200, then listed and served", async () => {
      const reply = await call(built.app, `/api/v1/admin/timeseries/${id}/approve`, {
        method: "PATCH",
        ...bearer(admin),
      });
      assert.equal(reply.status, 200);
      assert.equal(reply.body.status, "approved");
      assert.deepEqual(reply.body.reviewed_by, { subject: ADMIN.sub, name: ADMIN.name });
      const list = await call(built.app, "/api/v1/timeseries?location=SE");
      assert.equal(list.body.total, 1);
      assert.equal(list.body.profiles[0].origin, "submission");
      assert.equal(list.body.profiles[0].carrier, null, "a member not submitted is null");
      const data = await call(built.app, "/api/v1/timeseries/SE_load_2030/data");
      assert.deepEqual(data.body.values, [1500.5, 1600, 1700.25]);
      assert.equal(data.body.n_timesteps, 3);
      assert.equal(data.body.resolution, "1h");
    });
    await t.step("approve or reject again: 409; unknown id: 404", async () => {
      for (const action of ["approve", "reject"]) {
        const again = await call(built.app, `/api/v1/admin/timeseries/${id}/${action}`, {
          method: "PATCH",
          ...bearer(admin),
        });
        assert.equal(again.status, 409);
        assert.match(again.body.error, /is approved, not pending/);
      }
      const unknown = await call(built.app, "/api/v1/admin/timeseries/nope/approve", {
        method: "PATCH",
        ...bearer(admin),
      });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error, 'Time-series submission "nope" not found');
    });
    await t.step("an approved id cannot be submitted again", async () => {
      const reply = await call(
        built.app,
        "/api/v1/timeseries/submit",
        submit({
          profile_id: "SE_load_2030",
          name: "x",
          values: [1],
        }),
      );
      assert.equal(reply.status, 409);
    });
    await t.step("reject: 200, never served, the id is free again", async () => {
      const other = await call(
        built.app,
        "/api/v1/timeseries/submit",
        submit({
          profile_id: "NL_price_2030",
          name: "x",
          values: [50],
        }),
      );
      const reply = await call(
        built.app,
        `/api/v1/admin/timeseries/${other.body.submission_id}/reject`,
        {
          method: "PATCH",
          ...bearer(admin),
        },
      );
      assert.equal(reply.status, 200);
      assert.equal(reply.body.status, "rejected");
      assert.equal((await call(built.app, "/api/v1/timeseries/NL_price_2030/data")).status, 404);
      const resubmit = await call(
        built.app,
        "/api/v1/timeseries/submit",
        submit({
          profile_id: "NL_price_2030",
          name: "x",
          values: [51],
        }),
      );
      assert.equal(resubmit.status, 202);
    });
  } finally {
    await built.dispose();
  }
});

Deno.test("50 parallel submissions and parallel double approvals lose nothing", async () => {
  const built = await testApp();
  try {
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(
          built.app,
          "/api/v1/timeseries/submit",
          submit({
            profile_id: `PAR_${i}`,
            name: `Parallel ${i}`,
            values: [i, i + 1],
          }),
        )),
    );
    assert.deepEqual([...new Set(replies.map((r) => r.status))], [202]);
    const ids = replies.map((r) => r.body.submission_id);
    assert.equal(new Set(ids).size, 50);
    const list = await call(built.app, "/api/v1/admin/timeseries/submissions", bearer(admin));
    assert.equal(list.body.submissions.length, 50);

    const same = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(
          built.app,
          "/api/v1/timeseries/submit",
          submit({
            profile_id: "SAME_ID",
            name: "x",
            values: [1],
          }),
        )),
    );
    assert.deepEqual(same.map((r) => r.status).sort(), [202, ...new Array(9).fill(409)]);

    const reviews = await Promise.all(
      ids.flatMap((id) =>
        [0, 1].map(() =>
          call(built.app, `/api/v1/admin/timeseries/${id}/approve`, {
            method: "PATCH",
            ...bearer(admin),
          })
        )
      ),
    );
    assert.equal(reviews.filter((r) => r.status === 200).length, 50);
    assert.equal(reviews.filter((r) => r.status === 409).length, 50);
    const served = await call(built.app, "/api/v1/timeseries?type=&limit=200");
    assert.equal(served.status, 400, "an empty filter value is invalid");
    const all = await call(built.app, "/api/v1/timeseries?limit=200");
    assert.equal(all.body.total, 57 + 50);
  } finally {
    await built.dispose();
  }
});

Deno.test("approved profiles and pending submissions survive a restart of the app", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/state.duckdb`;
  try {
    const first = await testApp({ store: await openStore(path) });
    const a = await call(
      first.app,
      "/api/v1/timeseries/submit",
      submit({
        profile_id: "KEEP_A",
        name: "Kept",
        values: [0.125],
      }),
    );
    await call(
      first.app,
      "/api/v1/timeseries/submit",
      submit({
        profile_id: "KEEP_B",
        name: "Pending",
        values: [2],
      }),
    );
    await call(first.app, `/api/v1/admin/timeseries/${a.body.submission_id}/approve`, {
      method: "PATCH",
      ...bearer(admin),
    });
    await first.dispose();

    const second = await testApp({ store: await openStore(path) });
    try {
      const data = await call(second.app, "/api/v1/timeseries/KEEP_A/data");
      assert.deepEqual(data.body.values, [0.125]);
      const pending = await call(second.app, "/api/v1/admin/timeseries/submissions", bearer(admin));
      assert.deepEqual(
        pending.body.submissions.map((s: { profile: { profile_id: string } }) =>
          s.profile.profile_id
        ),
        [
          "KEEP_B",
        ],
      );
    } finally {
      await second.dispose();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
