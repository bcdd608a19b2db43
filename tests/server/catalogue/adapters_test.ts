import assert from "node:assert/strict";
import { capitalRecoveryFactor } from "../../../lib/catalogue/adapters/annuity.ts";
import { call, json, testApp } from "./_catalogue.ts";

const built = await testApp();
const { app } = built;
const wind = (await call(app, "/api/v1/technologies/onshore_wind")).body;
let remaining = 5;
async function done() {
  if (--remaining === 0) await built.dispose();
}

Deno.test("GET /api/v1/adapt/pypsa/{id} annualises capex with the capital recovery factor", async (t) => {
  try {
    await t.step("defaults: instance 0, discount rate 0.07", async () => {
      const { status, body } = await call(app, "/api/v1/adapt/pypsa/onshore_wind");
      assert.equal(status, 200);
      const i = wind.instances[0];
      assert.equal(body.component_type, "Generator");
      assert.equal(body.instance_index, 0);
      assert.equal(body.discount_rate, 0.07);
      const crf = capitalRecoveryFactor(0.07, i.lifetime_years);
      const expected = i.capex_usd_per_kw * 1000 * crf + i.opex_fixed_usd_per_kw_yr * 1000;
      assert.ok(Math.abs(body.parameters.capital_cost - expected) < 1e-6);
      assert.equal(body.parameters.marginal_cost, i.opex_var_usd_per_mwh);
      assert.equal(body.parameters.lifetime, i.lifetime_years);
      assert.equal(body.parameters.efficiency, null, "the source has no efficiency");
      assert.ok(body.missing.includes("efficiency_percent"));
    });
    await t.step("another instance and discount rate", async () => {
      const { body } = await call(
        app,
        "/api/v1/adapt/pypsa/onshore_wind?instance_index=1&discount_rate=0",
      );
      const i = wind.instances[1];
      assert.equal(body.instance_id, i.instance_id);
      const expected = i.capex_usd_per_kw * 1000 / i.lifetime_years +
        i.opex_fixed_usd_per_kw_yr * 1000;
      assert.ok(Math.abs(body.parameters.capital_cost - expected) < 1e-6);
    });
    await t.step("component types by domain", async () => {
      const storage = await call(app, "/api/v1/adapt/pypsa/lithium_ion_bess");
      assert.equal(storage.body.component_type, "StorageUnit");
      assert.equal(storage.body.parameters.max_hours, null);
      const sized = await call(app, "/api/v1/adapt/pypsa/lithium_ion_bess?max_hours=4");
      assert.equal(sized.body.parameters.max_hours, 4);
      assert.ok(sized.body.parameters.capital_cost > storage.body.parameters.capital_cost);
      const line = await call(app, "/api/v1/adapt/pypsa/hvac_overhead_line");
      assert.equal(line.body.component_type, "Link");
      assert.equal(line.body.parameters.capital_cost, null, "per km: needs ?length_km=");
      const long = await call(app, "/api/v1/adapt/pypsa/hvac_overhead_line?length_km=100");
      const l = (await call(app, "/api/v1/technologies/hvac_overhead_line")).body.instances[0];
      const expected = l.capex_usd_per_kw_km * 100 * 1000 * capitalRecoveryFactor(0.07, 40) +
        l.opex_fixed_usd_per_kw_km_yr * 100 * 1000;
      assert.ok(Math.abs(long.body.parameters.capital_cost - expected) < 1e-6);
    });
    await t.step(
      "fuel: price / efficiency added, gas Carrier; ?fuel=false leaves it out",
      async () => {
        const ccgt = (await call(app, "/api/v1/technologies/combined_cycle_gas_turbine_ccgt")).body;
        const fuels = (await call(app, "/api/v1/fuels?year=2025")).body.fuels;
        const gas = fuels.find((f: { fuel_id: string }) => f.fuel_id === "gas");
        const i = ccgt.instances[0];
        const { body } = await call(app, "/api/v1/adapt/pypsa/combined_cycle_gas_turbine_ccgt");
        const expected = i.opex_var_usd_per_mwh +
          gas.price_usd_per_mwh_th / (i.efficiency_percent / 100);
        assert.ok(Math.abs(body.parameters.marginal_cost - expected) < 1e-9);
        assert.equal(body.parameters.carrier, "gas");
        assert.deepEqual(body.carriers, { gas: { co2_emissions: gas.co2_intensity_t_per_mwh_th } });
        assert.equal(body.parameters.co2_emissions, undefined);
        const off = await call(
          app,
          "/api/v1/adapt/pypsa/combined_cycle_gas_turbine_ccgt?fuel=false",
        );
        assert.equal(off.body.parameters.marginal_cost, i.opex_var_usd_per_mwh);
        assert.equal(off.body.parameters.carrier, "electricity");
        assert.deepEqual(off.body.carriers, {});
        const bad = await call(app, "/api/v1/adapt/pypsa/combined_cycle_gas_turbine_ccgt?fuel=no");
        assert.equal(bad.status, 400);
      },
    );
  } finally {
    await done();
  }
});

