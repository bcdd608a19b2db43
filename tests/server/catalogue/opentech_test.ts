/**
 * Contract tests of what OpenTech-DB's own frontend reads (frontend/src/types, services and
 * views at c2f9bc1): the members beside the spec's, and every compatibility route with its
 * error rows.
 */
import assert from "node:assert/strict";
import bcrypt from "bcryptjs";
import { MAX_ERROR_BYTES } from "../../../server/middleware/errors.ts";
import { ADMIN, bearer, call, json, RESEARCHER, testApp, tokenFor } from "./_catalogue.ts";

const researcher = await tokenFor(RESEARCHER);
const admin = await tokenFor(ADMIN);
const FRONTEND = "http://localhost:5173";

const PAYLOAD = {
  technology_name: "Test large heat pump",
  domain: "conversion",
  carrier: "heat",
  oeo_class: "https://openenergyplatform.org/ontology/oeo/OEO_00000089",
  description: "A large electric heat pump for district heating",
  instances: [{
    variant_name: "Large 2025",
    capex_usd_per_kw: 900,
    opex_fixed_usd_per_kw_yr: 10,
    opex_var_usd_per_mwh: 1,
    efficiency_percent: 95,
    lifetime_years: 20,
    capacity_mw: 0,
    co2_emission_factor_operational_g_per_kwh: 0,
    reference_source: "Danish Energy Agency",
  }],
};

function form(file: string, fileName = "profile.csv", fields: Record<string, string> = {}) {
  const body = new FormData();
  const all = {
    name: "Test wind",
    type: "capacity_factor",
    resolution: "hourly",
    location: "de",
    source: "Test source",
    carrier: "wind",
    year: "2019",
    ...fields,
  };
  for (const [k, v] of Object.entries(all)) body.set(k, v);
  body.set("file", new File([file], fileName));
  return body;
}

const CSV = "timestamp,value\n2019-01-01T00:00:00Z,0.1\n2019-01-01T01:00:00Z,0.2\n" +
  "2019-01-01T02:00:00Z,0.3\n";

Deno.test("what the frontend reads beside the spec's members", async (t) => {
  const built = await testApp();
  try {
    await t.step(
      "category list items: id, name, category, oeo_class, oeo_uri, n_instances",
      async () => {
        const { body } = await call(built.app, "/api/v1/technologies/category/storage?limit=200");
        for (const item of body.technologies) {
          assert.equal(item.id, item.technology_id);
          assert.equal(item.name, item.technology_name);
          assert.equal(item.category, "storage");
          assert.equal(item.n_instances, item.instance_count);
          assert.ok("oeo_class" in item && "oeo_uri" in item);
        }
      },
    );
    await t.step("detail: carriers and instance figures as {value, unit, source}", async () => {
      const { body } = await call(built.app, "/api/v1/technologies/onshore_wind");
      assert.equal(body.id, "onshore_wind");
      assert.equal(body.name, body.technology_name);
      assert.deepEqual(body.input_carriers, []);
      assert.deepEqual(body.output_carriers, ["electricity"]);
      const first = body.instances[0];
      assert.equal(first.id, first.instance_id);
      assert.equal(first.label, first.instance_name);
      assert.deepEqual(first.capex_per_kw, {
        value: first.capex_usd_per_kw,
        unit: "USD/kW",
        source: first.reference_source,
      });
      assert.equal(first.economic_lifetime_yr.value, first.lifetime_years);
      assert.equal(first.electrical_efficiency, null, "wind has no efficiency: null, not 0");
      assert.equal(first.co2_emission_factor.value, 0);
    });
    await t.step("detail: heat output is a thermal efficiency, a fraction", async () => {
      const { body } = await call(built.app, "/api/v1/technologies/onshore_wind/instances");
      assert.ok(body.instances.every((i: { id: string }) => typeof i.id === "string"));
    });
    await t.step("profile data: points with the 29 February of 2016 dropped", async () => {
      const { body } = await call(built.app, "/api/v1/timeseries/DE_solar_pv_2016/data");
      assert.equal(body.points.length, 8760);
      assert.equal(body.points[0].timestamp, "2016-01-01T00:00:00Z");
      assert.equal(body.points[1416].timestamp, "2016-03-01T00:00:00Z");
      assert.equal(body.points[8759].timestamp, "2016-12-31T23:00:00Z");
      assert.equal(body.points[500].value, body.values[500]);
    });
    await t.step("/auth/me: id, username, is_contributor beside the spec's profile", async () => {
      const { status, body } = await call(built.app, "/api/v1/auth/me", bearer(researcher));
      assert.equal(status, 200);
      assert.equal(body.id, body.subject);
      assert.equal(body.username, body.name);
      assert.equal(body.is_contributor, true);
      assert.equal(body.auth_provider, "orcid");
    });
  } finally {
    await built.dispose();
  }
});

