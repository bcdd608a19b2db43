/**
 * The parameters the scraper extracts, their canonical units, and their conversion to the
 * catalogue's instance fields (USD/kW, percent, years, g/kWh).
 */
import type { InstanceNumberField } from "../catalogue/schema/technology_schema.ts";
import type { Paper } from "./paper.ts";

/** Parameter names, one per catalogue instance field the scraper can fill. */
export const PARAMETER_NAMES = [
  "capex",
  "opex_fixed",
  "opex_var",
  "efficiency",
  "lifetime",
  "co2_factor",
] as const;

/** A parameter name. */
export type ParameterName = typeof PARAMETER_NAMES[number];

/** The catalogue instance fields the scraper can fill (`lib/catalogue` instance schema). */
export const CATALOGUE_FIELDS = [
  "capex_usd_per_kw",
  "capex_usd_per_kwh",
  "capex_usd_per_kw_km",
  "opex_fixed_usd_per_kw_yr",
  "opex_fixed_usd_per_kwh_yr",
  "opex_fixed_usd_per_kw_km_yr",
  "opex_var_usd_per_mwh",
  "efficiency_percent",
  "lifetime_years",
  "co2_emission_factor_operational_g_per_kwh",
] as const satisfies readonly InstanceNumberField[];

/** A catalogue instance field the scraper can fill. */
export type CatalogueField = typeof CATALOGUE_FIELDS[number];

/** A value in the unit of a catalogue instance field. */
export interface CatalogueValue {
  field: CatalogueField;
  value: number;
}

/**
 * Exchange rates as USD per one unit of each currency (`{ EUR: 1.08 }`), supplied by the
 * configuration with their price year; USD needs no entry. Without a rate, values in that
 * currency are kept as found and get no catalogue value.
 */
export type FxTable = Readonly<Record<string, number>>;

/**
 * One parameter found in a paper.
 *
 * `unit` is canonical: `EUR/kW`, `USD/kWh`, `EUR/MW/km`, `USD/kW/yr`, `USD/kWh/yr`, `%capex/yr`,
 * `EUR/MWh`, `%`, `years`, `gCO2/kWh`, `kgCO2/MWh`, `tCO2/MWh`.
 */
export interface ExtractedParameter {
  parameter: ParameterName;
  /** The value as stated, in `unit` (ranges give their midpoint). */
  value: number;
  unit: string;
  /** ISO 4217 code for monetary values. */
  currency?: string;
  /** The text the value was read from, verbatim. */
  matched_text: string;
  /** The sentence around the match, for the reviewer. */
  context?: string;
  /** 0..1: how sure the extractor is that this is the parameter of the technology. */
  confidence: number;
  /** The catalogue field the value fills, when it can be converted to that field's unit. */
  catalogue_field?: CatalogueField;
  /** The value in the unit of `catalogue_field`. */
  catalogue_value?: number;
}

/** Something that reads parameters of one technology out of a paper. */
export interface Extractor {
  /** `pattern` or `llm`; stored with each candidate. */
  readonly name: string;
  extract(paper: Paper, technology_id: string): Promise<ExtractedParameter[]>;
}

const POWER_KW: Readonly<Record<string, number>> = { kW: 1, MW: 1e3, GW: 1e6 };
const ENERGY_MWH: Readonly<Record<string, number>> = { kWh: 1e-3, MWh: 1, GWh: 1e3 };
const ENERGY_KWH: Readonly<Record<string, number>> = { kWh: 1, MWh: 1e3, GWh: 1e6 };
const MASS_G: Readonly<Record<string, number>> = { g: 1, kg: 1e3, t: 1e6 };

/** Rounds away binary noise (1296.0000000000002) without losing meaningful digits. */
function tidy(value: number): number {
  return Number(value.toPrecision(10));
}

/** USD per unit of `currency`, or undefined when the table has no rate for it. */
export function usdRate(currency: string, fx: FxTable): number | undefined {
  if (currency === "USD") return 1;
  const rate = fx[currency];
  return rate !== undefined && Number.isFinite(rate) && rate > 0 ? rate : undefined;
}

const MONEY = /^([A-Z]{3})\/(kW|MW|GW|kWh|MWh|GWh)(\/km)?(\/yr)?$/;

/** Catalogue fields of money per capacity, by [energy basis, per km, per year]. */
function moneyField(perEnergy: boolean, perKm: boolean, perYear: boolean) {
  if (perEnergy) {
    if (perKm) return undefined;
    return perYear ? "opex_fixed_usd_per_kwh_yr" : "capex_usd_per_kwh";
  }
  if (perKm) return perYear ? "opex_fixed_usd_per_kw_km_yr" : "capex_usd_per_kw_km";
  return perYear ? "opex_fixed_usd_per_kw_yr" : "capex_usd_per_kw";
}

/** `value` in `unit` as the catalogue field it fills, in that field's unit, if possible. */
export function toCatalogueValue(
  parameter: ParameterName,
  value: number,
  unit: string,
  fx: FxTable = {},
): CatalogueValue | undefined {
  if (!Number.isFinite(value)) return undefined;
  switch (parameter) {
    case "capex":
    case "opex_fixed": {
      const match = MONEY.exec(unit);
      const rate = match ? usdRate(match[1] as string, fx) : undefined;
      if (!match || rate === undefined) return undefined;
      // capex has no per-year suffix, fixed O&M always has one.
      if ((match[4] !== undefined) !== (parameter === "opex_fixed")) return undefined;
      const basis = match[2] as string;
      const perEnergy = basis.endsWith("h");
      const field = moneyField(perEnergy, match[3] !== undefined, match[4] !== undefined);
      if (!field) return undefined;
      const divisor = perEnergy ? ENERGY_KWH[basis] as number : POWER_KW[basis] as number;
      return { field, value: tidy(value * rate / divisor) };
    }
    case "opex_var": {
      const match = /^([A-Z]{3})\/(kWh|MWh|GWh)$/.exec(unit);
      const rate = match ? usdRate(match[1] as string, fx) : undefined;
      if (!match || rate === undefined) return undefined;
      const perMwh = value * rate / (ENERGY_MWH[match[2] as string] as number);
      return { field: "opex_var_usd_per_mwh", value: tidy(perMwh) };
    }
    case "efficiency":
      return unit === "%" && value > 0 && value <= 100
        ? { field: "efficiency_percent", value }
        : undefined;
    case "lifetime":
      return unit === "years" && value > 0 ? { field: "lifetime_years", value } : undefined;
    case "co2_factor": {
      const match = /^(g|kg|t)CO2\/(kWh|MWh|GWh)$/.exec(unit);
      if (!match) return undefined;
      const grams = MASS_G[match[1] as string] as number;
      const perKwh = value * grams / (ENERGY_KWH[match[2] as string] as number);
      return { field: "co2_emission_factor_operational_g_per_kwh", value: tidy(perKwh) };
    }
  }
}
