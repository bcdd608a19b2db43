import assert from "node:assert/strict";
import { ADMIN, bearer, call, json, RESEARCHER, testApp, tokenFor } from "./_catalogue.ts";

const researcher = await tokenFor(RESEARCHER);
const colleague = await tokenFor({
  sub: "0000-0001-5109-3700",
  name: "Colleague",
  is_admin: false,
  orcid: "0000-0001-5109-3700",
});
const admin = await tokenFor(ADMIN);

const TIMESERIES_LIST = "/api/v1/admin/timeseries/submissions";
const TECHNOLOGY_LIST = "/api/v1/admin/technologies/submissions";

function profile(i: number) {
  return { profile_id: `LIST_${i}`, name: `Listed ${i}`, values: [i, i + 1, i + 2] };
}

function technology(i: number) {
  return {
    technology_id: `listed_${i}`,
    technology_name: `Listed ${i}`,
    domain: "generation",
    carrier: "electricity",
    oeo_class: null,
    description: null,
    instances: [{
      instance_id: `listed_${i}-1`,
      instance_name: `Listed ${i}`,
      typical_capacity_mw: 1,
      capex_usd_per_kw: 1000,
      opex_fixed_usd_per_kw_yr: null,
      opex_var_usd_per_mwh: null,
      efficiency_percent: null,
      lifetime_years: 20,
      co2_emission_factor_operational_g_per_kwh: null,
      ramping_rate_percent_per_min: null,
      reference_source: "Test",
    }],
  };
}

Deno.test("the admin submission lists are paged: total, skip, limit; values of the page only", async (t) => {
  const built = await testApp();
  try {
    // One after another, so that submission order is the loop's order.
    for (let i = 0; i < 5; i++) {
      const ts = await call(
        built.app,
        "/api/v1/timeseries/submit",
        json("POST", profile(i), researcher),
      );
      assert.equal(ts.status, 202);
      const tech = await call(
        built.app,
        "/api/v1/technologies/submit",
        json("POST", technology(i), researcher),
      );
      assert.equal(tech.status, 202);
    }

    await t.step("time series: a page in submission order, with the total", async () => {
      const page = await call(built.app, `${TIMESERIES_LIST}?skip=1&limit=2`, bearer(admin));
      assert.equal(page.status, 200);
      assert.deepEqual(Object.keys(page.body), ["total", "skip", "limit", "submissions"]);
      assert.deepEqual([page.body.total, page.body.skip, page.body.limit], [5, 1, 2]);
      assert.deepEqual(
        page.body.submissions.map((s: { profile: { profile_id: string } }) => s.profile.profile_id),
        ["LIST_1", "LIST_2"],
      );
      const [first] = page.body.submissions;
      assert.equal(first.profile.values, undefined);
      assert.equal(first.profile.n_timesteps, 3);
      assert.deepEqual(first.profile.statistics, { min: 1, max: 3, mean: 2 });
    });

    await t.step("time series: default page (50), status filter kept", async () => {
      const all = await call(built.app, TIMESERIES_LIST, bearer(admin));
      assert.deepEqual([all.body.total, all.body.skip, all.body.limit], [5, 0, 50]);
      assert.equal(all.body.submissions.length, 5);
      const approved = await call(built.app, `${TIMESERIES_LIST}?status=approved`, bearer(admin));
      assert.deepEqual([approved.body.total, approved.body.submissions.length], [0, 0]);
    });

    await t.step("technology: a page in submission order, with the total", async () => {
      const page = await call(built.app, `${TECHNOLOGY_LIST}?skip=3&limit=5`, bearer(admin));
      assert.equal(page.status, 200);
      assert.deepEqual([page.body.total, page.body.skip, page.body.limit], [5, 3, 5]);
      assert.deepEqual(
        page.body.submissions.map((s: { technology_id: string }) => s.technology_id),
        ["listed_3", "listed_4"],
      );
      assert.deepEqual(page.body.submissions[0].instance_ids, ["listed_3-1"]);
    });

    for (const list of [TIMESERIES_LIST, TECHNOLOGY_LIST]) {
      for (const query of ["limit=201", "limit=0", "skip=-1", "skip=x"]) {
        await t.step(`${list}?${query}: 400`, async () => {
          const reply = await call(built.app, `${list}?${query}`, bearer(admin));
          assert.equal(reply.status, 400);
          assert.match(reply.body.error, /^Invalid query: (limit|skip): /);
        });
      }
    }
  } finally {
    await built.dispose();
  }
});

Deno.test("a submitter over MAX_PENDING_SUBMISSIONS gets 429 until a submission is reviewed", async () => {
  const built = await testApp({ config: { maxPendingSubmissions: 2 } });
  try {
    const ts = await call(
      built.app,
      "/api/v1/timeseries/submit",
      json("POST", profile(0), researcher),
    );
    const tech = await call(
      built.app,
      "/api/v1/technologies/submit",
      json("POST", technology(0), researcher),
    );
    assert.deepEqual([ts.status, tech.status], [202, 202]);

    const moreTs = await call(
      built.app,
      "/api/v1/timeseries/submit",
      json("POST", profile(1), researcher),
    );
    assert.equal(moreTs.status, 429);
    assert.deepEqual(moreTs.body, {
      error: `${RESEARCHER.sub} has 2 submissions pending review, the most allowed is 2: ` +
        "submit more once some are reviewed",
    });
    const moreTech = await call(
      built.app,
      "/api/v1/technologies/submit",
      json("POST", technology(1), researcher),
    );
    assert.equal(moreTech.status, 429, "technology and time series count together");

    const other = await call(
      built.app,
      "/api/v1/timeseries/submit",
      json("POST", profile(2), colleague),
    );
    assert.equal(other.status, 202, "another submitter has their own allowance");

    const reject = await call(
      built.app,
      `/api/v1/admin/timeseries/${ts.body.submission_id}/reject`,
      { method: "PATCH", ...bearer(admin) },
    );
    assert.equal(reject.status, 200);
    const again = await call(
      built.app,
      "/api/v1/timeseries/submit",
      json("POST", profile(1), researcher),
    );
    assert.equal(again.status, 202, "a reviewed submission frees its place");
  } finally {
    await built.dispose();
  }
});
