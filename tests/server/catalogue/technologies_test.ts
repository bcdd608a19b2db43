import assert from "node:assert/strict";
import { call, json, testApp } from "./_catalogue.ts";

const built = await testApp();
const { app } = built;
// One app for the file; its store is closed when the last test ends.
let remaining = 9;
async function done() {
  if (--remaining === 0) await built.dispose();
}

Deno.test("GET /api/v1/technologies pages through summaries with instance counts", async (t) => {
  try {
    await t.step("defaults: skip 0, limit 50", async () => {
      const { status, body } = await call(app, "/api/v1/technologies");
      assert.equal(status, 200);
      assert.equal(body.total, 39);
      assert.equal(body.skip, 0);
      assert.equal(body.limit, 50);
      assert.equal(body.technologies.length, 39);
      const first = body.technologies[0];
      assert.equal(first.instances, undefined);
      assert.equal(typeof first.instance_count, "number");
      assert.match(first.oeo_class, /^OEO_\d+$/);
      assert.match(first.oeo_uri, /^https:\/\/openenergyplatform\.org\/ontology\/oeo\/OEO_\d+$/);
    });
    await t.step("skip and limit", async () => {
      const all = (await call(app, "/api/v1/technologies?limit=200")).body.technologies;
      const { body } = await call(app, "/api/v1/technologies?skip=5&limit=3");
      assert.deepEqual(body.technologies, all.slice(5, 8));
      assert.equal(body.total, 39);
      const past = await call(app, "/api/v1/technologies?skip=500");
      assert.deepEqual(past.body.technologies, []);
    });
    await t.step("tag and lifecycle filters", async () => {
      const solar = await call(app, "/api/v1/technologies?tag=solar");
      assert.ok(solar.body.total > 0);
      assert.ok(solar.body.technologies.every((x: { tags: string[] }) => x.tags.includes("solar")));
      const demo = await call(app, "/api/v1/technologies?lifecycle=demonstration&limit=200");
      const ids = demo.body.technologies.map((x: { technology_id: string }) => x.technology_id);
      assert.ok(ids.includes("sensible_thermal_storage"), "matched through an instance's stage");
      assert.ok(ids.includes("offshore_wind_floating"));
      const retired = await call(app, "/api/v1/technologies?lifecycle=retired");
      assert.deepEqual(retired.body, { total: 0, skip: 0, limit: 50, technologies: [] });
    });
  } finally {
    await done();
  }
});

Deno.test("GET /api/v1/technologies serves a limit over 200 at 200", async () => {
  try {
    for (
      const path of [
        "/api/v1/technologies?limit=201",
        "/api/v1/technologies/category/storage?limit=999",
      ]
    ) {
      const { status, body } = await call(app, path);
      assert.equal(status, 200, path);
      assert.equal(body.limit, 200, path);
    }
  } finally {
    await done();
  }
});

Deno.test("GET /api/v1/technologies rejects invalid query values with 400", async (t) => {
  try {
    const cases: [string, RegExp][] = [
      ["limit=0", /^Invalid query: limit: must be >= 1$/],
      ["limit=abc", /^Invalid query: limit: must be a non-negative integer$/],
      ["limit=1.5", /^Invalid query: limit: must be a non-negative integer$/],
      ["skip=-1", /^Invalid query: skip: must be a non-negative integer$/],
      ["lifecycle=obsolete", /^Invalid query: lifecycle: must be one of commercial/],
      ["tag=", /^Invalid query: tag: /],
      [
        "type=generation",
        /^Invalid query: type: must be one of supply, supply_plus, storage, transmission, conversion$/,
      ],
    ];
    for (const [query, error] of cases) {
      await t.step(query, async () => {
        const { status, body } = await call(app, `/api/v1/technologies?${query}`);
        assert.equal(status, 400);
        assert.match(body.error, error);
        assert.ok(Array.isArray(body.details), "details lists the issues");
        assert.equal(typeof body.details[0].path, "string");
      });
    }
  } finally {
    await done();
  }
});

Deno.test("GET /api/v1/technologies/category/{cat} filters by domain; unknown is 400", async () => {
  try {
    const { status, body } = await call(app, "/api/v1/technologies/category/storage?limit=2");
    assert.equal(status, 200);
    assert.equal(body.limit, 2);
    assert.equal(body.technologies.length, 2);
    assert.ok(body.technologies.every((x: { domain: string }) => x.domain === "storage"));
    const tagged = await call(app, "/api/v1/technologies/category/storage?tag=hydrogen");
    assert.equal(tagged.body.total, 3);
    const unknown = await call(app, "/api/v1/technologies/category/nuclear");
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.error, /^Invalid path: cat: must be one of generation, storage/);
    const badQuery = await call(app, "/api/v1/technologies/category/storage?limit=0");
    assert.equal(badQuery.status, 400);
  } finally {
    await done();
  }
});