Deno.test("admin sign-in answers token and user beside access_token", async () => {
  const built = await testApp({
    config: {
      admin: { email: "admin@example.org", passwordHash: bcrypt.hashSync("pass-word-123", 4) },
    },
  });
  try {
    const { status, body } = await call(
      built.app,
      "/api/v1/auth/admin/login",
      json("POST", { email: "admin@example.org", password: "pass-word-123" }),
    );
    assert.equal(status, 200);
    assert.equal(body.token, body.access_token);
    assert.equal(body.user.is_admin, true);
    assert.equal(body.user.auth_provider, "admin");
    assert.equal(body.user.username, "Administrator");
  } finally {
    await built.dispose();
  }
});

Deno.test("ontology schema lists the served vocabularies", async () => {
  const built = await testApp();
  try {
    const { status, body } = await call(built.app, "/api/v1/ontology/schema");
    assert.equal(status, 200);
    assert.deepEqual(body.allowed_domains, ["generation", "storage", "transmission", "conversion"]);
    assert.ok(body.allowed_carriers.includes("electricity"));
    assert.ok(body.allowed_oeo_classes.every((c: string) => c.startsWith("https://")));
    assert.ok(body.allowed_reference_sources.length > 0);
  } finally {
    await built.dispose();
  }
});

Deno.test("technology submission, my submissions and review in the frontend's form", async (t) => {
  const built = await testApp();
  try {
    let first = "";
    let second = "";
    await t.step("POST /technologies: 401 without a token, with `detail`", async () => {
      const { status, body } = await call(built.app, "/api/v1/technologies", json("POST", PAYLOAD));
      assert.equal(status, 401);
      assert.equal(body.detail, body.error);
    });
    await t.step(
      "POST /technologies: 400 for a bad payload, 400 for an unknown class",
      async () => {
        const bad = await call(
          built.app,
          "/api/v1/technologies",
          json("POST", { ...PAYLOAD, instances: [] }, researcher),
        );
        assert.equal(bad.status, 400);
        assert.match(bad.body.detail, /instances/);
        const unknown = await call(
          built.app,
          "/api/v1/technologies",
          json("POST", { ...PAYLOAD, oeo_class: "OEO_99999999" }, researcher),
        );
        assert.equal(unknown.status, 400);
        assert.match(unknown.body.error, /oeo_class/);
      },
    );
    await t.step("POST /technologies: 202 pending_review", async () => {
      const a = await call(built.app, "/api/v1/technologies", json("POST", PAYLOAD, researcher));
      assert.equal(a.status, 202);
      assert.equal(a.body.status, "pending_review");
      assert.equal(a.body.technology_name, PAYLOAD.technology_name);
      assert.equal(a.body.technology_id, "test_large_heat_pump");
      first = a.body.id;
      const b = await call(
        built.app,
        "/api/v1/technologies",
        json("POST", { ...PAYLOAD, technology_name: "Second heat pump" }, researcher),
      );
      second = b.body.id;
    });
    await t.step("GET /submissions/mine: the caller's, newest first", async () => {
      const { status, body, headers } = await call(
        built.app,
        "/api/v1/submissions/mine",
        bearer(researcher),
      );
      assert.equal(status, 200);
      assert.deepEqual(body.map((s: { submission_id: string }) => s.submission_id), [
        second,
        first,
      ]);
      assert.equal(headers.get("x-total-count"), "2");
      assert.equal(body[1].status, "pending_review");
      assert.equal(body[1].payload.instances[0].capacity_mw, null, "0 MW read as not given");
      const none = await call(built.app, "/api/v1/submissions/mine", bearer(admin));
      assert.deepEqual(none.body, []);
      assert.equal((await call(built.app, "/api/v1/submissions/mine")).status, 401);
    });
    await t.step("GET /admin/submissions: admin only, status words", async () => {
      assert.equal(
        (await call(built.app, "/api/v1/admin/submissions", bearer(researcher))).status,
        403,
      );
      const { body } = await call(
        built.app,
        "/api/v1/admin/submissions?status=pending_review",
        bearer(admin),
      );
      assert.equal(body.length, 2);
      const bad = await call(built.app, "/api/v1/admin/submissions?status=done", bearer(admin));
      assert.equal(bad.status, 400);
      assert.match(bad.body.detail, /status/);
    });
    await t.step("POST /admin/submissions/{id}: approve an edited payload", async () => {
      const edited = { ...PAYLOAD, description: "Corrected by the admin" };
      const { status, body } = await call(
        built.app,
        `/api/v1/admin/submissions/${first}`,
        json("POST", { action: "approve", edited_payload: edited, admin_notes: "thanks" }, admin),
      );
      assert.equal(status, 200);
      assert.deepEqual(body, { status: "approved", submission_id: first });
      const served = await call(built.app, "/api/v1/technologies/test_large_heat_pump");
      assert.equal(served.body.description, "Corrected by the admin");
      assert.equal(served.body.instances[0].thermal_efficiency.value, 0.95);
      const again = await call(
        built.app,
        `/api/v1/admin/submissions/${first}`,
        json("POST", { action: "reject" }, admin),
      );
      assert.equal(again.status, 409);
    });
    await t.step("reject with a reason, shown to the submitter", async () => {
      const { status } = await call(
        built.app,
        `/api/v1/admin/submissions/${second}`,
        json("POST", { action: "reject", reason: "Duplicate" }, admin),
      );
      assert.equal(status, 200);
      const { body } = await call(built.app, "/api/v1/submissions/mine", bearer(researcher));
      assert.equal(body[0].status, "rejected");
      assert.equal(body[0].rejection_reason, "Duplicate");
      assert.equal(body[1].rejection_reason, "thanks");
      const missing = await call(
        built.app,
        "/api/v1/admin/submissions/no-such",
        json("POST", { action: "approve" }, admin),
      );
      assert.equal(missing.status, 404);
      const badAction = await call(
        built.app,
        `/api/v1/admin/submissions/${second}`,
        json("POST", { action: "delete" }, admin),
      );
      assert.equal(badAction.status, 400);
    });
  } finally {
    await built.dispose();
  }
});

