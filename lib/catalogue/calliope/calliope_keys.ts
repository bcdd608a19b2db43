/**
 * The technology keys Calliope 0.6 knows, as names only, read from calliope-project/calliope,
 * `calliope/config/defaults.yaml` at commit 1a26c59af14be41913891a362ee202b9ec7ec51e (0.6 series:
 * `energy_prod`/`energy_con` constraints, `export_cap`, no `switches`). `techs.default_tech` gives
 * the essentials, constraints and costs (`default_cost`); `tech_groups.<parent>` gives what each
 * abstract base technology allows (`allowed_constraints`, `allowed_costs`).
 */

import { ALLOWED_CONSTRAINTS, ALLOWED_COSTS } from "../../model/preprocess/tech_defaults.ts";

/** `techs.default_tech.essentials`. */
export const CALLIOPE_ESSENTIALS_KEYS = [
  "carrier_in",
  "carrier_in_2",
  "carrier_in_3",
  "carrier_out",
  "carrier_out_2",
  "carrier_out_3",
  "color",
  "name",
  "parent",
  "primary_carrier_in",
  "primary_carrier_out",
] as const;

/** `techs.default_tech.constraints`. */
const DEFAULT_CONSTRAINTS = [
  "carrier_ratios",
  "charge_rate",
  "energy_cap_per_storage_cap_min",
  "energy_cap_per_storage_cap_max",
  "energy_cap_per_storage_cap_equals",
  "energy_cap_equals",
  "energy_cap_equals_systemwide",
  "energy_cap_max",
  "energy_cap_max_systemwide",
  "energy_cap_min",
  "energy_cap_min_use",
  "energy_cap_per_unit",
  "energy_cap_scale",
  "energy_con",
  "energy_eff",
  "energy_eff_per_distance",
  "energy_prod",
  "energy_ramping",
  "export_cap",
  "export_carrier",
  "force_asynchronous_prod_con",
  "force_resource",
  "lifetime",
  "one_way",
  "parasitic_eff",
  "resource",
  "resource_area_equals",
  "resource_area_max",
  "resource_area_min",
  "resource_area_per_energy_cap",
  "resource_cap_equals",
  "resource_cap_equals_energy_cap",
  "resource_cap_max",
  "resource_cap_min",
  "resource_eff",
  "resource_min_use",
  "resource_scale",
  "resource_unit",
  "storage_cap_equals",
  "storage_cap_max",
  "storage_cap_min",
  "storage_cap_per_unit",
  "storage_discharge_depth",
  "storage_initial",
  "storage_loss",
  "units_equals",
  "units_equals_systemwide",
  "units_max",
  "units_max_systemwide",
  "units_min",
] as const;

/** Every constraint key: the defaults plus `storage_time_max`, which only `storage` allows. */
export const CALLIOPE_CONSTRAINT_KEYS = [...DEFAULT_CONSTRAINTS, "storage_time_max"] as const;

/** Every cost key: `default_cost` plus `depreciation_rate` and `purchase_per_distance`. */
export const CALLIOPE_COST_KEYS = [
  "energy_cap",
  "energy_cap_per_distance",
  "export",
  "interest_rate",
  "om_annual",
  "om_annual_investment_fraction",
  "om_con",
  "om_prod",
  "purchase",
  "resource_area",
  "resource_cap",
  "storage_cap",
  "depreciation_rate",
  "purchase_per_distance",
] as const;

/** A constraint key of Calliope 0.6. */
export type CalliopeConstraintKey = typeof CALLIOPE_CONSTRAINT_KEYS[number];
/** A cost key of Calliope 0.6. */
export type CalliopeCostKey = typeof CALLIOPE_COST_KEYS[number];

/** Abstract base technologies (`essentials.parent`) this service emits. */
export const CALLIOPE_PARENTS = [
  "supply",
  "supply_plus",
  "storage",
  "transmission",
  "conversion",
] as const;

/** An abstract base technology (`essentials.parent`) this service emits. */
export type CalliopeParent = typeof CALLIOPE_PARENTS[number];

/**
 * `tech_groups.<parent>.allowed_constraints` and `.allowed_costs`, as the runner's
 * pre-processing reads them from Calliope's defaults (one transcription of `defaults.yaml`).
 */
export const CALLIOPE_ALLOWED = Object.fromEntries(
  CALLIOPE_PARENTS.map((parent) => [parent, {
    constraints: ALLOWED_CONSTRAINTS[parent] as readonly CalliopeConstraintKey[],
    costs: ALLOWED_COSTS[parent] as readonly CalliopeCostKey[],
  }]),
) as Record<
  CalliopeParent,
  { constraints: readonly CalliopeConstraintKey[]; costs: readonly CalliopeCostKey[] }
>;
