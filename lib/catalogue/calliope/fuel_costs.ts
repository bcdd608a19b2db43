/**
 * Fuel: a supply or conversion technology burning a priced fuel gets `costs.<class>.om_con`,
 * Calliope's cost per unit of resource (supply) or carrier_in (conversion) consumed
 * (`calliope/config/defaults.yaml`, `default_cost.om_con`; the national-scale example's `ccgt`
 * is a supply with `om_con` as its fuel cost per kWh), = fuel price per kWh of fuel; a supply's
 * resource is the fuel, its `energy_eff` the plant efficiency. Its CO2 goes in the cost class
 * `co2` as `om_con` in tCO2 per kWh of fuel. `fuel: false` leaves both out.
 */
import type { CalliopeDraft } from "./calliope_draft.ts";
import type { CalliopeInstanceInput, CalliopeTechnologyInput } from "./calliope_input.ts";
import { fuelLink, fuelPriceSource } from "../adapters/fuel_link.ts";
import type { FuelRecord } from "../schema/fuel_schema.ts";

/** The cost class of the fuel's CO2. */
export const CALLIOPE_CO2_CLASS = "co2";

/** Which fuel records the adapter prices from, and whether it does. */
export interface FuelCostOptions {
  /** Fuel records (the catalogue's `fuels`); without them no om_con is set. */
  fuels?: readonly FuelRecord[] | undefined;
  /** Whether to set the fuel's om_con and CO2 cost class. */
  fuel: boolean;
}

/** Sets om_con per kWh of fuel consumed and the CO2 cost class, or notes why not. */
export function setFuelCosts(
  { parent, allowed, costClass, costs, co2Costs, notes }: CalliopeDraft,
  technology: Pick<CalliopeTechnologyInput, "carrier_in">,
  instance: Pick<CalliopeInstanceInput, "fuel" | "year">,
  { fuels, fuel }: FuelCostOptions,
): void {
  const link = fuel ? fuelLink(instance, fuels) : { kind: "none" as const };
  if (!fuel && instance.fuel !== null && instance.fuel !== undefined) {
    notes.push(
      `fuel=false: no om_con and no ${CALLIOPE_CO2_CLASS} cost class for ${instance.fuel}; ` +
        "price the fuel and book its CO2 in your model",
    );
  } else if (link.kind === "unknown") {
    notes.push(`No om_con for ${link.fuel}: ${link.reason}`);
  } else if (link.kind === "record") {
    const record = link.record;
    const where = `fuel ${record.fuel_id} ${record.year}`;
    const consumed = parent === "conversion"
      ? `carrier_in (${technology.carrier_in?.[0] ?? record.fuel_id})`
      : "resource (the fuel; energy_eff is the plant efficiency)";
    if (!allowed.costs.includes("om_con")) {
      notes.push(`om_con left out: Calliope 0.6 ${parent} has none (${where})`);
    } else {
      const price = record.price_usd_per_mwh_th;
      if (price === null) {
        notes.push(
          `om_con left out: the ${where} record has no price (` +
            `${record.notes.join("; ") || "the source gives none"})`,
        );
      } else {
        costs.om_con = price / 1000;
        notes.push(
          `om_con = ${price} USD/MWh_th (${where}, ${fuelPriceSource(record)}) / 1000 = ` +
            `${price / 1000} USD per kWh of ${consumed} consumed; ?fuel=false leaves it out`,
        );
      }
      const co2 = record.co2_intensity_t_per_mwh_th;
      if (co2 === null) {
        notes.push(`No ${CALLIOPE_CO2_CLASS} cost class: the ${where} record has no CO2 intensity`);
      } else if (costClass === CALLIOPE_CO2_CLASS) {
        notes.push(
          `The fuel's CO2 (${co2} tCO2/MWh_th) is not served: the cost class asked for is ` +
            `${CALLIOPE_CO2_CLASS} itself`,
        );
      } else {
        co2Costs.om_con = co2 / 1000;
        notes.push(
          `costs.${CALLIOPE_CO2_CLASS}.om_con = ${co2} tCO2/MWh_th (${where}) / 1000 = ` +
            `${co2 / 1000} tCO2 per kWh of fuel consumed: an emissions cost class; weight it ` +
            "in the objective or cap it with a group constraint",
        );
      }
    }
  }
}
