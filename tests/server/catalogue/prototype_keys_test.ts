/**
 * Prototype pollution (issue 7, finding 5): every request body that the catalogue merges into
 * objects is tried with the keys `__proto__`, `constructor` and `prototype` at every level where a
 * caller chooses keys; each is refused with 400 naming the key, and no built-in object changes.
 */
import assert from "node:assert/strict";
import bcrypt from "bcryptjs";
import { ScraperConfigSchema } from "../../../lib/scraper/config.ts";
import { startFakeSources } from "../../scraper/_sources.ts";
import { ADMIN, bearer, call, json, RESEARCHER, testApp, tokenFor } from "./_catalogue.ts";

const researcher = await tokenFor(RESEARCHER);
const admin = await tokenFor(ADMIN);
const KEYS = ["__proto__", "constructor", "prototype"] as const;

/** A JSON text with `key` as a member of the object at `path` (spliced in: `__proto__` too). */
function withKey(body: Record<string, unknown>, path: string[], key: string): string {
  const marker = "__MARKER__";
  const copy = structuredClone(body);
  let target: Record<string, unknown> = copy;
  for (const segment of path) target = target[segment] as Record<string, unknown>;
  target[marker] = { energy_cap: 5, polluted: true };
  return JSON.stringify(copy).replace(`"${marker}"`, JSON.stringify(key));
}

/** Throws when a built-in object carries what the bodies tried to put there. */
function assertNoPollution(): void {
  const probe: Record<string, unknown> = {};
  assert.equal(probe["polluted"], undefined, "Object.prototype.polluted");
  assert.equal(probe["energy_cap"], undefined, "Object.prototype.energy_cap");
  for (const target of [Object, Function.prototype, Object.prototype.toString, Array.prototype]) {
    assert.equal(Object.hasOwn(target, "energy_cap"), false, `${String(target)}.energy_cap`);
    assert.equal(Object.hasOwn(target, "polluted"), false, `${String(target)}.polluted`);
  }
}

function technologyRecord(id: string) {
  return {
    technology_id: id,
    technology_name: `Technology ${id}`,
    domain: "generation",
    carrier: "electricity",
    oeo_class: null,
    description: null,
    instances: [{
      instance_id: `${id}-1`,
      instance_name: "One",
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

/** Every merge of a request body: path, token, a valid body, and where a caller names keys. */
const BODIES: {
  name: string;
  path: string;
  token?: string;
  body: Record<string, unknown>;
  levels: string[][];
}[] = [
  {
    name: "Calliope overrides",
    path: "/api/v1/technologies/onshore_wind/calliope",
    body: { constraints: { lifetime: 30 }, costs: { monetary: { energy_cap: 900 } } },
    levels: [[], ["constraints"], ["costs"], ["costs", "monetary"]],
  },
  {
    name: "technology submission (planMerge, additions)",
    path: "/api/v1/technologies/submit",
    token: researcher,
    body: technologyRecord("pollution_test"),
    levels: [[], ["instances", "0"]],
  },
  {
    name: "time-series submission",
    path: "/api/v1/timeseries/submit",
    token: researcher,
    body: { profile_id: "POLLUTION_TEST", name: "Test", values: [0.5] },
    levels: [[]],
  },
  {
    name: "scraper run request",
    path: "/api/v1/scraper/run",
    token: admin,
    body: { sources: ["openalex"] },
    levels: [[]],
  },
  {
    name: "admin sign-in",
    path: "/api/v1/auth/admin/login",
    body: { email: "admin@example.org", password: "x" },
    levels: [[]],
  },
];

Deno.test("every request body refuses __proto__, constructor and prototype keys with 400", async (t) => {
  const built = await testApp({
    config: {
      admin: { email: "admin@example.org", passwordHash: bcrypt.hashSync("pw", 4) },
      login: { attemptsPerMinute: 1000, accountAttemptsPerMinute: 1000, queueLimit: 8 },
    },
  });
  try {
    for (const { name, path, token, body, levels } of BODIES) {
      for (const level of levels) {
        for (const key of KEYS) {
          const where = [...level, key].join(".");
          await t.step(`${name}: ${where}`, async () => {
            const reply = await call(
              built.app,
              path,
              json("POST", withKey(body, level, key), token),
            );
            assert.equal(reply.status, 400, JSON.stringify(reply.body));
            const named = where.replace(/\.(\d+)\./g, "[$1].").replace(/\.(\d+)$/, "[$1]");
            assert.ok(
              reply.body.error.includes(`${named}: `),
              `"${reply.body.error}" names ${named}`,
            );
            assertNoPollution();
          });
        }
      }
    }
  } finally {
    await built.dispose();
  }
});

Deno.test("Calliope overrides refuse every Object.prototype member as a cost class", async (t) => {
  const built = await testApp();
  try {
    const path = "/api/v1/technologies/onshore_wind/calliope";
    for (const key of [...KEYS, "toString", "valueOf", "hasOwnProperty", "__defineGetter__"]) {
      await t.step(key, async () => {
        const body = `{"costs": {${JSON.stringify(key)}: {"energy_cap": 5}}}`;
        const reply = await call(built.app, path, json("POST", body));
        assert.equal(reply.status, 400);
        assert.match(reply.body.error, new RegExp(`costs\\.${key}: reserved name`));
        assertNoPollution();
        const query = await call(built.app, `${path}?cost_class=${key}`);
        assert.equal(query.status, 400, "nor as the cost_class of the query");
        assert.match(query.body.error, /^Invalid query: cost_class: reserved name/);
      });
    }
    await t.step("an ordinary new cost class is still added", async () => {
      const reply = await call(
        built.app,
        path,
        json("POST", { costs: { co2: { om_prod: 0.02 } } }),
      );
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.body.onshore_wind.costs.co2, { om_prod: 0.02 });
    });
  } finally {
    await built.dispose();
  }
});

Deno.test("a technology named constructor is served, adapted and scraped like any other", async () => {
  const sources = await startFakeSources();
  const built = await testApp({
    config: {
      scraper: ScraperConfigSchema.parse({
        base_urls: {
          openalex: `${sources.server.url}/openalex`,
          crossref: `${sources.server.url}/crossref`,
          arxiv: `${sources.server.url}/arxiv`,
        },
        timeout_ms: 2_000,
        request_interval_ms: { arxiv: 0 },
      }),
    },
  });
  try {
    const submitted = await call(
      built.app,
      "/api/v1/technologies/submit",
      json("POST", technologyRecord("constructor"), researcher),
    );
    assert.equal(submitted.status, 202);
    const approved = await call(
      built.app,
      `/api/v1/admin/technologies/submissions/${submitted.body.submission_id}/approve`,
      { method: "PATCH", ...bearer(admin) },
    );
    assert.equal(approved.status, 200);
    assert.equal((await call(built.app, "/api/v1/technologies/constructor")).status, 200);
    const techs = await call(built.app, "/api/v1/technologies/calliope");
    assert.equal(techs.body.techs.constructor.essentials.name, "Technology constructor");
    const run = await call(
      built.app,
      "/api/v1/scraper/run",
      json("POST", { wait: true, technology_ids: ["constructor"] }, admin),
    );
    assert.equal(run.status, 200, JSON.stringify(run.body));
    assert.deepEqual(run.body.errors, []);
    assertNoPollution();
  } finally {
    await built.dispose();
    await sources.close();
  }
});
