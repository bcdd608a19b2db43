import assert from "node:assert/strict";
import { ZodError } from "zod";
import {
  applyCalliopeOverrides,
  CALLIOPE_ALLOWED,
  CALLIOPE_CONSTRAINT_KEYS,
  CALLIOPE_COST_KEYS,
  CALLIOPE_ESSENTIALS_KEYS,
  calliopeParent,
  type CalliopeTech,
  technologyColor,
  toCalliope,
  toCalliopeReport,
  toCalliopeTechs,
} from "../../lib/catalogue/calliope/mod.ts";
import {
  ALL,
  BATTERY,
  CCGT,
  ELECTROLYSER,
  HVDC,
  instance,
  ONSHORE_WIND,
  technology,
} from "../fixtures/calliope/technologies.ts";

function techOf(config: Record<string, CalliopeTech>, id: string): CalliopeTech {
  const tech = config[id];
  assert.ok(tech, `no technology ${id}`);
  return tech;
}

Deno.test("toCalliope() applies the catalogue relations", () => {
  const config = toCalliope(CCGT);
  assert.deepEqual(Object.keys(config), ["ccgt"]);
  assert.deepEqual(techOf(config, "ccgt"), {
    essentials: {
      name: "Combined cycle gas turbine",
      color: technologyColor("ccgt"),
      carrier_out: "electricity",
      parent: "supply",
    },
    constraints: {
      energy_eff: 0.58, // 58 % / 100
      energy_cap_max: 400_000, // 400 MW × 1000 = kW
      energy_ramping: 0.08, // 8 %/min / 100
      lifetime: 25,
    },
    costs: {
      monetary: {
        interest_rate: 0.07,
        energy_cap: 1000, // USD/kW
        om_annual: 20, // USD/kW/a
        om_prod: 0.004, // 4 USD/MWh / 1000 = USD/kWh
      },
    },
  });
});

Deno.test("toCalliope() honours instanceIndex and costClass", () => {
  const tech = techOf(toCalliope(CCGT, { instanceIndex: 1, costClass: "capex_only" }), "ccgt");
  assert.deepEqual(tech.costs, { capex_only: { interest_rate: 0.07, energy_cap: 950 } });
  assert.deepEqual(tech.constraints, { lifetime: 25 });
});

Deno.test("toCalliope() throws RangeError for a bad instance index, cost class or rate", () => {
  assert.throws(() => toCalliope(CCGT, { instanceIndex: 2 }), RangeError);
  assert.throws(() => toCalliope(CCGT, { instanceIndex: -1 }), RangeError);
  assert.throws(() => toCalliope(CCGT, { costClass: "a b" }), RangeError);
  assert.throws(() => toCalliope(CCGT, { interestRate: -0.1 }), RangeError);
});

Deno.test("calliopeParent() by domain", async (t) => {
  const cases: [string, typeof CCGT, string][] = [
    ["dispatchable generation", CCGT, "supply"],
    ["variable renewable (profile_key)", ONSHORE_WIND, "supply_plus"],
    ["storage", BATTERY, "storage"],
    ["transmission", HVDC, "transmission"],
    ["conversion", ELECTROLYSER, "conversion"],
  ];
  for (const [what, tech, parent] of cases) {
    await t.step(`${what} -> ${parent}`, () => {
      assert.equal(calliopeParent(tech), parent);
      assert.equal(techOf(toCalliope(tech), tech.technology_id).essentials.parent, parent);
    });
  }
  await t.step("a variable tag without profile_key -> supply_plus", () => {
    const pv = technology({
      technology_id: "solar_pv",
      domain: "generation",
      tags: ["variable"],
      instances: [instance({ instance_id: "solar_pv-2025" })],
    });
    assert.equal(calliopeParent(pv), "supply_plus");
  });
});

Deno.test("toCalliope() carriers: storage/transmission in = out; conversion: carrier_in", () => {
  assert.equal(techOf(toCalliope(CCGT), "ccgt").essentials.carrier_in, undefined);
  const battery = techOf(toCalliope(BATTERY), "li_ion_battery").essentials;
  assert.deepEqual([battery.carrier_in, battery.carrier_out], ["electricity", "electricity"]);
  const line = techOf(toCalliope(HVDC), "hvdc_overhead").essentials;
  assert.deepEqual([line.carrier_in, line.carrier_out], ["electricity", "electricity"]);
  const electrolyser = techOf(toCalliope(ELECTROLYSER), "pem_electrolyser").essentials;
  assert.deepEqual([electrolyser.carrier_in, electrolyser.carrier_out], [
    "electricity",
    "hydrogen",
  ]);
});

