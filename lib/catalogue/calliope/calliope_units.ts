/**
 * The unit of every numeric key the adapter serves, by path. Calliope works in kW and kWh, the
 * catalogue in MW and MWh; a link's distance is in metres (`per_distance_costs.ts`).
 */
import type { CalliopeDraft } from "./calliope_draft.ts";
import type { CalliopeConstraintKey, CalliopeCostKey } from "./calliope_keys.ts";
import { CALLIOPE_CO2_CLASS } from "./fuel_costs.ts";

/** Unit of each constraint key the adapter serves. */
const CONSTRAINT_UNITS: Partial<Record<CalliopeConstraintKey, string>> = {
  energy_eff: "1 (per unit; for storage applied on charge and on discharge)",
  energy_cap_max: "kW",
  energy_ramping: "1/h (fraction of energy_cap per hour, as Calliope reads it)",
  lifetime: "a",
  storage_loss: "1/h (share of stored energy lost per hour)",
  energy_cap_per_storage_cap_max: "1/h (kW per kWh)",
  resource_unit: "- (a word: energy_per_cap means resource is in kWh per kW of energy_cap)",
  energy_eff_per_distance:
    "1/m (efficiency per metre of link, applied as energy_eff_per_distance^distance in metres)",
};

/** Unit of each cost key the adapter serves. */
const COST_UNITS: Partial<Record<CalliopeCostKey, string>> = {
  interest_rate: "1 (fraction per year)",
  energy_cap: "USD/kW",
  om_annual: "USD/kW/a",
  om_prod: "USD/kWh",
  om_con: "USD/kWh (per kWh of fuel consumed)",
  energy_cap_per_distance:
    "USD/kW/m (per metre of link: Calliope 0.6 link distances are in metres)",
  storage_cap: "USD/kWh",
};

/**
 * Units of the draft's constraints and costs (`constraints.<key>`, `costs.<class>.<key>`);
 * `resourceUnit` is the unit of its resource series, if it has one.
 */
export function calliopeUnits(
  { constraints, costs, co2Costs, costClass }: CalliopeDraft,
  resourceUnit: string | undefined,
): Record<string, string> {
  const units: Record<string, string> = {};
  for (const key of Object.keys(constraints) as CalliopeConstraintKey[]) {
    units[`constraints.${key}`] = key === "resource" && resourceUnit !== undefined
      ? resourceUnit
      : CONSTRAINT_UNITS[key] ?? "";
  }
  for (const key of Object.keys(costs) as CalliopeCostKey[]) {
    units[`costs.${costClass}.${key}`] = COST_UNITS[key] ?? "";
  }
  if (co2Costs.om_con !== undefined) {
    units[`costs.${CALLIOPE_CO2_CLASS}.om_con`] = "tCO2/kWh (per kWh of fuel consumed)";
  }
  return units;
}
