import assert from "node:assert/strict";
import {
  bestPerParameter,
  createPatternExtractor,
  extractParameters,
} from "../../lib/scraper/extract.ts";
import type { Paper } from "../../lib/scraper/paper.ts";
import { toCatalogueValue } from "../../lib/scraper/parameters.ts";

type Expected = {
  parameter: string;
  value: number;
  unit: string;
  currency?: string;
  catalogue_value?: number;
};

/** Test rates only (not real): they show the conversion, nothing else. */
const FX = { EUR: 1.1, GBP: 1.25 };

Deno.test("extractParameters() reads each phrase as its parameter", async (t) => {
  const cases: [string, Expected][] = [
    ["The capital cost is USD 1,200/kW for the system.", {
      parameter: "capex",
      value: 1200,
      unit: "USD/kW",
      currency: "USD",
      catalogue_value: 1200,
    }],
    ["Stack costs of €850 per kW were reported.", {
      parameter: "capex",
      value: 850,
      unit: "EUR/kW",
      currency: "EUR",
      catalogue_value: 935,
    }],
    ["A plant costs 1.2 million EUR/MW.", {
      parameter: "capex",
      value: 1_200_000,
      unit: "EUR/MW",
      currency: "EUR",
      catalogue_value: 1320,
    }],
    ["Installed cost of $2000/kW.", {
      parameter: "capex",
      value: 2000,
      unit: "USD/kW",
      currency: "USD",
      catalogue_value: 2000,
    }],
    ["CAPEX ranges from USD 800–1,200/kW.", {
      parameter: "capex",
      value: 1000,
      unit: "USD/kW",
      currency: "USD",
      catalogue_value: 1000,
    }],
    ["Overnight costs of £3.5 bn per GW are assumed.", {
      parameter: "capex",
      value: 3.5e9,
      unit: "GBP/GW",
      currency: "GBP",
      catalogue_value: 4375,
    }],
    ["1,000 US dollars per kilowatt capital cost", {
      parameter: "capex",
      value: 1000,
      unit: "USD/kW",
      currency: "USD",
      catalogue_value: 1000,
    }],
    ["Battery pack capex of USD 150/kWh.", {
      parameter: "capex",
      value: 150,
      unit: "USD/kWh",
      currency: "USD",
      catalogue_value: 150,
    }],
    ["Capex of 900 EUR2020/kW_el.", {
      parameter: "capex",
      value: 900,
      unit: "EUR/kW",
      currency: "EUR",
      catalogue_value: 990,
    }],
    ["The capital cost is 1\u202f100 EUR/kW.", {
      parameter: "capex",
      value: 1100,
      unit: "EUR/kW",
      currency: "EUR",
      catalogue_value: 1210,
    }],
    ["An efficiency of 65% is reached.", {
      parameter: "efficiency",
      value: 65,
      unit: "%",
      catalogue_value: 65,
    }],
    ["The round-trip efficiency 85 % was measured.", {
      parameter: "efficiency",
      value: 85,
      unit: "%",
      catalogue_value: 85,
    }],
    ["The system achieves 85% round-trip efficiency.", {
      parameter: "efficiency",
      value: 85,
      unit: "%",
      catalogue_value: 85,
    }],
    ["with a lifetime of 25 years", {
      parameter: "lifetime",
      value: 25,
      unit: "years",
      catalogue_value: 25,
    }],
    ["a 25-year lifetime is assumed", {
      parameter: "lifetime",
      value: 25,
      unit: "years",
      catalogue_value: 25,
    }],
    ["an economic life of 20-30 years", {
      parameter: "lifetime",
      value: 25,
      unit: "years",
      catalogue_value: 25,
    }],
    ["O&M costs of 2% of capex per year", {
      parameter: "opex_fixed",
      value: 2,
      unit: "%capex/yr",
    }],
    ["annual maintenance of 1.5% of investment", {
      parameter: "opex_fixed",
      value: 1.5,
      unit: "%capex/yr",
    }],
    ["fixed O&M 20 USD/kW-yr", {
      parameter: "opex_fixed",
      value: 20,
      unit: "USD/kW/yr",
      currency: "USD",
      catalogue_value: 20,
    }],
    ["fixed O&M costs of EUR 15/kW/a", {
      parameter: "opex_fixed",
      value: 15,
      unit: "EUR/kW/yr",
      currency: "EUR",
      catalogue_value: 16.5,
    }],
    ["Fixed O&M of USD 6/kWh/yr for the battery", {
      parameter: "opex_fixed",
      value: 6,
      unit: "USD/kWh/yr",
      currency: "USD",
      catalogue_value: 6,
    }],
    ["HVDC line investment of 400 EUR/MW/km", {
      parameter: "capex",
      value: 400,
      unit: "EUR/MW/km",
      currency: "EUR",
      catalogue_value: 0.44,
    }],
    ["variable O&M of 4 EUR/MWh", {
      parameter: "opex_var",
      value: 4,
      unit: "EUR/MWh",
      currency: "EUR",
      catalogue_value: 4.4,
    }],
    ["an emission factor of 450 gCO2/kWh", {
      parameter: "co2_factor",
      value: 450,
      unit: "gCO2/kWh",
      catalogue_value: 450,
    }],
    ["0.35 tCO₂/MWh for gas", {
      parameter: "co2_factor",
      value: 0.35,
      unit: "tCO2/MWh",
      catalogue_value: 350,
    }],
    ["about 820 kg CO2-eq per MWh", {
      parameter: "co2_factor",
      value: 820,
      unit: "kgCO2/MWh",
      catalogue_value: 820,
    }],
  ];
  for (const [phrase, expected] of cases) {
    await t.step(phrase, () => {
      const found = extractParameters(phrase, { fx: FX });
      assert.equal(found.length, 1, JSON.stringify(found));
      const [first] = found;
      const actual: Expected = {
        parameter: first?.parameter ?? "",
        value: first?.value ?? NaN,
        unit: first?.unit ?? "",
      };
      if (first?.currency) actual.currency = first.currency;
      if (first?.catalogue_value !== undefined) actual.catalogue_value = first.catalogue_value;
      assert.deepEqual(actual, expected);
      assert.ok(first && first.confidence > 0 && first.confidence <= 1);
      assert.ok(
        first && phrase.replace("\u202f", ",").replace("₂", "2").includes(first.matched_text),
      );
    });
  }
});