Deno.test("profile upload and review in the frontend's form", async (t) => {
  const built = await testApp({ config: { opentechOrigins: [FRONTEND] } });
  const upload = (body: FormData, token = researcher) =>
    built.app.request("/api/v1/timeseries/upload", {
      method: "POST",
      body,
      headers: { Authorization: `Bearer ${token}` },
    });
  try {
    let id = "";
    await t.step("401 without a token, 415 for JSON, 400 for bad rows", async () => {
      const anonymous = await built.app.request("/api/v1/timeseries/upload", {
        method: "POST",
        body: form(CSV),
      });
      assert.equal(anonymous.status, 401);
      const asJson = await call(
        built.app,
        "/api/v1/timeseries/upload",
        json("POST", { name: "x" }, researcher),
      );
      assert.equal(asJson.status, 415);
      const bad = await upload(
        form("timestamp,value\n2019-01-01T00:00:00Z,x\n2019-01-01T01:00:00Z,1\n"),
      );
      assert.equal(bad.status, 400);
      const body = await bad.json();
      assert.match(body.detail, /not a number/);
      const noFile = new FormData();
      noFile.set("name", "x");
      assert.equal((await upload(noFile)).status, 400);
    });
    await t.step("202 pending_review with a profile id from the name", async () => {
      const res = await upload(form(CSV));
      assert.equal(res.status, 202);
      const body = await res.json();
      assert.equal(body.status, "pending_review");
      assert.equal(body.n_timesteps, 3);
      assert.match(body.profile_id, /^test_wind_[0-9a-f]{8}$/);
      id = body.submission_id;
    });
    await t.step(
      "the list: the frontend's array for its origin, the envelope otherwise",
      async () => {
        const array = await call(built.app, "/api/v1/admin/timeseries/submissions", {
          headers: { Authorization: `Bearer ${admin}`, Origin: FRONTEND },
        });
        assert.equal(array.status, 200);
        assert.ok(Array.isArray(array.body));
        assert.equal(array.body[0].status, "pending_review");
        assert.equal(array.body[0].location, "DE");
        assert.equal(array.body[0].stats.v_max, 0.3);
        assert.equal(array.body[0].stats.first_ts, "2019-01-01T00:00:00Z");
        const envelope = await call(
          built.app,
          "/api/v1/admin/timeseries/submissions",
          bearer(admin),
        );
        assert.equal(envelope.body.total, 1);
        const forbidden = await call(built.app, "/api/v1/admin/timeseries/submissions", {
          headers: { Authorization: `Bearer ${researcher}`, Origin: FRONTEND },
        });
        assert.equal(forbidden.status, 403);
      },
    );
    await t.step("data: points and statistics; 404 for an unknown id", async () => {
      const { status, body } = await call(
        built.app,
        `/api/v1/admin/timeseries/submissions/${id}/data`,
        bearer(admin),
      );
      assert.equal(status, 200);
      assert.deepEqual(body.points[2], { timestamp: "2019-01-01T02:00:00Z", value: 0.3 });
      assert.equal(body.stats.v_min, 0.1);
      const missing = await call(
        built.app,
        "/api/v1/admin/timeseries/submissions/nope/data",
        bearer(admin),
      );
      assert.equal(missing.status, 404);
      assert.ok(missing.body.detail);
    });
    await t.step("approve: served with its start; a second decision is 409", async () => {
      const { status, body } = await call(
        built.app,
        `/api/v1/admin/timeseries/submissions/${id}`,
        json("POST", { action: "approve" }, admin),
      );
      assert.equal(status, 200);
      assert.equal(body.status, "approved");
      const list = await call(built.app, "/api/v1/timeseries?limit=1000");
      const served = list.body.profiles.find((p: { name: string }) => p.name === "Test wind");
      assert.equal(served.start, "2019-01-01T00:00:00Z");
      const data = await call(built.app, `/api/v1/timeseries/${served.profile_id}/data`);
      assert.equal(data.body.points[1].timestamp, "2019-01-01T01:00:00Z");
      const again = await call(
        built.app,
        `/api/v1/admin/timeseries/submissions/${id}`,
        json("POST", { action: "reject", reason: "late" }, admin),
      );
      assert.equal(again.status, 409);
    });
  } finally {
    await built.dispose();
  }
});

