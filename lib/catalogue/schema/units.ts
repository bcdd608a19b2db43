/**
 * Units and currency of the technology catalogue: reading the cost units of the source rows,
 * converting EUR to USD at one pinned rate, fixed O&M from a percentage of capex, operational CO2
 * from a fuel's CO2 intensity, the spec's catalogue <-> internal conversions, and the rounding
 * that keeps generated files stable.
 */
import type { InstanceNumberField } from "./technology_schema.ts";

/** What one unit of capacity is in a cost figure. */
export type CapacityBasis = "kw" | "kwh" | "kw_km" | "t_co2_per_h" | "t_co2_per_h_km";

/** The instance fields that hold capex and fixed O&M for each capacity basis. */
export const BASIS_FIELDS: Readonly<
  Record<CapacityBasis, { capex: InstanceNumberField; opex_fixed: InstanceNumberField }>
> = {
  kw: { capex: "capex_usd_per_kw", opex_fixed: "opex_fixed_usd_per_kw_yr" },
  kwh: { capex: "capex_usd_per_kwh", opex_fixed: "opex_fixed_usd_per_kwh_yr" },
  kw_km: { capex: "capex_usd_per_kw_km", opex_fixed: "opex_fixed_usd_per_kw_km_yr" },
  t_co2_per_h: {
    capex: "capex_usd_per_t_co2_per_h",
    opex_fixed: "opex_fixed_usd_per_t_co2_per_h_yr",
  },
  t_co2_per_h_km: {
    capex: "capex_usd_per_t_co2_per_h_km",
    opex_fixed: "opex_fixed_usd_per_t_co2_per_h_km_yr",
  },
};

/** Currencies the source rows use. */
export type Currency = "EUR" | "USD";

/** A cost unit read from a source row: currency, capacity basis and the factor to that basis. */
export interface CostUnit {
  readonly currency: Currency;
  readonly basis: CapacityBasis;
  /** Multiply the source value by this to get money per kW, kWh, kW·km, tCO2/h or tCO2/h·km. */
  readonly scale: number;
  /** What follows the capacity unit, e.g. `_e`, `_H2`, `el`, `Capacity` ("" when nothing). */
  readonly qualifier: string;
}

/**
 * Reads an investment unit such as `EUR/kW_e`, `EUR/MW`, `EUR/kWhCapacity`, `EUR/MWh_H2`,
 * `EUR/MW/km`, `USD/(tCO2/h)` or `EUR/(tCO2/h)/km`; undefined for anything else (e.g.
 * `EUR/kW_FT/year`, `EUR/m^3`), so that no unit is guessed.
 */
export function parseInvestmentUnit(unit: string): CostUnit | undefined {
  const m = /^(EUR|USD)\/(.*)$/.exec(unit.trim());
  if (!m) return undefined;
  const currency = m[1] as Currency;
  const rest = (m[2] as string).trim();
  if (rest === "(tCO2/h)") return { currency, basis: "t_co2_per_h", scale: 1, qualifier: "" };
  if (rest === "(tCO2/h)/km") {
    return { currency, basis: "t_co2_per_h_km", scale: 1, qualifier: "" };
  }
  const energy = /^(k|M)Wh([ _]?[A-Za-z0-9]*)$/.exec(rest);
  if (energy) {
    const scale = energy[1] === "M" ? 1 / 1000 : 1;
    return { currency, basis: "kwh", scale, qualifier: (energy[2] as string).trim() };
  }
  const line = /^(k|M)W\/km$/.exec(rest);
  if (line) {
    return { currency, basis: "kw_km", scale: line[1] === "M" ? 1 / 1000 : 1, qualifier: "" };
  }
  // Power, optionally qualified (`_e`, `el`, `_H2`, `_th,dp`) or dated (`_e, 2020`); no other `/`.
  const power = /^(k|M)W([_A-Za-z0-9,. ]*)$/.exec(rest);
  if (power) {
    const scale = power[1] === "M" ? 1 / 1000 : 1;
    return { currency, basis: "kw", scale, qualifier: (power[2] as string).trim() };
  }
  return undefined;
}

