/**
 * Golden values of the storage adapters for three catalogue instances (LFP battery, pumped hydro,
 * vanadium flow), each worked out here by hand from the instance's figures and the tool's own
 * convention:
 *
 * - PyPSA StorageUnit (`pypsa/data/component_attrs/storage_units.csv`): `efficiency_store` and
 *   `efficiency_dispatch` per unit, `standing_loss` per hour, `max_hours` = energy / power,
 *   `capital_cost` per MW of power and year. PyPSA-Eur (`scripts/add_electricity.py`,
 *   `scripts/prepare_sector_network.py`) splits a round trip as efficiency_store =
 *   efficiency_dispatch = √(round trip).
 * - Calliope 0.6 (`calliope/config/defaults.yaml`; storage balance in
 *   `calliope/backend/pyomo/constraints/energy_balance.py`): `energy_eff` applies to charging and
 *   to discharging of storage, so one way is √(round trip); `storage_loss` per hour;
 *   `energy_cap_per_storage_cap_max` in kW per kWh; `costs.<class>.storage_cap` per kWh.
 *
 * None of the three instances has a self-discharge or an energy-to-power figure, so
 * standing_loss, max_hours, storage_loss and energy_cap_per_storage_cap_max are left open.
 */
import assert from "node:assert/strict";
import {
  CALLIOPE_ALLOWED,
  CALLIOPE_CONSTRAINT_KEYS,
  CALLIOPE_COST_KEYS,
  calliopeAnswer,
  toCalliopeReport,
} from "../../../lib/catalogue/calliope/mod.ts";
import { toPyPSA } from "../../../lib/catalogue/adapters/pypsa.ts";
import type { Technology } from "../../../lib/catalogue/schema/technology_schema.ts";

const STORAGE: { technologies: Technology[] } = JSON.parse(
  await Deno.readTextFile(new URL("../../../catalogues/storage.json", import.meta.url)),
);

/** The technology and the index of its instance `instanceId` in the real catalogue. */
function find(technologyId: string, instanceId: string): [Technology, number] {
  const technology = STORAGE.technologies.find((t) => t.technology_id === technologyId);
  assert.ok(technology, `no technology ${technologyId}`);
  const index = technology.instances.findIndex((i) => i.instance_id === instanceId);
  assert.ok(index >= 0, `no instance ${instanceId}`);
  return [technology, index];
}

function close(actual: number | null | undefined, expected: number, tolerance = 1e-6): void {
  assert.ok(typeof actual === "number", `expected ${expected}, got ${actual}`);
  assert.ok(Math.abs(actual - expected) <= tolerance, `expected ${expected}, got ${actual}`);
}

/** r(1+r)^n / ((1+r)^n − 1), written out here rather than taken from the code under test. */
function crf(r: number, n: number): number {
  return r * (1 + r) ** n / ((1 + r) ** n - 1);
}

/** The figures each case reads, as the catalogue file has them (checked below). */
interface Figures {
  capex_usd_per_kw: number;
  opex_fixed_usd_per_kw_yr: number;
  capex_usd_per_kwh: number;
  opex_fixed_usd_per_kwh_yr: number;
  efficiency_percent: number;
  lifetime_years: number;
}