Deno.test("GET /api/v1/technologies/{id} gives the detail with every instance", async () => {
  try {
    const { status, headers, body } = await call(app, "/api/v1/technologies/onshore_wind");
    assert.equal(status, 200);
    assert.match(headers.get("content-type") ?? "", /^application\/json/);
    assert.equal(body.technology_id, "onshore_wind");
    assert.equal(body.oeo_class, "OEO_00000311");
    assert.equal(body.oeo_uri, "https://openenergyplatform.org/ontology/oeo/OEO_00000311");
    assert.equal(body.domain, "generation");
    assert.ok(body.instances.length > 0);
    const first = body.instances[0];
    for (const field of first.missing_fields) assert.equal(first[field], null, field);
    assert.ok(first.missing_fields.includes("efficiency_percent"));
    assert.equal(first.efficiency_percent, null);
    const missing = await call(app, "/api/v1/technologies/no_such_technology");
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { error: 'Technology "no_such_technology" not found' });
  } finally {
    await done();
  }
});

Deno.test("GET /api/v1/technologies/{id}/instances and /instances/{iid}", async () => {
  try {
    const list = await call(app, "/api/v1/technologies/lithium_ion_bess/instances");
    assert.equal(list.status, 200);
    assert.equal(list.body.technology_id, "lithium_ion_bess");
    const [first] = list.body.instances;
    const one = await call(
      app,
      `/api/v1/technologies/lithium_ion_bess/instances/${first.instance_id}`,
    );
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, first);
    const noTech = await call(app, "/api/v1/technologies/nope/instances");
    assert.equal(noTech.status, 404);
    const noInstance = await call(app, "/api/v1/technologies/lithium_ion_bess/instances/nope");
    assert.equal(noInstance.status, 404);
    assert.equal(noInstance.body.error, 'Technology "lithium_ion_bess" has no instance "nope"');
    const noBoth = await call(app, "/api/v1/technologies/nope/instances/nope");
    assert.equal(noBoth.status, 404);
  } finally {
    await done();
  }
});

Deno.test("/api/v1/technologies/calliope is not read as a technology id; unknown routes 404, wrong methods 405", async () => {
  try {
    const techs = await call(app, "/api/v1/technologies/calliope");
    assert.equal(techs.status, 200);
    assert.ok("techs" in techs.body);
    const unknown = await call(app, "/api/v1/nothing/here");
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { error: "Not found: GET /api/v1/nothing/here" });
    const method = await call(app, "/api/v1/technologies", { method: "DELETE" });
    assert.equal(method.status, 405);
    // POST is OpenTech-DB's frontend's submission.
    assert.equal(method.headers.get("allow"), "GET, POST, HEAD");
    assert.match(method.body.error, /^Method DELETE is not allowed on \/api\/v1\/technologies/);
  } finally {
    await done();
  }
});

Deno.test("GET /api/v1/technologies?type= filters by the Calliope parent of the adapter", async (t) => {
  try {
    const all = (await call(app, "/api/v1/technologies?limit=200")).body.technologies;
    const byType = new Map<string, string[]>();
    for (const type of ["supply", "supply_plus", "storage", "transmission", "conversion"]) {
      const { status, body } = await call(app, `/api/v1/technologies?type=${type}&limit=200`);
      assert.equal(status, 200, type);
      assert.equal(body.total, body.technologies.length);
      byType.set(type, body.technologies.map((x: { technology_id: string }) => x.technology_id));
    }
    await t.step("every technology has exactly one type", () => {
      const listed = [...byType.values()].flat();
      assert.equal(listed.length, all.length);
      assert.equal(new Set(listed).size, all.length);
    });
    await t.step("variable renewables are supply_plus, dispatchable plants supply", () => {
      assert.ok(byType.get("supply_plus")?.includes("onshore_wind"));
      assert.ok(byType.get("supply_plus")?.includes("solar_pv_utility_scale"));
      assert.ok(byType.get("supply")?.includes("combined_cycle_gas_turbine_ccgt"));
      assert.ok(!byType.get("supply")?.includes("onshore_wind"));
    });
    await t.step("storage, transmission and conversion follow the domain", () => {
      for (const type of ["storage", "transmission", "conversion"]) {
        const domains = all
          .filter((x: { technology_id: string }) => byType.get(type)?.includes(x.technology_id))
          .map((x: { domain: string }) => x.domain);
        assert.deepEqual([...new Set(domains)], [type]);
      }
    });
    await t.step("type combines with the other filters and the page", async () => {
      const { body } = await call(app, "/api/v1/technologies?type=storage&tag=hydrogen&limit=2");
      assert.equal(body.total, 3);
      assert.equal(body.technologies.length, 2);
    });
  } finally {
    await done();
  }
});

