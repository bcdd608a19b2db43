/**
 * Where each column of `data/profiles/prices_2016.csv` came from (data/profiles/SOURCE.md,
 * "Prices"): the bidding zone, the source with its licence and citation, and what was done to
 * the timestamps.
 */

/** The day-ahead price series of one country. */
export interface PriceSource {
  /** Zone or series name as the source names it; shown in the profile name where it differs. */
  zone: string;
  source: string;
  notes: readonly string[];
}

const DEEPFORKIT = "Kasra-Aliyon/Deepforkit";
const DEEPFORKIT_COMMIT = "617461c84979a3df8568c0878622f2ef48a70685";
const EMBER_COPY = "thijsharink/batterij_terugverdientijd_tool";
const EMBER_COMMIT = "46af914db89b2796360c495e0dbba7cc82a779fc";

/** Source A: ENTSO-E Transparency Platform prices as processed in the Deepforkit repository. */
function entsoe(zone: string, file: string): string {
  return `ENTSO-E Transparency Platform day-ahead prices, ${zone}, from ${DEEPFORKIT} ` +
    `${file} column Price_DA at commit ${DEEPFORKIT_COMMIT} (repository licence CC0 1.0; the ` +
    "ENTSO-E Transparency Platform terms of use apply). Cite: ENTSO-E Transparency Platform.";
}

/** Source B: Ember's hourly prices, from a copy in a GitHub repository. */
function ember(file: string): string {
  return "Ember - European wholesale electricity price data " +
    "(https://ember-energy.org/data/european-wholesale-electricity-price-data/), licensed " +
    `under CC-BY 4.0; file european_wholesale_electricity_price_data_hourly/${file} of the ` +
    `copy in ${EMBER_COPY} at commit ${EMBER_COMMIT}, column Price (EUR/MWhe).`;
}

const ENTSOE_NOTES = [
  "The source's timestamps are CET/CEST local time; they were localised to Europe/Berlin and " +
  "converted to UTC. The forward-filled spring-forward row (2016-03-27 02:00 local) was dropped.",
  "Autumn 2016-10-30: the source has one value for the two 02:00 local hours (their average); " +
  "it is written to both 2016-10-30T00:00:00Z and 2016-10-30T01:00:00Z.",
];

const EMBER_NOTES = [
  "Ember's Datetime (UTC) is used as published: no DST conversion, no fills. Only a trailing " +
  "'.0' was dropped from the numbers.",
];

/** Price sources by ISO code. */
export const PRICE_SOURCES: Readonly<Record<string, PriceSource>> = {
  AT: {
    zone: "DE-AT-LU bidding zone",
    source: entsoe("DE-AT-LU bidding zone (EPEX)", "data/DE_AT_LU.csv"),
    notes: [
      "Same series as DE: AT was in the DE-AT-LU bidding zone until 2018-09-30.",
      ...ENTSOE_NOTES,
    ],
  },
  DE: {
    zone: "DE-AT-LU bidding zone",
    source: entsoe("DE-AT-LU bidding zone (EPEX)", "data/DE_AT_LU.csv"),
    notes: ENTSOE_NOTES,
  },
  DK: { zone: "DK1", source: entsoe("DK1 (West Denmark)", "data/DK_1.csv"), notes: ENTSOE_NOTES },
  ES: { zone: "ES", source: entsoe("ES (OMIE)", "data/ES.csv"), notes: ENTSOE_NOTES },
  FR: {
    zone: "FR",
    source: entsoe("FR (EPEX)", "data/FR.csv"),
    notes: [...ENTSOE_NOTES, "Real spikes kept as published (max 874.01 on 2016-11-07)."],
  },
  GB: {
    zone: "United Kingdom",
    source: ember("United Kingdom.csv"),
    notes: [
      ...EMBER_NOTES,
      "Ember names the series 'United Kingdom' (ISO3 GBR); the file names no exchange or zone. " +
      "Prices are in EUR as published by Ember; the conversion rate is not stated.",
      "Real spikes kept as published (max 1174.22 on 2016-09-15 18:00Z).",
    ],
  },
  GR: {
    zone: "Greece",
    source: ember("Greece.csv"),
    notes: [
      ...EMBER_NOTES,
      "16 hours at 0 or 1 EUR/MWh and spikes up to 299.0 (2016-12-12 16:00-18:00Z) are kept " +
      "as published.",
    ],
  },
  IT: {
    zone: "Italy",
    source: ember("Italy.csv"),
    notes: [
      ...EMBER_NOTES,
      "Ember's 'Italy' series is not the PUN: most likely one bidding zone, probably IT-North " +
      "(not confirmed). Its 2016 mean is 42.69 against a PUN of 42.78 EUR/MWh.",
    ],
  },
  NO: { zone: "NO1", source: entsoe("NO1 (Oslo)", "data/NO_1.csv"), notes: ENTSOE_NOTES },
};
