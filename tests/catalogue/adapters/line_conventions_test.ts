/**
 * Golden values of the line conventions of the adapters for the HVAC overhead line, the HVDC
 * overhead line and the HVDC submarine cable of 2025, worked out here by hand from the figures of
 * `catalogues/transmission.json` (copied below and checked against the file):
 *
 * - PyPSA (`pypsa/data/component_attrs/links.csv`, `lines.csv`): `capital_cost` is in currency
 *   per MW of `p_nom` and year, periodised investment plus fixed O&M; PyPSA-Eur
 *   (`scripts/add_electricity.py`, `_set_electrical_parameters_links` / `update_transmission_costs`)
 *   makes it length x cost per MW and km, plus the converter stations per MW for HVDC. So the line
 *   needs its length: without `?length_km=` the adapter serves null.
 * - Calliope 0.6 (`calliope/config/defaults.yaml`, `default_cost`): `energy_cap` is the cost per
 *   kW of capacity, `energy_cap_per_distance` per kW and metre (Calliope 0.6 link distances are
 *   in metres, so the catalogue's per-km figure / 1000; issue 18),
 *   `om_annual` per kW and year; there is no fixed O&M per distance, so that figure goes to the
 *   notes, and `energy_eff_per_distance` is left out (no loss per km in the source).
 */
import assert from "node:assert/strict";
import { toCalliopeReport } from "../../../lib/catalogue/calliope/mod.ts";
import { toPyPSA } from "../../../lib/catalogue/adapters/pypsa.ts";
import type { Technology } from "../../../lib/catalogue/schema/technology_schema.ts";

const FILE: { technologies: Technology[] } = JSON.parse(
  await Deno.readTextFile(new URL("../../../catalogues/transmission.json", import.meta.url)),
);

/** CRF = r(1+r)^n / ((1+r)^n - 1), written out. */
const crf = (r: number, n: number) => r * (1 + r) ** n / ((1 + r) ** n - 1);

function close(actual: unknown, expected: number) {
  assert.ok(
    typeof actual === "number" && Math.abs(actual - expected) <= 1e-9 * Math.abs(expected),
    `${actual} != ${expected}`,
  );
}

const LINES = [
  {
    id: "hvac_overhead_line",
    instance: "hvac_overhead_line-2025",
    perKw: null,
    fomPerKw: null,
    perKwKm: 0.8475,
    fomPerKwKm: 0.0127125,
    lifetime: 40,
  },
  {
    id: "hvdc_overhead_line",
    instance: "hvdc_overhead_line-2025",
    perKw: 723.2,
    fomPerKw: 10.848,
    perKwKm: 0.678,
    fomPerKwKm: 0.01017,
    lifetime: 40,
  },
  {
    id: "hvdc_submarine_cable",
    instance: "hvdc_submarine_cable-2025",
    perKw: 723.2,
    fomPerKw: 10.848,
    perKwKm: 3.6386,
    fomPerKwKm: 0.090965,
    lifetime: 40,
  },
];

for (const line of LINES) {
  const technology = FILE.technologies.find((t) => t.technology_id === line.id);
  assert.ok(technology, line.id);
  const instance = technology.instances[0] as unknown as Record<string, unknown>;

  Deno.test(`${line.id}: the figures used here are the catalogue's`, () => {
    assert.equal(instance["instance_id"], line.instance);
    assert.equal(instance["capex_usd_per_kw"] ?? null, line.perKw);
    assert.equal(instance["opex_fixed_usd_per_kw_yr"] ?? null, line.fomPerKw);
    assert.equal(instance["capex_usd_per_kw_km"], line.perKwKm);
    assert.equal(instance["opex_fixed_usd_per_kw_km_yr"], line.fomPerKwKm);
    assert.equal(instance["lifetime_years"], line.lifetime);
  });

  Deno.test(`${line.id}: PyPSA capital_cost per MW for 100 km, null without a length`, () => {
    const km = 100;
    const capexPerMw = ((line.perKw ?? 0) + line.perKwKm * km) * 1000;
    const fomPerMw = ((line.fomPerKw ?? 0) + line.fomPerKwKm * km) * 1000;
    const expected = capexPerMw * crf(0.07, line.lifetime) + fomPerMw;
    const result = toPyPSA(technology, { lengthKm: km });
    close(result.parameters.capital_cost, expected);
    assert.equal(result.length_km, km);
    assert.equal(toPyPSA(technology).parameters.capital_cost, null);
  });

  Deno.test(`${line.id}: Calliope energy_cap_per_distance, energy_cap and om_annual`, () => {
    const report = toCalliopeReport(technology);
    const tech = report.config[line.id];
    assert.ok(tech);
    const costs = tech.costs?.["monetary"] as Record<string, number> | undefined;
    close(costs?.["energy_cap_per_distance"], line.perKwKm / 1000);
    assert.equal(costs?.["energy_cap"], line.perKw ?? undefined);
    assert.equal(costs?.["om_annual"], line.fomPerKw ?? undefined);
    assert.equal(tech.essentials.parent, "transmission");
    assert.ok(report.omitted.includes("constraints.energy_eff_per_distance"));
    assert.ok(
      report.notes.some((n) => n.includes(`${line.fomPerKwKm} USD/kW/km/a`)),
      "the fixed O&M per km is named in the notes",
    );
  });
}