Deno.test("POST /api/v1/technologies/batch gives details in the order asked and lists unknown ids", async (t) => {
  try {
    await t.step("known and unknown ids", async () => {
      const { status, headers, body } = await call(
        app,
        "/api/v1/technologies/batch",
        json("POST", { ids: ["lithium_ion_bess", "no_such_technology", "onshore_wind"] }),
      );
      assert.equal(status, 200);
      assert.match(headers.get("content-type") ?? "", /^application\/json/);
      assert.deepEqual(
        body.technologies.map((x: { technology_id: string }) => x.technology_id),
        ["lithium_ion_bess", "onshore_wind"],
      );
      assert.deepEqual(body.unknown, ["no_such_technology"]);
      const detail = await call(app, "/api/v1/technologies/onshore_wind");
      assert.deepEqual(body.technologies[1], detail.body, "the same detail as GET /{id}");
    });
    await t.step("only unknown ids: 200 with none found", async () => {
      const { status, body } = await call(
        app,
        "/api/v1/technologies/batch",
        json("POST", { ids: ["nope", "__proto__"] }),
      );
      assert.equal(status, 200);
      assert.deepEqual(body, { technologies: [], unknown: ["nope", "__proto__"] });
    });
    await t.step("an id asked twice is answered once", async () => {
      const { body } = await call(
        app,
        "/api/v1/technologies/batch",
        json("POST", { ids: ["onshore_wind", "x", "onshore_wind", "x"] }),
      );
      assert.equal(body.technologies.length, 1);
      assert.deepEqual(body.unknown, ["x"]);
    });
    await t.step("200 ids are allowed", async () => {
      const ids = Array.from({ length: 200 }, (_, i) => `missing_${i}`);
      const { status, body } = await call(app, "/api/v1/technologies/batch", json("POST", { ids }));
      assert.equal(status, 200);
      assert.equal(body.unknown.length, 200);
    });
    const cases: [string, RequestInit, number, RegExp][] = [
      ["malformed JSON", json("POST", "{"), 400, /^Malformed JSON in request body$/],
      ["no ids", json("POST", {}), 400, /^Invalid request body: ids: is required$/],
      ["empty list", json("POST", { ids: [] }), 400, /ids: must have at least 1 items/],
      [
        "201 ids",
        json("POST", { ids: Array.from({ length: 201 }, (_, i) => `t${i}`) }),
        400,
        /ids: must have at most 200 items/,
      ],
      ["an id not a string", json("POST", { ids: ["a", 3] }), 400, /ids\[1\]: must be a string/],
      ["an empty id", json("POST", { ids: [""] }), 400, /ids\[0\]: must have at least 1/],
      ["ids not a list", json("POST", { ids: "onshore_wind" }), 400, /ids: must be an array/],
      ["other members", json("POST", { ids: ["a"], limit: 3 }), 400, /limit: unknown member/],
      ["a JSON array", json("POST", ["onshore_wind"]), 400, /^Invalid request body/],
      [
        "not JSON",
        { method: "POST", body: "ids=a", headers: { "Content-Type": "text/plain" } },
        415,
        /./,
      ],
    ];
    for (const [name, init, status, error] of cases) {
      await t.step(name, async () => {
        const reply = await call(app, "/api/v1/technologies/batch", init);
        assert.equal(reply.status, status);
        assert.match(reply.body.error, error);
      });
    }
    await t.step("documented in the OpenAPI document", async () => {
      const { body } = await call(app, "/openapi.json");
      const batch = body.paths["/api/v1/technologies/batch"]?.post;
      assert.ok(batch, "POST /api/v1/technologies/batch is documented");
      assert.deepEqual(Object.keys(batch.responses).sort(), ["200", "400", "413", "415"]);
      const list = body.paths["/api/v1/technologies"].get;
      const type = list.parameters.find((p: { name: string }) => p.name === "type");
      assert.deepEqual(type.schema.enum, [
        "supply",
        "supply_plus",
        "storage",
        "transmission",
        "conversion",
      ]);
    });
  } finally {
    await done();
  }
});