Deno.test("catalogue management: list, edit, delete (admin only, kept across restarts)", async (t) => {
  const built = await testApp();
  try {
    await t.step("GET /admin/technologies: file-form entries", async () => {
      assert.equal((await call(built.app, "/api/v1/admin/technologies")).status, 401);
      assert.equal(
        (await call(built.app, "/api/v1/admin/technologies", bearer(researcher))).status,
        403,
      );
      const { body } = await call(built.app, "/api/v1/admin/technologies", bearer(admin));
      const wind = body.find((t: { technology_id: string }) => t.technology_id === "onshore_wind");
      assert.match(wind.oeo_class, /^https:\/\//);
      assert.equal(wind.source, "catalogue_file");
      assert.equal(wind.instances[0].missing_fields, undefined);
      assert.ok("capacity_mw" in wind.instances[0]);
    });
    await t.step("PATCH: the edit form's body round-trips; bad values are 400", async () => {
      const { body: list } = await call(built.app, "/api/v1/admin/technologies", bearer(admin));
      const wind = list.find((t: { technology_id: string }) => t.technology_id === "onshore_wind");
      const instances = wind.instances.map((i: Record<string, unknown>) => ({
        ...i,
        capex_usd_per_kw: 1500,
      }));
      const ok = await call(
        built.app,
        "/api/v1/admin/technologies/onshore_wind",
        json("PATCH", { technology_name: "Onshore wind (edited)", instances }, admin),
      );
      assert.equal(ok.status, 200);
      assert.deepEqual(ok.body, { status: "updated", technology_id: "onshore_wind" });
      const served = await call(built.app, "/api/v1/technologies/onshore_wind");
      assert.equal(served.body.name, "Onshore wind (edited)");
      assert.equal(served.body.instances[0].capex_per_kw.value, 1500);
      const bad = await call(
        built.app,
        "/api/v1/admin/technologies/onshore_wind",
        json("PATCH", { technology_name: "" }, admin),
      );
      assert.equal(bad.status, 400);
      assert.ok(bad.body.detail);
      const missing = await call(
        built.app,
        "/api/v1/admin/technologies/nope",
        json("PATCH", { description: "x" }, admin),
      );
      assert.equal(missing.status, 404);
    });
    await t.step("DELETE: gone from the lists; 404 the second time", async () => {
      const del = await call(built.app, "/api/v1/admin/technologies/lead_acid_batteries", {
        method: "DELETE",
        headers: { Authorization: `Bearer ${admin}` },
      });
      assert.equal(del.status, 200);
      assert.equal(del.body.technology_name, "Lead-acid batteries");
      assert.equal((await call(built.app, "/api/v1/technologies/lead_acid_batteries")).status, 404);
      const again = await call(built.app, "/api/v1/admin/technologies/lead_acid_batteries", {
        method: "DELETE",
        headers: { Authorization: `Bearer ${admin}` },
      });
      assert.equal(again.status, 404);
    });
    await t.step("a new app over the same store serves the edit and the delete", async () => {
      const second = await testApp({ store: built.store });
      try {
        const wind = await call(second.app, "/api/v1/technologies/onshore_wind");
        assert.equal(wind.body.technology_name, "Onshore wind (edited)");
        const gone = await call(second.app, "/api/v1/technologies/lead_acid_batteries");
        assert.equal(gone.status, 404);
      } finally {
        await second.close();
      }
    });
  } finally {
    await built.dispose();
  }
});

Deno.test("DELETE /timeseries/{id}: admin only, kept across restarts", async (t) => {
  const built = await testApp();
  const remove = (id: string, token?: string) =>
    call(built.app, `/api/v1/timeseries/${id}`, {
      method: "DELETE",
      ...(token ? { headers: { Authorization: `Bearer ${token}` } } : {}),
    });
  try {
    await t.step("401 and 403 with `detail`, 404 for an unknown id", async () => {
      const anonymous = await remove("DK_load_2016");
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.body.detail, anonymous.body.error);
      assert.equal((await remove("DK_load_2016", researcher)).status, 403);
      assert.equal((await remove("no_such_profile", admin)).status, 404);
    });
    await t.step("200, then gone from the list and the data route", async () => {
      const { status, body } = await remove("DK_load_2016", admin);
      assert.equal(status, 200);
      assert.deepEqual(body, { status: "deleted", profile_id: "DK_load_2016" });
      const list = await call(built.app, "/api/v1/timeseries?limit=200");
      assert.equal(list.body.total, 56);
      assert.equal((await call(built.app, "/api/v1/timeseries/DK_load_2016/data")).status, 404);
      assert.equal((await remove("DK_load_2016", admin)).status, 404);
    });
    await t.step("a new app over the same store still hides it", async () => {
      const second = await testApp({ store: built.store });
      try {
        const data = await call(second.app, "/api/v1/timeseries/DK_load_2016/data");
        assert.equal(data.status, 404);
      } finally {
        await second.close();
      }
    });
  } finally {
    await built.dispose();
  }
});