Deno.test("GET /api/v1/adapt/pypsa/{id} errors: 400 bad rate or index, 404 unknown", async (t) => {
  try {
    const cases: [string, number, RegExp][] = [
      ["onshore_wind?discount_rate=-0.01", 400, /^Invalid query: discount_rate: must be >= 0$/],
      ["onshore_wind?discount_rate=abc", 400, /discount_rate: must be a decimal number/],
      ["onshore_wind?discount_rate=2", 400, /discount_rate: must be <= 1/],
      ["onshore_wind?instance_index=-1", 400, /instance_index: must be a non-negative integer/],
      ["lithium_ion_bess?max_hours=0", 400, /max_hours: must be > 0/],
      ["lithium_ion_bess?max_hours=x", 400, /max_hours: must be a decimal number/],
      ["onshore_wind?instance_index=99", 404, /^Technology "onshore_wind" has no instance 99/],
      ["no_such_tech", 404, /^Technology "no_such_tech" not found$/],
    ];
    for (const [path, status, error] of cases) {
      await t.step(path, async () => {
        const reply = await call(app, `/api/v1/adapt/pypsa/${path}`);
        assert.equal(reply.status, status);
        assert.match(reply.body.error, error);
      });
    }
  } finally {
    await done();
  }
});

Deno.test("GET /api/v1/adapt/calliope/{id} and /technologies/{id}/calliope", async (t) => {
  try {
    await t.step("the configuration keyed by technology id", async () => {
      const { status, body } = await call(app, "/api/v1/adapt/calliope/onshore_wind");
      assert.equal(status, 200);
      const tech = body.onshore_wind;
      assert.equal(tech.essentials.parent, "supply_plus");
      assert.equal(tech.essentials.carrier_out, "electricity");
      assert.equal(tech.costs.monetary.energy_cap, wind.instances[0].capex_usd_per_kw);
      assert.equal(tech.costs.monetary.interest_rate, 0.07);
      const same = await call(app, "/api/v1/technologies/onshore_wind/calliope");
      assert.deepEqual(same.body, body);
    });
    await t.step("notes, omitted and units beside the tech block", async () => {
      const { body } = await call(app, "/api/v1/adapt/calliope/onshore_wind");
      assert.deepEqual(Object.keys(body), [
        "onshore_wind",
        "notes",
        "omitted",
        "units",
        "conversion",
      ]);
      assert.equal(body.conversion, null, "wind is output based, as Calliope's energy_cap");
      assert.ok(
        body.notes.some((n: string) => n.includes("constraints.resource")),
        "wind needs a resource",
      );
      // Issue 18: a capacity-factor resource is output per kW, so energy_eff is 1.
      assert.equal(body.onshore_wind.constraints.energy_eff, 1);
      assert.equal(body.onshore_wind.constraints.resource, "file=onshore_wind.csv");
      const served = [
        ...Object.keys(body.onshore_wind.constraints).map((k) => `constraints.${k}`),
        ...Object.keys(body.onshore_wind.costs.monetary).map((k) => `costs.monetary.${k}`),
      ];
      assert.deepEqual(Object.keys(body.units).sort(), served.sort());
      assert.equal(body.units["costs.monetary.energy_cap"], "USD/kW");
    });
    await t.step("fuel and capacity basis", async () => {
      const { body } = await call(app, "/api/v1/adapt/calliope/combined_cycle_gas_turbine_ccgt");
      const costs = body.combined_cycle_gas_turbine_ccgt.costs;
      assert.ok(costs.monetary.om_con > 0);
      assert.ok(costs.co2.om_con > 0);
      assert.equal(body.units["costs.co2.om_con"], "tCO2/kWh (per kWh of fuel consumed)");
      const off = await call(
        app,
        "/api/v1/technologies/combined_cycle_gas_turbine_ccgt/calliope?fuel=false",
      );
      assert.equal(off.body.combined_cycle_gas_turbine_ccgt.costs.monetary.om_con, undefined);
      assert.equal(off.body.combined_cycle_gas_turbine_ccgt.costs.co2, undefined);
      const alk = await call(app, "/api/v1/adapt/calliope/alkaline_electrolyzer");
      assert.equal(alk.body.conversion.from, "input");
      assert.equal(alk.body.conversion.to, "output");
    });
    await t.step("interest_rate follows the query", async () => {
      const { body } = await call(app, "/api/v1/adapt/calliope/onshore_wind?interest_rate=0.03");
      assert.equal(body.onshore_wind.costs.monetary.interest_rate, 0.03);
      const bad = await call(app, "/api/v1/adapt/calliope/onshore_wind?interest_rate=1.5");
      assert.equal(bad.status, 400);
      assert.match(bad.body.error, /interest_rate: must be <= 1/);
    });
    await t.step("cost class and instance index", async () => {
      const { body } = await call(
        app,
        "/api/v1/technologies/onshore_wind/calliope?cost_class=capex_only&instance_index=1",
      );
      assert.deepEqual(Object.keys(body.onshore_wind.costs), ["capex_only"]);
      assert.equal(
        body.onshore_wind.costs.capex_only.energy_cap,
        wind.instances[1].capex_usd_per_kw,
      );
    });
    const cases: [string, number][] = [
      ["/api/v1/adapt/calliope/onshore_wind?cost_class=1bad", 400],
      ["/api/v1/adapt/calliope/onshore_wind?instance_index=x", 400],
      ["/api/v1/adapt/calliope/onshore_wind?instance_index=50", 404],
      ["/api/v1/adapt/calliope/nope", 404],
      ["/api/v1/technologies/nope/calliope", 404],
      ["/api/v1/technologies/onshore_wind/calliope?instance_index=50", 404],
    ];
    for (const [path, status] of cases) {
      await t.step(`${path}: ${status}`, async () => {
        const reply = await call(app, path);
        assert.equal(reply.status, status);
        assert.equal(typeof reply.body.error, "string");
      });
    }
  } finally {
    await done();
  }
});