Deno.test("toCalliopeReport() leaves out missing figures and says so", () => {
  const report = toCalliopeReport(ONSHORE_WIND);
  const tech = techOf(report.config, "onshore_wind");
  assert.equal("energy_eff" in tech.constraints, false);
  assert.equal("energy_ramping" in tech.constraints, false);
  assert.deepEqual(report.omitted, ["constraints.energy_eff", "constraints.energy_ramping"]);
  assert.ok(report.notes.some((n) => n.includes("Calliope's defaults")));
  assert.ok(report.notes.some((n) => n.includes("resource = file=wind_onshore.csv")));
  assert.equal(tech.costs["monetary"]?.om_prod, 0, "a zero is a figure, not a missing one");
  for (const value of Object.values(tech.constraints)) assert.notEqual(value, null);
});

Deno.test("toCalliopeReport() names a conversion without input carrier", () => {
  const noInput = technology({
    technology_id: "methanation",
    domain: "conversion",
    carrier: "methane",
    instances: [instance({ instance_id: "methanation-2025" })],
  });
  const report = toCalliopeReport(noInput);
  assert.equal(techOf(report.config, "methanation").essentials.carrier_in, undefined);
  assert.ok(report.omitted.includes("essentials.carrier_in"));
  assert.ok(report.notes.some((n) => n.includes("needs essentials.carrier_in")));
});

Deno.test("toCalliopeReport() leaves energy_ramping out of transmission (not in 0.6)", () => {
  const report = toCalliopeReport(HVDC);
  const tech = techOf(report.config, "hvdc_overhead");
  assert.equal("energy_ramping" in tech.constraints, false);
  assert.ok(report.notes.some((n) => n.includes("constraints.energy_ramping left out")));
  assert.deepEqual(report.omitted, [
    "costs.monetary.energy_cap",
    "costs.monetary.om_annual",
    "constraints.energy_eff_per_distance",
  ]);
});

