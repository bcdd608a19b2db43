import assert from "node:assert/strict";
import {
  fixedOpexFromFom,
  fractionToPercent,
  gPerKwhToTPerMwh,
  kwToMw,
  mwToKw,
  operationalCo2GPerKwh,
  parseEnergyCostUnit,
  parseInvestmentUnit,
  percentToFraction,
  roundSignificant,
  toUsd,
  tPerMwhToGPerKwh,
} from "../../../lib/catalogue/schema/units.ts";

Deno.test("parseInvestmentUnit() reads every unit the catalogue uses and refuses others", async (t) => {
  const cases: [string, ReturnType<typeof parseInvestmentUnit>][] = [
    ["EUR/kW", { currency: "EUR", basis: "kw", scale: 1, qualifier: "" }],
    ["EUR/kW_e", { currency: "EUR", basis: "kw", scale: 1, qualifier: "_e" }],
    ["EUR/kWel", { currency: "EUR", basis: "kw", scale: 1, qualifier: "el" }],
    ["EUR/kW_e, 2020", { currency: "EUR", basis: "kw", scale: 1, qualifier: "_e, 2020" }],
    ["EUR/MW", { currency: "EUR", basis: "kw", scale: 1 / 1000, qualifier: "" }],
    ["EUR/MW_CH4", { currency: "EUR", basis: "kw", scale: 1 / 1000, qualifier: "_CH4" }],
    ["USD/kW", { currency: "USD", basis: "kw", scale: 1, qualifier: "" }],
    ["EUR/kWh", { currency: "EUR", basis: "kwh", scale: 1, qualifier: "" }],
    ["EUR/kWhCapacity", { currency: "EUR", basis: "kwh", scale: 1, qualifier: "Capacity" }],
    ["EUR/kWh Capacity", { currency: "EUR", basis: "kwh", scale: 1, qualifier: "Capacity" }],
    ["EUR/MWh", { currency: "EUR", basis: "kwh", scale: 1 / 1000, qualifier: "" }],
    ["EUR/MWh_H2", { currency: "EUR", basis: "kwh", scale: 1 / 1000, qualifier: "_H2" }],
    ["EUR/MW/km", { currency: "EUR", basis: "kw_km", scale: 1 / 1000, qualifier: "" }],
    ["EUR/(tCO2/h)", { currency: "EUR", basis: "t_co2_per_h", scale: 1, qualifier: "" }],
    ["USD/(tCO2/h)", { currency: "USD", basis: "t_co2_per_h", scale: 1, qualifier: "" }],
    ["EUR/(tCO2/h)/km", { currency: "EUR", basis: "t_co2_per_h_km", scale: 1, qualifier: "" }],
    ["EUR/kW_FT/year", undefined],
    ["EUR/m^3", undefined],
    ["EUR", undefined],
    ["GBP/kW", undefined],
  ];
  for (const [unit, expected] of cases) {
    await t.step(unit, () => assert.deepEqual(parseInvestmentUnit(unit), expected));
  }
});

Deno.test("parseEnergyCostUnit() accepts per-MWh units only", () => {
  assert.deepEqual(parseEnergyCostUnit("EUR/MWh"), { currency: "EUR", qualifier: "" });
  assert.deepEqual(parseEnergyCostUnit("EUR/MWh_e"), { currency: "EUR", qualifier: "_e" });
  assert.deepEqual(parseEnergyCostUnit("EUR/MWhel"), { currency: "EUR", qualifier: "el" });
  assert.deepEqual(parseEnergyCostUnit("EUR/MWh_H2"), { currency: "EUR", qualifier: "_H2" });
  assert.equal(parseEnergyCostUnit("EUR/kW"), undefined);
});

Deno.test("toUsd() converts EUR at the rate and passes USD unchanged", () => {
  assert.ok(Math.abs(toUsd(100, "EUR", 1.13) - 113) < 1e-9);
  assert.equal(toUsd(100, "USD", 1.13), 100);
});

Deno.test("fixedOpexFromFom() is FOM percent of capex per year", () => {
  assert.equal(fixedOpexFromFom(2.5, 1000), 25);
});

Deno.test("operationalCo2GPerKwh() is intensity / efficiency × 1000 × (1 - capture)", () => {
  // Gas 0.198 tCO2/MWh_th in a CCGT at 57 %.
  assert.ok(Math.abs(operationalCo2GPerKwh(0.198, 0.57) - 347.3684) < 1e-3);
  assert.ok(Math.abs(operationalCo2GPerKwh(0.198, 0.69, 0.9) - 28.6957) < 1e-3);
  assert.throws(() => operationalCo2GPerKwh(0.198, 0), RangeError);
  assert.throws(() => operationalCo2GPerKwh(0.198, 0.5, 1.5), RangeError);
});

Deno.test("roundSignificant() keeps the given number of significant digits", () => {
  assert.equal(roundSignificant(1625.939485, 6), 1625.94);
  assert.equal(roundSignificant(0.0301710, 6), 0.030171);
  assert.equal(roundSignificant(0, 6), 0);
});

Deno.test("catalogue <-> internal conversions follow the spec's table without float noise", () => {
  assert.equal(fractionToPercent(0.57), 57);
  assert.equal(percentToFraction(57), 0.57);
  assert.equal(kwToMw(2500), 2.5);
  assert.equal(mwToKw(2.5), 2500);
  assert.equal(tPerMwhToGPerKwh(0.347368), 347.368);
  assert.equal(gPerKwhToTPerMwh(347.368), 0.347368);
});