Deno.test("GET /api/v1/technologies/calliope gives a techs block, optionally of one category", async () => {
  try {
    const all = await call(app, "/api/v1/technologies/calliope");
    assert.equal(Object.keys(all.body.techs).length, 39);
    const storage = await call(app, "/api/v1/technologies/calliope?category=storage");
    assert.ok(
      Object.values(storage.body.techs).every((x) =>
        (x as { essentials: { parent: string } }).essentials.parent === "storage"
      ),
    );
    assert.equal(Object.keys(storage.body.techs).length, 10);
    const unknown = await call(app, "/api/v1/technologies/calliope?category=fusion");
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.error, /^Invalid query: category: must be one of/);
  } finally {
    await done();
  }
});

Deno.test("POST /api/v1/technologies/{id}/calliope overrides generated members", async (t) => {
  try {
    await t.step("constraints and costs replace and add members", async () => {
      const { status, body } = await call(
        app,
        "/api/v1/technologies/onshore_wind/calliope",
        json("POST", {
          constraints: { energy_cap_max: 50000, lifetime: 30 },
          costs: { monetary: { energy_cap: 900 }, emissions: { om_prod: 0.01 } },
        }),
      );
      assert.equal(status, 200);
      const tech = body.onshore_wind;
      assert.equal(tech.constraints.energy_cap_max, 50000);
      assert.equal(tech.constraints.lifetime, 30);
      assert.equal(tech.costs.monetary.energy_cap, 900);
      assert.equal(tech.costs.monetary.om_annual, wind.instances[0].opex_fixed_usd_per_kw_yr);
      assert.equal(tech.costs.emissions.om_prod, 0.01);
    });
    await t.step("an empty body gives the generated configuration", async () => {
      const posted = await call(
        app,
        "/api/v1/technologies/onshore_wind/calliope",
        json("POST", {}),
      );
      const got = await call(app, "/api/v1/technologies/onshore_wind/calliope");
      assert.deepEqual(posted.body, { onshore_wind: got.body.onshore_wind });
    });
    const cases: [string, RequestInit, number, RegExp][] = [
      [
        "unknown top-level key",
        json("POST", { essentials: {} }),
        400,
        /essentials: unknown member/,
      ],
      [
        "unknown constraint",
        json("POST", { constraints: { energy_cap_maxx: 1 } }),
        400,
        /constraints\.energy_cap_maxx: unknown member/,
      ],
      [
        "non-numeric value",
        json("POST", { constraints: { energy_cap_max: "big" } }),
        400,
        /constraints\.energy_cap_max: must be a number/,
      ],
      [
        "key not allowed for the parent",
        json("POST", { constraints: { storage_time_max: 10 } }),
        400,
        /constraints\.storage_time_max: not allowed for a supply_plus technology/,
      ],
      ["malformed JSON", json("POST", "{"), 400, /^Malformed JSON in request body$/],
      [
        "not JSON",
        { method: "POST", headers: { "Content-Type": "text/plain" }, body: "x" },
        415,
        /^Unsupported Media Type$/,
      ],
    ];
    for (const [name, init, status, error] of cases) {
      await t.step(name, async () => {
        const reply = await call(app, "/api/v1/technologies/onshore_wind/calliope", init);
        assert.equal(reply.status, status);
        assert.match(reply.body.error, error);
      });
    }
    await t.step("unknown technology: 404", async () => {
      const reply = await call(app, "/api/v1/technologies/nope/calliope", json("POST", {}));
      assert.equal(reply.status, 404);
    });
  } finally {
    await done();
  }
});