const CASES: {
  name: string;
  technologyId: string;
  instanceId: string;
  figures: Figures;
  /** √(round trip), worked out by hand. */
  oneWay: number;
  /** Power part, USD/MW/a: capex × 1000 × CRF(0.07, n) + fixed O&M × 1000. */
  power: number;
  /** Energy part, USD/MWh/a: capex per kWh × 1000 × CRF + fixed O&M per kWh × 1000. */
  energy: number;
}[] = [
  {
    name: "LFP battery 2025",
    technologyId: "lithium_ion_bess",
    instanceId: "lithium_ion_bess-lfp-2025",
    figures: {
      capex_usd_per_kw: 125.838,
      opex_fixed_usd_per_kw_yr: 2.6363,
      capex_usd_per_kwh: 399.365,
      opex_fixed_usd_per_kwh_yr: 0.178516,
      efficiency_percent: 84.5112,
      lifetime_years: 16,
    },
    oneWay: 0.919299733, // √0.845112 (not the round trip 0.845)
    power: 125_838 * 0.1058576477 + 2_636.3, // = 15,957.21 USD/MW/a; CRF(0.07, 16) = 0.10585765
    energy: 399_365 * 0.1058576477 + 178.516, // = 42,454.36 USD/MWh/a
  },
  {
    name: "pumped hydro (PNNL) 2025",
    technologyId: "pumped_hydro_storage",
    instanceId: "pumped_hydro_storage-pnnl-2025",
    figures: {
      capex_usd_per_kw: 1985.02,
      opex_fixed_usd_per_kw_yr: 19.753,
      capex_usd_per_kwh: 81.0901,
      opex_fixed_usd_per_kwh_yr: 0.348688,
      efficiency_percent: 79.9951,
      lifetime_years: 60,
    },
    oneWay: 0.894399799, // √0.799951
    power: 1_985_020 * 0.0712292255 + 19_753, // = 161,144.44; CRF(0.07, 60) = 0.07122923
    energy: 81_090.1 * 0.0712292255 + 348.688, // = 6,124.67 USD/MWh/a
  },
  {
    name: "vanadium flow battery 2025",
    technologyId: "redox_flow_batteries",
    instanceId: "redox_flow_batteries-vanadium-2025",
    figures: {
      capex_usd_per_kw: 198.181,
      opex_fixed_usd_per_kw_yr: 4.79836,
      capex_usd_per_kwh: 408.965,
      opex_fixed_usd_per_kwh_yr: 0.956977,
      efficiency_percent: 64.9958,
      lifetime_years: 12,
    },
    oneWay: 0.806199727, // √0.649958
    power: 198_181 * 0.1259019887 + 4_798.36, // = 29,749.74; CRF(0.07, 12) = 0.12590199
    energy: 408_965 * 0.1259019887 + 956.977, // = 52,446.48 USD/MWh/a
  },
];

Deno.test("storage adapters follow PyPSA's and Calliope's conventions (golden values)", async (t) => {
  for (const c of CASES) {
    const [technology, index] = find(c.technologyId, c.instanceId);
    const instance = technology.instances[index]!;

    await t.step(`${c.name}: the catalogue figures the golden values are built on`, () => {
      for (const [field, value] of Object.entries(c.figures)) {
        assert.equal(instance[field as keyof Figures], value, field);
      }
      // The hand values agree with the written-out formulas.
      const f = c.figures;
      const r = crf(0.07, f.lifetime_years);
      close(c.oneWay, Math.sqrt(f.efficiency_percent / 100), 1e-9);
      close(c.power, f.capex_usd_per_kw * 1000 * r + f.opex_fixed_usd_per_kw_yr * 1000, 1e-3);
      close(c.energy, f.capex_usd_per_kwh * 1000 * r + f.opex_fixed_usd_per_kwh_yr * 1000, 1e-3);
    });

    await t.step(`${c.name}: PyPSA StorageUnit`, () => {
      const result = toPyPSA(technology, { instanceIndex: index });
      assert.equal(result.component_type, "StorageUnit");
      const p = result.parameters;
      assert.equal("efficiency" in p, false, "a StorageUnit has no single efficiency");
      close(p.efficiency_store, c.oneWay);
      close(p.efficiency_dispatch, c.oneWay);
      // store × dispatch gives back the round trip.
      close(p.efficiency_store! * p.efficiency_dispatch!, c.figures.efficiency_percent / 100);
      assert.equal(p.standing_loss, null);
      assert.equal(p.max_hours, null);
      assert.ok(result.notes.some((n) => n.startsWith("standing_loss is null")));
      assert.ok(result.notes.some((n) => n.startsWith("max_hours is null")));
      // Without max_hours the capital_cost per MW is the power part; the energy part is served.
      close(p.capital_cost, c.power, 1e-3);
      close(
        result.capital_cost_parts.energy_annuitised_capex! +
          result.capital_cost_parts.energy_fixed_om!,
        c.energy,
        1e-3,
      );
      // Fixed O&M per kWh is kept: 1000 × USD/kWh/a = USD/MWh/a.
      close(result.capital_cost_parts.energy_fixed_om, c.figures.opex_fixed_usd_per_kwh_yr * 1000);
      assert.equal(result.units.max_hours, "h (energy capacity / power capacity)");
    });

    await t.step(`${c.name}: PyPSA capital_cost with max_hours 4`, () => {
      const result = toPyPSA(technology, { instanceIndex: index, maxHours: 4 });
      assert.equal(result.parameters.max_hours, 4);
      // capital_cost per MW of power = power part + max_hours × energy part.
      close(result.parameters.capital_cost, c.power + 4 * c.energy, 1e-2);
    });

    await t.step(`${c.name}: Calliope 0.6 storage`, () => {
      const report = toCalliopeReport(technology, { instanceIndex: index });
      const tech = report.config[c.technologyId]!;
      assert.equal(tech.essentials.parent, "storage");
      close(tech.constraints["energy_eff"], c.oneWay);
      assert.equal(tech.constraints["lifetime"], c.figures.lifetime_years);
      const costs = tech.costs["monetary"]!;
      assert.equal(costs["energy_cap"], c.figures.capex_usd_per_kw);
      assert.equal(costs["om_annual"], c.figures.opex_fixed_usd_per_kw_yr);
      assert.equal(costs["storage_cap"], c.figures.capex_usd_per_kwh);
      assert.equal(costs["interest_rate"], 0.07);
      for (const key of ["storage_loss", "energy_cap_per_storage_cap_max"]) {
        assert.equal(key in tech.constraints, false, key);
        assert.ok(report.omitted.includes(`constraints.${key}`), key);
      }
      assert.ok(
        report.notes.some((n) => n.includes(`${c.figures.opex_fixed_usd_per_kwh_yr} USD/kWh/a`)),
        "the fixed O&M per kWh Calliope cannot take is named",
      );
      assert.equal(report.units["constraints.energy_eff"]?.startsWith("1 "), true);
      assert.equal(report.units["costs.monetary.storage_cap"], "USD/kWh");
      assert.equal(report.units["costs.monetary.energy_cap"], "USD/kW");
    });
  }
});