Deno.test("a submitted generation technology produces electricity from its resource", async () => {
  const built = await testApp();
  try {
    const wind = {
      ...PAYLOAD,
      technology_name: "Test small wind turbine",
      domain: "generation",
      carrier: "wind",
      oeo_class: "https://openenergyplatform.org/ontology/oeo/OEO_00000311",
    };
    const sent = await call(built.app, "/api/v1/technologies", json("POST", wind, researcher));
    assert.equal(sent.status, 202);
    const list = await call(built.app, "/api/v1/admin/submissions", bearer(admin));
    assert.equal(list.body[0].payload.carrier, "wind", "the payload gives back what was sent");
    assert.equal(list.body[0].submitter_email, "Josiah Carberry (0000-0002-1825-0097)");
    await call(
      built.app,
      `/api/v1/admin/submissions/${sent.body.id}`,
      json("POST", { action: "approve" }, admin),
    );
    const { body } = await call(built.app, `/api/v1/technologies/${sent.body.technology_id}`);
    assert.equal(body.carrier, "electricity");
    assert.deepEqual(body.input_carriers, []);
    assert.deepEqual(body.output_carriers, ["electricity"]);
  } finally {
    await built.dispose();
  }
});

Deno.test("an error with `detail` stays within the error bound for a huge id", async () => {
  const built = await testApp();
  try {
    const id = "9".repeat(60_000);
    const res = await built.app.request(`/api/v1/admin/technologies/${id}`, {
      method: "DELETE",
      headers: { Authorization: `Bearer ${admin}` },
    });
    const bytes = new Uint8Array(await res.arrayBuffer());
    assert.equal(res.status, 404);
    assert.ok(bytes.length <= MAX_ERROR_BYTES, `${bytes.length} bytes`);
    const body = JSON.parse(new TextDecoder().decode(bytes));
    assert.ok(body.error.includes(id));
    assert.ok(body.detail.endsWith("…"));
  } finally {
    await built.dispose();
  }
});