Deno.test("toCalliopeReport() gives energy_cap_per_distance per metre, Calliope 0.6's link unit (issue 18; was per km)", () => {
  const report = toCalliopeReport(HVDC);
  const tech = techOf(report.config, "hvdc_overhead");
  // calliope/config/defaults.yaml: energy_cap_per_distance, cost per kW and unit of distance;
  // Calliope 0.6 computes link distances in metres (vincenty) and has no run.distance_unit.
  // 1.2 USD/kW/km / 1000 = 0.0012 USD/kW per metre.
  assert.equal(tech.costs.monetary!.energy_cap_per_distance, 0.0012);
  assert.match(report.units["costs.monetary.energy_cap_per_distance"]!, /^USD\/kW\/m \(per metre/);
  assert.ok(
    report.notes.some((n) => n.includes("1.2 USD/kW/km / 1000 = 0.0012 USD/kW per metre")),
    report.notes.join("\n"),
  );
  assert.ok(report.notes.some((n) => n.includes("energy_eff_per_distance left out")));
  assert.ok(!JSON.stringify(report).includes("distance_unit"), "no run.distance_unit");
});

Deno.test("toCalliopeReport() states per-distance units per metre (issue 18)", () => {
  // A fixed O&M per km goes to the notes, per metre as well.
  const line = technology({
    technology_id: "line",
    domain: "transmission",
    instances: [
      instance({
        instance_id: "line-2025",
        capex_usd_per_kw_km: 0.5,
        opex_fixed_usd_per_kw_km_yr: 0.02,
      }),
    ],
  });
  const report = toCalliopeReport(line);
  assert.equal(techOf(report.config, "line").costs.monetary!.energy_cap_per_distance, 0.0005);
  assert.ok(report.notes.some((n) => n.includes("0.02 USD/kW/km/a (0.00002 USD/kW/m/a)")));
  // The key an override may set: its unit is per metre too.
  const overridden = applyCalliopeOverrides(report.config, {
    constraints: { energy_eff_per_distance: 0.9999999 },
  });
  assert.equal(techOf(overridden, "line").constraints.energy_eff_per_distance, 0.9999999);
  assert.ok(!JSON.stringify(report).includes('/km"'), "no unit per km among the units");
  for (const unit of Object.values(report.units)) assert.ok(!unit.includes("km"), unit);
});

Deno.test("toCalliopeReport() gives a variable renewable its profile as resource, energy_per_cap (issue 18; unlimited before)", async (t) => {
  const renewable = (profile_key: string | null, efficiency_percent: number | null) =>
    technology({
      technology_id: "plant",
      domain: "generation",
      tags: ["renewable", "variable"],
      profile_key,
      instances: [
        instance({
          instance_id: "plant-2025",
          capex_usd_per_kw: 1000,
          lifetime_years: 30,
          efficiency_percent,
        }),
      ],
    });
  await t.step("a capacity-factor profile: resource file=<key>.csv, energy_eff 1", () => {
    const report = toCalliopeReport(renewable("hydro_ror", 90));
    const tech = techOf(report.config, "plant");
    assert.equal(tech.essentials.parent, "supply_plus");
    assert.equal(tech.constraints.resource, "file=hydro_ror.csv");
    assert.equal(tech.constraints.resource_unit, "energy_per_cap");
    // The capacity factor is output per kW already: the 90 % would cut it by 10 %.
    assert.equal(tech.constraints.energy_eff, 1);
    assert.match(report.units["constraints.resource"]!, /capacity factor/);
    assert.ok(report.notes.some((n) => n.includes("energy_eff = 1, not the catalogue's 0.9")));
    assert.ok(report.notes.some((n) => /<ISO2>_hydro_ror_2016|DE_hydro_ror_2016/.test(n)));
    assert.ok(!report.omitted.includes("constraints.resource"));
  });
  await t.step("an inflow profile keeps the plant's efficiency", () => {
    const report = toCalliopeReport(renewable("hydro_reservoir_inflow", 90));
    const tech = techOf(report.config, "plant");
    assert.equal(tech.constraints.resource, "file=hydro_reservoir_inflow.csv");
    assert.equal(tech.constraints.resource_unit, "energy_per_cap");
    assert.equal(tech.constraints.energy_eff, 0.9);
  });
  await t.step("no profile in the catalogue: the series the model must supply is named", () => {
    const report = toCalliopeReport(renewable(null, null));
    const tech = techOf(report.config, "plant");
    assert.equal(tech.constraints.resource, "file=plant.csv");
    assert.equal(tech.constraints.resource_unit, "energy_per_cap");
    assert.ok(report.notes.some((n) => n.includes("the catalogue ships no profile")));
  });
  await t.step("an override may name another series", () => {
    const config = toCalliope(renewable("solar_pv", null));
    const out = applyCalliopeOverrides(config, {
      constraints: { resource: "file=my_pv.csv:DE", resource_unit: "energy_per_area" },
    });
    assert.equal(techOf(out, "plant").constraints.resource, "file=my_pv.csv:DE");
    assert.throws(
      () => applyCalliopeOverrides(config, { constraints: { resource_unit: "kWh" } }),
      (e: unknown) => e instanceof ZodError,
    );
    assert.throws(
      () => applyCalliopeOverrides(config, { constraints: { resource: "pv.csv" } }),
      (e: unknown) => e instanceof ZodError,
    );
  });
});

Deno.test("toCalliope() puts the energy capex of storage under storage_cap (USD/kWh)", () => {
  const tech = techOf(toCalliope(BATTERY), "li_ion_battery");
  assert.equal(tech.costs["monetary"]?.storage_cap, 250);
  assert.equal(tech.costs["monetary"]?.energy_cap, 300);
});

Deno.test("technologyColor() is a stable #rrggbb per id", () => {
  const colors = ALL.map((t) => technologyColor(t.technology_id));
  for (const color of colors) assert.match(color, /^#[0-9a-f]{6}$/);
  assert.equal(new Set(colors).size, colors.length);
  assert.equal(technologyColor("ccgt"), technologyColor("ccgt"));
  assert.equal(toCalliope(CCGT).ccgt?.essentials.color, technologyColor("ccgt"));
});

Deno.test("toCalliopeTechs() gives a techs block, optionally of one category", () => {
  const all = toCalliopeTechs(ALL);
  assert.deepEqual(Object.keys(all.techs), [
    "ccgt",
    "onshore_wind",
    "li_ion_battery",
    "hvdc_overhead",
    "pem_electrolyser",
  ]);
  assert.deepEqual(Object.keys(toCalliopeTechs(ALL, "generation").techs), ["ccgt", "onshore_wind"]);
  assert.deepEqual(toCalliopeTechs(ALL, "storage").techs, toCalliope(BATTERY));
  assert.throws(() => toCalliopeTechs(ALL, "nuclear"), RangeError);
});

Deno.test("applyCalliopeOverrides()", async (t) => {
  const base = toCalliope(CCGT);

  await t.step("sets constraints and costs, leaving the input unchanged", () => {
    const result = applyCalliopeOverrides(base, {
      constraints: { energy_cap_max: 50_000, energy_cap_min_use: 0.4 },
      costs: { monetary: { energy_cap: 900 }, co2: { om_prod: 0.35 } },
    });
    const tech = techOf(result, "ccgt");
    assert.equal(tech.constraints.energy_cap_max, 50_000);
    assert.equal(tech.constraints.energy_cap_min_use, 0.4);
    assert.equal(tech.constraints.energy_eff, 0.58);
    assert.deepEqual(tech.costs["monetary"], {
      interest_rate: 0.07,
      energy_cap: 900,
      om_annual: 20,
      om_prod: 0.004,
    });
    assert.deepEqual(tech.costs["co2"], { om_prod: 0.35 });
    assert.equal(techOf(base, "ccgt").constraints.energy_cap_max, 400_000);
  });
  await t.step("accepts no overrides", () => {
    assert.deepEqual(applyCalliopeOverrides(base, {}), base);
  });
  await t.step("an unknown constraint key is a ZodError naming it", () => {
    assert.throws(
      () => applyCalliopeOverrides(base, { constraints: { energy_cap_maximum: 1 } }),
      (error: unknown) => error instanceof ZodError && /energy_cap_maximum/.test(error.message),
    );
  });
  await t.step("an unknown cost key is a ZodError naming it", () => {
    assert.throws(
      () => applyCalliopeOverrides(base, { costs: { monetary: { capex: 1 } } }),
      (error: unknown) => error instanceof ZodError && /capex/.test(error.message),
    );
  });
  await t.step("an unknown top-level member is a ZodError naming it", () => {
    assert.throws(
      () => applyCalliopeOverrides(base, { essentials: { name: "x" } }),
      (error: unknown) => error instanceof ZodError && /essentials/.test(error.message),
    );
  });
  await t.step("a non-numeric value is a ZodError with the key's path", () => {
    for (const value of ["50000", null, true, [1]]) {
      assert.throws(
        () => applyCalliopeOverrides(base, { constraints: { energy_cap_max: value } }),
        (error: unknown) =>
          error instanceof ZodError &&
          error.issues[0]?.path.join(".") === "constraints.energy_cap_max",
      );
    }
  });
  await t.step("a key the parent does not allow is a TypeError naming it", () => {
    assert.throws(
      () => applyCalliopeOverrides(base, { constraints: { storage_cap_max: 10 } }),
      (error: unknown) =>
        error instanceof TypeError && /storage_cap_max.*supply/.test(error.message),
    );
    assert.throws(
      () => applyCalliopeOverrides(base, { costs: { monetary: { storage_cap: 10 } } }),
      TypeError,
    );
  });
});

Deno.test("applyCalliopeOverrides() writes no prototype: __proto__, constructor, prototype", async (t) => {
  const base = toCalliope(CCGT);
  const bodies = [
    '{"costs": {"constructor": {"energy_cap": 5}}}',
    '{"costs": {"toString": {"energy_cap": 5}}}',
    '{"costs": {"prototype": {"energy_cap": 5}}}',
    '{"costs": {"__proto__": {"energy_cap": 5}}}',
    '{"costs": {"monetary": {"__proto__": {"energy_cap": 5}}}}',
    '{"constraints": {"constructor": 5}}',
    '{"constraints": {"__proto__": {"energy_cap_max": 5}}}',
    '{"__proto__": {"constraints": {"energy_cap_max": 5}}}',
  ];
  for (const text of bodies) {
    await t.step(text, () => {
      // JSON.parse makes `__proto__` an own member, as a request body's parser does.
      assert.throws(
        () => applyCalliopeOverrides(base, JSON.parse(text)),
        (error: unknown) =>
          (error instanceof TypeError && /reserved name/.test(error.message)) ||
          error instanceof ZodError,
      );
      const probe: Record<string, unknown> = {};
      assert.equal(probe["energy_cap"], undefined);
      assert.equal(Object.hasOwn(Object, "energy_cap"), false, "Object.energy_cap");
      assert.equal(Object.hasOwn(Object.prototype.toString, "energy_cap"), false);
    });
  }
  await t.step("a reserved cost class is named in the error", () => {
    assert.throws(
      () => applyCalliopeOverrides(base, JSON.parse('{"costs": {"__proto__": {}}}')),
      { name: "TypeError", message: /^costs\.__proto__: reserved name/ },
    );
    assert.throws(
      () => applyCalliopeOverrides(base, { costs: { constructor: { energy_cap: 5 } } }),
      { name: "TypeError", message: /^costs\.constructor: reserved name/ },
    );
  });
  await t.step("toCalliopeReport() refuses a reserved cost class", () => {
    assert.throws(() => toCalliopeReport(CCGT, { costClass: "constructor" }), RangeError);
  });
});

Deno.test("every key emitted exists in Calliope 0.6 and is allowed for its parent", () => {
  const essentials: ReadonlySet<string> = new Set(CALLIOPE_ESSENTIALS_KEYS);
  const constraints: ReadonlySet<string> = new Set(CALLIOPE_CONSTRAINT_KEYS);
  const costs: ReadonlySet<string> = new Set(CALLIOPE_COST_KEYS);
  for (const [id, tech] of Object.entries(toCalliopeTechs(ALL).techs)) {
    const allowed = CALLIOPE_ALLOWED[tech.essentials.parent];
    for (const key of Object.keys(tech.essentials)) {
      assert.ok(essentials.has(key), `${id}: essentials.${key}`);
    }
    for (const key of Object.keys(tech.constraints)) {
      assert.ok(constraints.has(key), `${id}: constraints.${key}`);
      assert.ok((allowed.constraints as readonly string[]).includes(key), `${id}: ${key}`);
    }
    for (const values of Object.values(tech.costs)) {
      for (const key of Object.keys(values)) {
        assert.ok(costs.has(key), `${id}: costs.${key}`);
        assert.ok((allowed.costs as readonly string[]).includes(key), `${id}: ${key}`);
      }
    }
  }
});

Deno.test("every override key accepted exists in Calliope 0.6", () => {
  // Numbers, but resource_unit is one of Calliope's words.
  const valueOf = (key: string, n: number) => key === "resource_unit" ? "energy_per_cap" : n;
  const constraints = Object.fromEntries(CALLIOPE_CONSTRAINT_KEYS.map((k) => [k, valueOf(k, 1)]));
  const costs = Object.fromEntries(CALLIOPE_COST_KEYS.map((k) => [k, 1]));
  // The schema accepts exactly the Calliope keys (the parent check comes after it).
  const supplyPlus = toCalliope(ONSHORE_WIND);
  assert.throws(() => applyCalliopeOverrides(supplyPlus, { constraints }), TypeError);
  const isZodError = (error: unknown) => error instanceof ZodError;
  assert.throws(
    () => applyCalliopeOverrides(supplyPlus, { constraints: { ...constraints, not_a_key: 1 } }),
    isZodError,
  );
  assert.throws(
    () => applyCalliopeOverrides(supplyPlus, { costs: { monetary: { ...costs, not_a_key: 1 } } }),
    isZodError,
  );
  // And each parent's allowed keys all pass.
  for (const tech of ALL) {
    const config = toCalliope(tech);
    const parent = calliopeParent(tech);
    const allowed = CALLIOPE_ALLOWED[parent];
    const result = applyCalliopeOverrides(config, {
      constraints: Object.fromEntries(allowed.constraints.map((k) => [k, valueOf(k, 2)])),
      costs: { monetary: Object.fromEntries(allowed.costs.map((k) => [k, 3])) },
    });
    const out = techOf(result, tech.technology_id);
    for (const key of Object.keys(out.constraints)) {
      assert.ok((CALLIOPE_CONSTRAINT_KEYS as readonly string[]).includes(key), key);
    }
    for (const key of Object.keys(out.costs["monetary"] ?? {})) {
      assert.ok((CALLIOPE_COST_KEYS as readonly string[]).includes(key), key);
    }
  }
});

Deno.test("Calliope 0.6 key lists: each parent allows only known keys", () => {
  for (const [parent, allowed] of Object.entries(CALLIOPE_ALLOWED)) {
    for (const key of allowed.constraints) {
      assert.ok((CALLIOPE_CONSTRAINT_KEYS as readonly string[]).includes(key), `${parent}: ${key}`);
    }
    for (const key of allowed.costs) {
      assert.ok((CALLIOPE_COST_KEYS as readonly string[]).includes(key), `${parent}: ${key}`);
    }
    assert.equal(new Set(allowed.constraints).size, allowed.constraints.length, parent);
  }
  assert.equal(new Set(CALLIOPE_CONSTRAINT_KEYS).size, CALLIOPE_CONSTRAINT_KEYS.length);
  assert.equal(new Set(CALLIOPE_COST_KEYS).size, CALLIOPE_COST_KEYS.length);
});
