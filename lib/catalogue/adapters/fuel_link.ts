/**
 * The fuel record an instance names, for the adapters: the record of the instance's `fuel` and
 * `year` (DECISIONS.md, "Fuels"), and the conversion of per-capacity figures between input and
 * output basis (DECISIONS.md, "Capacity basis").
 */
import type { FuelRecord } from "../schema/fuel_schema.ts";
import type { Instance } from "../schema/technology_schema.ts";

/** The instance fields the fuel link reads. */
export type FuelLinkInstance = Partial<Pick<Instance, "fuel" | "year">>;

/** An instance's fuel: the record, or why there is none to apply. */
export type FuelLink =
  | { kind: "none" }
  | { kind: "unknown"; fuel: string; reason: string }
  | { kind: "record"; record: FuelRecord };

/**
 * The fuel record of an instance: `none` when the instance burns no fuel (or `fuels` is not
 * given, then `unknown` when it names one), `unknown` with the reason when no record of its fuel
 * and year is among `fuels`, else the record.
 */
export function fuelLink(
  instance: FuelLinkInstance,
  fuels: readonly FuelRecord[] | undefined,
): FuelLink {
  const fuel = instance.fuel;
  if (fuel === null || fuel === undefined) return { kind: "none" };
  if (fuels === undefined) {
    return { kind: "unknown", fuel, reason: "no fuel records were given to the adapter" };
  }
  const year = instance.year;
  const record = fuels.find((f) => f.fuel_id === fuel && f.year === year);
  if (record === undefined) {
    return {
      kind: "unknown",
      fuel,
      reason: `the catalogue has no record of fuel "${fuel}" for ${year ?? "an unknown year"}`,
    };
  }
  return { kind: "record", record };
}

/** Where a fuel's price comes from, in words, for the notes. */
export function fuelPriceSource(record: FuelRecord): string {
  const row = record.price_source;
  if (row === null) return "no source row";
  return `source row ${row.technology},${row.parameter} = ${row.value} ${row.unit}` +
    (row.source ? ` (${row.source})` : "");
}

/**
 * A conversion of per-capacity figures from one capacity basis to the other: value on the
 * target basis = value × factor. Per kW of output → per kW of input: × efficiency; per kW of
 * input → per kW of output: ÷ efficiency.
 */
export interface CapacityConversion {
  from: "input" | "output";
  to: "input" | "output";
  /** Multiply a per-kW (and per-MWh) figure on `from` basis by this. */
  factor: number;
  efficiency: number;
  /** What was converted, with the figures before and after. */
  converted: Record<string, { before: number; after: number }>;
}
