/**
 * The fuel records of the catalogue, read from the source's fuel rows: per fuel of the recipe and
 * source year, the price (`<fuel>,fuel,<value>,EUR/MWh_th`) converted to USD with the pinned
 * USD/EUR rate, and the CO2 intensity (`<fuel>,CO2 intensity,<value>,tCO2/MWh_th`) as given. A
 * row the year's table lacks leaves its figure null with the reason in `notes`; nothing is
 * filled in from another year or another fuel.
 */
import type { CostRow, CostTable } from "./cost_table.ts";
import type { FuelRecord, SourceFigure } from "../schema/fuel_schema.ts";
import type { RecipeFuel } from "./recipe_schema.ts";
import { CATALOGUE_DIGITS, roundSignificant, toUsd } from "../schema/units.ts";

/** Price units read as per MWh of fuel (thermal); `EUR/MWh` is the source's unit for oil. */
const PRICE_UNIT = /^(EUR|USD)\/MWh(_th|th)?$/;

/** The source row as given. */
function figure(r: CostRow, currency: SourceFigure["currency"]): SourceFigure {
  return {
    technology: r.technology,
    parameter: r.parameter,
    value: r.value,
    unit: r.unit,
    currency,
    currency_year: r.currency_year,
    source: r.source || null,
    description: r.description || null,
  };
}

/** The record of `fuel` in `year`; problems go to `errors`. */
export function fuelRecord(
  fuel: RecipeFuel,
  year: number,
  table: CostTable,
  file: string,
  fx: number,
  errors: string[],
): FuelRecord {
  const where = `fuels/${fuel.fuel_id}/${year}`;
  const rows = table.get(fuel.source_technology);
  if (!rows) errors.push(`${where}: no source rows for "${fuel.source_technology}"`);
  const notes: string[] = [];
  const priceRow = rows?.get("fuel");
  let price: number | null = null;
  let priceSource: SourceFigure | null = null;
  if (priceRow) {
    const m = PRICE_UNIT.exec(priceRow.unit.trim());
    if (!m) errors.push(`${where}: fuel price unit "${priceRow.unit}" is not per MWh`);
    else {
      const currency = m[1] as "EUR" | "USD";
      price = roundSignificant(toUsd(priceRow.value, currency, fx), CATALOGUE_DIGITS);
      priceSource = figure(priceRow, currency);
      if (m[2] === undefined) {
        notes.push(
          `The source writes the price unit as "${priceRow.unit}"; read as per MWh of fuel ` +
            "(thermal), like its other fuel rows.",
        );
      }
      notes.push(
        currency === "EUR"
          ? `Price = source EUR/MWh_th × ${fx} USD/EUR.`
          : "Price is in USD in the source; used without exchange-rate conversion.",
      );
    }
  } else {
    notes.push(
      `Price missing: ${file} has no "${fuel.source_technology},fuel" row; left null.`,
    );
  }
  const co2Row = rows?.get("CO2 intensity");
  let co2: number | null = null;
  if (co2Row) {
    if (co2Row.unit !== "tCO2/MWh_th") {
      errors.push(`${where}: CO2 intensity unit "${co2Row.unit}" is not tCO2/MWh_th`);
    } else co2 = co2Row.value;
  } else {
    notes.push(
      `CO2 intensity missing: ${file} has no "${fuel.source_technology},CO2 intensity" row; ` +
        "left null.",
    );
  }
  notes.push(...fuel.notes ?? []);
  return {
    fuel_id: fuel.fuel_id,
    fuel_name: fuel.fuel_name,
    year,
    price_usd_per_mwh_th: price,
    co2_intensity_t_per_mwh_th: co2,
    price_source: priceSource,
    co2_intensity_source: co2Row ? figure(co2Row, null) : null,
    notes,
  };
}

/** Every fuel's record per source year, fuel by fuel in recipe order, years ascending. */
export function fuelRecords(
  fuels: readonly RecipeFuel[],
  tables: ReadonlyMap<number, CostTable>,
  files: Readonly<Record<string, string>>,
  fx: number,
  errors: string[],
): FuelRecord[] {
  const years = [...tables.keys()].sort((a, b) => a - b);
  return fuels.flatMap((f) =>
    years.map((y) =>
      fuelRecord(f, y, tables.get(y) as CostTable, files[String(y)] ?? `costs_${y}.csv`, fx, errors)
    )
  );
}