Deno.test("profile data with points: gzipped once for clients that accept it", async () => {
  const built = await testApp();
  try {
    const path = "/api/v1/timeseries/DE_solar_pv_2016/data";
    const plain = await built.app.request(path);
    const text = await plain.text();
    assert.match(plain.headers.get("vary") ?? "", /Accept-Encoding/);
    for (let i = 0; i < 2; i++) {
      const zipped = await built.app.request(path, { headers: { "Accept-Encoding": "gzip, br" } });
      assert.equal(zipped.headers.get("content-encoding"), "gzip");
      assert.match(zipped.headers.get("content-type") ?? "", /^application\/json/);
      const bytes = new Uint8Array(await zipped.arrayBuffer());
      assert.ok(bytes.length * 5 < text.length, `${bytes.length} gzipped of ${text.length}`);
      const unzipped = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      assert.equal(await new Response(unzipped).text(), text);
    }
  } finally {
    await built.dispose();
  }
});

Deno.test("CORS lets the frontend's origin DELETE", async () => {
  const built = await testApp({ config: { allowedOrigins: [FRONTEND] } });
  try {
    const res = await built.app.request("/api/v1/admin/technologies/x", {
      method: "OPTIONS",
      headers: {
        Origin: FRONTEND,
        "Access-Control-Request-Method": "DELETE",
        "Access-Control-Request-Headers": "authorization",
      },
    });
    await res.body?.cancel();
    assert.match(res.headers.get("access-control-allow-methods") ?? "", /DELETE/);
  } finally {
    await built.dispose();
  }
});
