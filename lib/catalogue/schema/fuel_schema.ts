/**
 * The zod schema of a fuel record of the technology catalogue: the price and the CO2 intensity of
 * one fuel in one source year, as the source's `<fuel>,fuel,...` and `<fuel>,CO2 intensity,...`
 * rows give them, with those rows kept as they are (value, unit, currency, price year, source).
 * Thermal instances name their fuel in `fuel` (the `fuel_id`); the record of the instance's year
 * applies. A figure the source does not give is null, and `notes` says so.
 */
import { z } from "zod";

const KEY = /^[a-z][a-z0-9_]*$/;

/** One source row as read: the original figure before any conversion. */
export const sourceFigureSchema = z.strictObject({
  technology: z.string().min(1).describe("Source row `technology`, e.g. `gas`"),
  parameter: z.string().min(1).describe("Source row `parameter`: `fuel` or `CO2 intensity`"),
  value: z.number().describe("Source value, in `unit`"),
  unit: z.string().describe("Source unit, e.g. `EUR/MWh_th`, `tCO2/MWh_th`"),
  currency: z.enum(["EUR", "USD"]).nullable().describe("Currency of a money value; else null"),
  currency_year: z.number().int().nullable().describe(
    "The source's original price year (`currency_year`), before the source's own inflation " +
      "adjustment; null when the row has none",
  ),
  source: z.string().nullable().describe("Source text of the row; null when empty"),
  description: z.string().nullable().describe("`further description` of the row; null when empty"),
}).describe("A source row as given");

/** A source row as given. */
export type SourceFigure = z.infer<typeof sourceFigureSchema>;

/** A fuel in one source year. */
export const fuelRecordSchema = z.strictObject({
  fuel_id: z.string().regex(KEY, "must be lower-case snake_case").describe(
    "Identifier that instances name in `fuel`, e.g. `gas`",
  ),
  fuel_name: z.string().min(1).describe("Display name"),
  year: z.number().int().min(1990).max(2100).describe("Source year the figures stand for"),
  price_usd_per_mwh_th: z.number().min(0).nullable().describe(
    "Fuel price per MWh of fuel (thermal, LHV). Unit: USD/MWh_th at the catalogue's price " +
      "year. null when the source has none.",
  ),
  co2_intensity_t_per_mwh_th: z.number().min(0).nullable().describe(
    "CO2 emitted per MWh of fuel burnt. Unit: tCO2/MWh_th. null when the source has none.",
  ),
  price_source: sourceFigureSchema.nullable().describe("The price row as given; null if none"),
  co2_intensity_source: sourceFigureSchema.nullable().describe(
    "The CO2 intensity row as given; null if none",
  ),
  notes: z.array(z.string().min(1)).describe("How the figures were read; why one is missing"),
}).describe("Price and CO2 intensity of one fuel in one source year");

/** A fuel in one source year. */
export type FuelRecord = z.infer<typeof fuelRecordSchema>;