Deno.test("pumped hydro per kW of plant (DIW): no energy part, storage_cap omitted", () => {
  const [technology, index] = find("pumped_hydro_storage", "pumped_hydro_storage-diw-2025");
  const pypsa = toPyPSA(technology, { instanceIndex: index, maxHours: 6 });
  close(pypsa.parameters.efficiency_store, Math.sqrt(0.75), 1e-12); // 0.866025
  // No per-kWh figure: capital_cost stays the plant's 3264.04 USD/kW, whatever max_hours is.
  close(pypsa.parameters.capital_cost, 3_264_040 * crf(0.07, 80) + 32_640.4, 1e-3);
  assert.ok(pypsa.missing.includes("capex_usd_per_kwh"));
  const calliope = toCalliopeReport(technology, { instanceIndex: index });
  assert.ok(calliope.omitted.includes("costs.monetary.storage_cap"));
});

Deno.test("every storage instance of the catalogue gives allowed Calliope 0.6 keys and their units", () => {
  const constraints: ReadonlySet<string> = new Set(CALLIOPE_CONSTRAINT_KEYS);
  const costs: ReadonlySet<string> = new Set(CALLIOPE_COST_KEYS);
  const allowed = CALLIOPE_ALLOWED.storage;
  for (const technology of STORAGE.technologies) {
    technology.instances.forEach((instance, index) => {
      const report = toCalliopeReport(technology, { instanceIndex: index, interestRate: 0.05 });
      const tech = report.config[technology.technology_id]!;
      const where = instance.instance_id;
      for (const key of Object.keys(tech.constraints)) {
        assert.ok(constraints.has(key), `${where}: constraints.${key}`);
        assert.ok((allowed.constraints as readonly string[]).includes(key), `${where}: ${key}`);
        assert.ok(report.units[`constraints.${key}`], `${where}: unit of ${key}`);
      }
      for (const key of Object.keys(tech.costs["monetary"]!)) {
        assert.ok(costs.has(key), `${where}: costs.${key}`);
        assert.ok((allowed.costs as readonly string[]).includes(key), `${where}: ${key}`);
        assert.ok(report.units[`costs.monetary.${key}`], `${where}: unit of ${key}`);
      }
      assert.equal(tech.costs["monetary"]!["interest_rate"], 0.05);
      // The answer keeps the tech block whole and puts the report beside it.
      const answer = calliopeAnswer(report);
      assert.deepEqual(answer[technology.technology_id], tech);
      assert.deepEqual(answer.units, report.units);
    });
  }
});

Deno.test("calliopeAnswer() refuses a technology id that is a member name", () => {
  assert.throws(
    () => calliopeAnswer({ config: { notes: {} as never }, notes: [], omitted: [], units: {} }),
    TypeError,
  );
});