Deno.test("extractParameters() finds nothing in phrases without a parameter", async (t) => {
  const phrases = [
    "In 2030 the stack will be replaced.",
    "Costs in 2030 USD/kW terms fall.",
    "By 2030 EUR/kW values fall.",
    "The capacity grows to 2030 MW.",
    "Capex reaches EUR2020/kW levels.",
    "The LCOE is 50 USD/MWh.",
    "Hydrogen costs 5 USD/kg.",
    "Efficiency improved by 5% over the baseline.",
    "a 20% increase in efficiency",
    "A market share of 30% in 2030.",
    "The operating temperature is 80 °C at 80% load.",
    "An efficiency of 120% is impossible.",
    "The stack lifetime is 80,000 hours.",
    "Lifetime extended by 5 years.",
    "We analyse 25 years of data.",
    "The electricity price of 60 EUR/MWh.",
  ];
  for (const phrase of phrases) {
    await t.step(phrase, () => {
      assert.deepEqual(extractParameters(phrase, { fx: FX }), []);
    });
  }
});

Deno.test("extractParameters() keeps non-USD values without a rate, but gives no catalogue value", () => {
  const [found] = extractParameters("A capital cost of EUR 900/kW.");
  assert.equal(found?.value, 900);
  assert.equal(found?.currency, "EUR");
  assert.equal(found?.catalogue_field, undefined);
  assert.equal(found?.catalogue_value, undefined);
});

Deno.test("extractParameters() scores context: keywords raise, ranges and life cycles lower", () => {
  const [withKeyword] = extractParameters("The capital cost is USD 1,200/kW.");
  const [without] = extractParameters("The plant costs USD 1,200/kW.");
  const [range] = extractParameters("The capital cost is USD 1,000-1,400/kW.");
  assert.ok((withKeyword?.confidence ?? 0) > (without?.confidence ?? 1));
  assert.ok((withKeyword?.confidence ?? 0) > (range?.confidence ?? 1));
  const [operational] = extractParameters("CCGT emissions of 350 gCO2/kWh.");
  const [lifecycle] = extractParameters("Life-cycle emissions of 40 gCO2eq/kWh.");
  assert.ok((operational?.confidence ?? 0) > (lifecycle?.confidence ?? 1));
});

