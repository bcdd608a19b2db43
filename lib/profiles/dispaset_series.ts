/**
 * The series of the per-country files `data/profiles/{ISO}_2016.csv` (copied from the Dispa-SET
 * EU28 input data): which column becomes which profile, with its type, carrier, unit and the
 * Dispa-SET file it came from. Facts and caveats are those of data/profiles/SOURCE.md.
 */
import type { Country } from "./countries.ts";

/** Repository and commit the per-country files were copied from. */
export const DISPASET_COMMIT = "b30cc1a4a16b51ef2a1b33b1647647766180864f";

const CITATION = "Cite: Kavvadias et al. (2018), Integrated modelling of future EU power and " +
  "heat systems - the Dispa-SET v2.2 open-source model, JRC EUR 29085 EN.";

/** One column of a per-country file and the profile made from it. */
export interface DispasetSeries {
  /** Column in `{ISO}_2016.csv`. */
  column: string;
  /** Middle part of the profile id: `DE_<key>_2016`. */
  key: string;
  /** Name after the country name: `Germany <label> 2016`. */
  label: string;
  type: "capacity_factor" | "inflow" | "load";
  carrier: string;
  unit: string;
  /** Dispa-SET file and column, `{C}` standing for the Dispa-SET country code. */
  origin: string;
  /** Notes that hold for this series in every country. */
  notes: readonly string[];
  /** Why a column can be blank for a whole country, from SOURCE.md. */
  blank_reason: string;
}

const CF_ROUNDING = "Values as in the source copy: rounded to 4 decimals.";
const CF_BLANK = "the source column is empty or all zero, which is not a capacity factor";

/** The profile series of a per-country file, in catalogue order. */
export const DISPASET_SERIES: readonly DispasetSeries[] = [
  {
    column: "solar_pv_cf",
    key: "solar_pv",
    label: "solar PV capacity factor",
    type: "capacity_factor",
    carrier: "solar",
    unit: "per_unit",
    origin: "Database/AvailabilityFactors/{C}/1h/2016.csv column PHOT",
    notes: [CF_ROUNDING],
    blank_reason: CF_BLANK,
  },
  {
    column: "onshore_wind_cf",
    key: "onshore_wind",
    label: "onshore wind capacity factor",
    type: "capacity_factor",
    carrier: "wind",
    unit: "per_unit",
    origin: "Database/AvailabilityFactors/{C}/1h/2016.csv column WTON",
    notes: [CF_ROUNDING],
    blank_reason: CF_BLANK,
  },
  {
    column: "offshore_wind_cf",
    key: "offshore_wind",
    label: "offshore wind capacity factor",
    type: "capacity_factor",
    carrier: "wind",
    unit: "per_unit",
    origin: "Database/AvailabilityFactors/{C}/1h/2016.csv column WTOF",
    notes: [CF_ROUNDING],
    blank_reason: "the source has an all-zero WTOF column (no offshore wind fleet in 2016), " +
      "which is not a capacity factor",
  },
  {
    column: "hydro_ror_cf",
    key: "hydro_ror",
    label: "hydro run-of-river capacity factor",
    type: "capacity_factor",
    carrier: "hydro",
    unit: "per_unit",
    origin: "Database/AvailabilityFactors/{C}/1h/2016.csv column HROR",
    notes: [CF_ROUNDING],
    blank_reason: CF_BLANK,
  },
  {
    column: "hydro_reservoir_inflow_pu",
    key: "hydro_reservoir_inflow",
    label: "hydro reservoir inflow",
    type: "inflow",
    carrier: "hydro",
    unit: "MWh/MW",
    origin: "Database/HydroData/ScaledInflows/{C}/1h/2016_profile_from_2012.csv column HDAM",
    notes: [
      "Scaled inflow: MWh per MW of reservoir-hydro capacity in each 1-hour step. It is not a " +
      "capacity factor, so it is not bounded by 1 and not clipped.",
      "The inflow shape is from 2012, rescaled to 2016 (Dispa-SET file " +
      "2016_profile_from_2012.csv).",
      "Values as in the source copy: rounded to 4 decimals.",
    ],
    blank_reason: "the source column is empty or all zero",
  },
  {
    column: "load_mw",
    key: "load",
    label: "electricity load",
    type: "load",
    carrier: "electricity",
    unit: "MW",
    origin: "Database/TotalLoadValue/{C}/1h/2016.csv",
    notes: ["Hourly total load. Values as in the source copy: rounded to 0.1 MW."],
    blank_reason: "the source column is empty",
  },
];

/** Notes that hold for every Dispa-SET series. */
export const DISPASET_NOTES: readonly string[] = [
  "Timestamps are hour starts in UTC. The Dispa-SET files are timezone-naive: UTC is inferred " +
  "(DE solar peaks at 11:00, DE load is lowest at 01:00), not documented.",
];

/** Notes for one country's series beyond those of the column, from SOURCE.md. */
export const DISPASET_COUNTRY_NOTES: Readonly<Record<string, string>> = {
  NO_offshore_wind: "The source has values for Norway (mean 0.47), which are likely modelled, " +
    "not from an observed offshore fleet.",
};

/** The `source` text of a Dispa-SET series in one country. */
export function dispasetSource(series: DispasetSeries, country: Country): string {
  const file = series.origin.replaceAll("{C}", country.dispaset);
  return `Dispa-SET EU28 input data, ${file} ` +
    `(https://github.com/energy-modelling-toolkit/Dispa-SET at commit ${DISPASET_COMMIT}; ` +
    "licence EUPL v1.2; series derived from ENTSO-E and JRC sources). " + CITATION;
}