/** A variable-cost unit per MWh (`EUR/MWh`, `EUR/MWh_e`, `EUR/MWhel`, `EUR/MWh_H2`, ...). */
export interface EnergyCostUnit {
  readonly currency: Currency;
  /** What the MWh is of, e.g. `_e`, `_H2` ("" when not stated). */
  readonly qualifier: string;
}

/** Reads a variable O&M unit per MWh; undefined for anything else (e.g. `EUR/kW`). */
export function parseEnergyCostUnit(unit: string): EnergyCostUnit | undefined {
  const m = /^(EUR|USD)\/MWh([ _]?[A-Za-z0-9]*)$/.exec(unit.trim());
  return m ? { currency: m[1] as Currency, qualifier: (m[2] as string).trim() } : undefined;
}

/** Money in `currency` converted to USD at `usdPerEur` (USD per EUR); USD passes unchanged. */
export function toUsd(value: number, currency: Currency, usdPerEur: number): number {
  return currency === "USD" ? value : value * usdPerEur;
}

/**
 * Fixed O&M per unit of capacity and year from the source's FOM (percent of investment per
 * year): FOM / 100 × capex, in the capex's money and basis.
 */
export function fixedOpexFromFom(fomPercentPerYear: number, capex: number): number {
  return fomPercentPerYear / 100 * capex;
}

/**
 * Operational CO2 in g per kWh of output of a fuelled plant: fuel CO2 intensity (tCO2/MWh_th)
 * / efficiency (fraction) × 1000, times the share not captured (1 - capture rate).
 * Example: gas 0.198 tCO2/MWh_th at 57 % gives 347.37 g/kWh.
 */
export function operationalCo2GPerKwh(
  fuelTPerMwhTh: number,
  efficiency: number,
  captureRate = 0,
): number {
  if (!(efficiency > 0)) throw new RangeError(`efficiency must be > 0, got ${efficiency}`);
  if (!(captureRate >= 0 && captureRate <= 1)) {
    throw new RangeError(`capture rate must be within [0, 1], got ${captureRate}`);
  }
  return fuelTPerMwhTh / efficiency * 1000 * (1 - captureRate);
}

/** `value` rounded to `digits` significant digits (to keep generated numbers stable). */
export function roundSignificant(value: number, digits: number): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  return Number(value.toPrecision(digits));
}

/** Significant digits of every number the catalogue build writes (the source has about 5-8). */
export const CATALOGUE_DIGITS = 6;

/** Significant digits kept by the legacy conversions: removes float noise such as 56.99999999. */
export const CONVERSION_DIGITS = 12;

/** Efficiency: fraction (internal/legacy) to percent (catalogue). */
export function fractionToPercent(fraction: number): number {
  return roundSignificant(fraction * 100, CONVERSION_DIGITS);
}

/** Efficiency: percent (catalogue) to fraction (internal/legacy). */
export function percentToFraction(percent: number): number {
  return roundSignificant(percent / 100, CONVERSION_DIGITS);
}

/** Capacity: kW (internal/legacy) to MW (catalogue). */
export function kwToMw(kw: number): number {
  return roundSignificant(kw / 1000, CONVERSION_DIGITS);
}

/** Capacity: MW (catalogue) to kW (internal/legacy). */
export function mwToKw(mw: number): number {
  return roundSignificant(mw * 1000, CONVERSION_DIGITS);
}

/** Emission factor: tCO2/MWh (internal/legacy) to g/kWh (catalogue); the same number × 1000. */
export function tPerMwhToGPerKwh(tPerMwh: number): number {
  return roundSignificant(tPerMwh * 1000, CONVERSION_DIGITS);
}

/** Emission factor: g/kWh (catalogue) to tCO2/MWh (internal/legacy). */
export function gPerKwhToTPerMwh(gPerKwh: number): number {
  return roundSignificant(gPerKwh / 1000, CONVERSION_DIGITS);
}