Deno.test("extractParameters() gives O&M as a share of capex a USD/kW-yr value from the same text", () => {
  const found = extractParameters(
    "The capital cost is EUR 1,000/kW. Fixed O&M costs of 2% of capex per year apply.",
    { fx: FX },
  );
  const om = found.find((f) => f.parameter === "opex_fixed");
  assert.equal(om?.unit, "%capex/yr");
  assert.equal(om?.catalogue_field, "opex_fixed_usd_per_kw_yr");
  assert.equal(om?.catalogue_value, 22);
});

Deno.test("extractParameters() reads several parameters from one abstract, with context", () => {
  const found = extractParameters(
    "For a 10 MW PEM electrolyser we estimate a capital cost of USD 1,200/kW. A stack " +
      "efficiency of 65% (LHV) and a system lifetime of 20 years are assumed.",
  );
  assert.deepEqual(found.map((f) => [f.parameter, f.value]), [
    ["capex", 1200],
    ["efficiency", 65],
    ["lifetime", 20],
  ]);
  assert.equal(
    found[1]?.context,
    "A stack efficiency of 65% (LHV) and a system lifetime of 20 years are assumed.",
  );
});

Deno.test("bestPerParameter() keeps the most confident finding, the earliest on ties", () => {
  const found = extractParameters(
    "The capital cost is USD 1,200/kW in 2023, falling to USD 500/kW by 2030. The plant costs " +
      "USD 900/kW.",
  );
  const best = bestPerParameter(found);
  assert.equal(best.length, 1);
  assert.equal(best[0]?.value, 1200);
});

Deno.test("createPatternExtractor() lowers confidence when the paper covers other technologies", async () => {
  const single: Paper = {
    source: "openalex",
    source_id: "W1",
    title: "PEM electrolysis costs",
    abstract: "The capital cost of PEM electrolysers is USD 1,200/kW.",
    url: "https://example.org/1",
  };
  const mixed: Paper = {
    ...single,
    abstract: "The capital cost of PEM electrolysers is USD 1,200/kW. Alkaline electrolysers " +
      "have a capital cost of USD 800/kW.",
  };
  const extractor = createPatternExtractor();
  const [alone] = await extractor.extract(single, "pem_electrolyzer");
  const [shared, other] = await extractor.extract(mixed, "pem_electrolyzer");
  assert.equal(alone?.confidence, 0.9);
  assert.equal(shared?.confidence, 0.75);
  // The alkaline sentence does not name PEM: its value is likely not PEM's.
  assert.equal(other?.confidence, 0.55);
});

Deno.test("toCatalogueValue() converts each canonical unit to its catalogue field", async (t) => {
  const cases: [Parameters<typeof toCatalogueValue>, string | undefined, number | undefined][] = [
    [["capex", 1.5e6, "USD/MW"], "capex_usd_per_kw", 1500],
    [["capex", 150, "USD/kWh"], "capex_usd_per_kwh", 150],
    [["capex", 2e5, "USD/MWh"], "capex_usd_per_kwh", 200],
    [["capex", 400, "EUR/MW/km", FX], "capex_usd_per_kw_km", 0.44],
    [["capex", 800, "CHF/kW", FX], undefined, undefined],
    [["capex", 800, "USD/kW/yr"], undefined, undefined],
    [["opex_fixed", 20_000, "USD/MW/yr"], "opex_fixed_usd_per_kw_yr", 20],
    [["opex_fixed", 5, "USD/kWh/yr"], "opex_fixed_usd_per_kwh_yr", 5],
    [["opex_fixed", 2, "%capex/yr"], undefined, undefined],
    [["opex_var", 0.004, "USD/kWh"], "opex_var_usd_per_mwh", 4],
    [["efficiency", 65, "%"], "efficiency_percent", 65],
    [["efficiency", 0.65, "fraction"], undefined, undefined],
    [["lifetime", 25, "years"], "lifetime_years", 25],
    [["co2_factor", 0.45, "kgCO2/kWh"], "co2_emission_factor_operational_g_per_kwh", 450],
    [["co2_factor", 450, "gCO2/MWh"], "co2_emission_factor_operational_g_per_kwh", 0.45],
  ];
  for (const [args, field, value] of cases) {
    await t.step(`${args[0]} ${args[1]} ${args[2]} -> ${field} ${value}`, () => {
      const converted = toCatalogueValue(...args);
      assert.equal(converted?.field, field);
      assert.equal(converted?.value, value);
    });
  }
});
