/**
 * Calliope 0.6.10 `defaults.yaml` facts the pre-processing needs: each base group's own
 * constraint settings, the keys each group allows, and the `default_tech` values a loc_tech
 * falls back to for a key nobody set.
 */
import type { TechType } from "../model_config.ts";

type Value = number | string | boolean;

/**
 * Constraints each base group sets itself (`tech_groups.<type>.constraints`). These count as
 * keys set (e.g. a supply's `resource: inf` keeps it out of `loc_techs_finite_resource`).
 */
export const BASE_GROUP_CONSTRAINTS: Readonly<Record<TechType, Readonly<Record<string, Value>>>> = {
  supply: { energy_prod: true, resource: "inf", resource_unit: "energy" },
  supply_plus: { energy_prod: true, resource: "inf", resource_eff: 1, resource_unit: "energy" },
  demand: { energy_con: true, force_resource: true, resource_unit: "energy" },
  storage: { energy_con: true, energy_prod: true, storage_cap_max: "inf" },
  conversion: { energy_con: true, energy_prod: true },
  conversion_plus: { energy_con: true, energy_prod: true },
  transmission: { energy_con: true, energy_prod: true },
};

const ENERGY_CAP = [
  "energy_cap_equals",
  "energy_cap_equals_systemwide",
  "energy_cap_max",
  "energy_cap_max_systemwide",
  "energy_cap_min",
  "energy_cap_min_use",
  "energy_cap_per_unit",
  "energy_cap_scale",
];
const UNITS = [
  "units_equals",
  "units_equals_systemwide",
  "units_max",
  "units_max_systemwide",
  "units_min",
];
const STORAGE_LINK = [
  "charge_rate",
  "energy_cap_per_storage_cap_min",
  "energy_cap_per_storage_cap_max",
  "energy_cap_per_storage_cap_equals",
];
const CONVERSION = [
  ...ENERGY_CAP,
  "energy_con",
  "energy_eff",
  "energy_prod",
  "energy_ramping",
  "export_cap",
  "export_carrier",
  "lifetime",
  ...UNITS,
];
const SUPPLY = [
  ...ENERGY_CAP,
  "energy_eff",
  "energy_prod",
  "energy_ramping",
  "export_cap",
  "export_carrier",
  "force_resource",
  "lifetime",
  "resource",
  "resource_area_equals",
  "resource_area_max",
  "resource_area_min",
  "resource_area_per_energy_cap",
  "resource_min_use",
  "resource_scale",
  "resource_unit",
  ...UNITS,
];

/**
 * Calliope 0.6.10 never checks a `_systemwide` key against a type's `allowed_constraints`
 * (`locations.cleanup_undesired_keys` removes them before `checks._check_tech_final`) and builds
 * `energy_capacity_systemwide` for every technology that sets one (a link's two ends counted, so
 * against twice the value). `defaults.yaml` omits them for demand and transmission; Calliope's own
 * `test_systemwide_equals` sets `energy_cap_equals_systemwide` on a transmission technology.
 */
const ENERGY_CAP_SYSTEMWIDE = ["energy_cap_equals_systemwide", "energy_cap_max_systemwide"];

/**
 * `tech_groups.<type>.allowed_constraints`, plus {@link ENERGY_CAP_SYSTEMWIDE} for demand and
 * transmission.
 */
export const ALLOWED_CONSTRAINTS: Readonly<Record<TechType, readonly string[]>> = {
  conversion: CONVERSION,
  conversion_plus: ["carrier_ratios", ...CONVERSION],
  demand: [
    "energy_con",
    "force_resource",
    "resource",
    "resource_area_equals",
    "resource_scale",
    "resource_unit",
    ...ENERGY_CAP_SYSTEMWIDE,
  ],
  storage: [
    ...STORAGE_LINK,
    ...ENERGY_CAP,
    "energy_con",
    "energy_eff",
    "energy_prod",
    "energy_ramping",
    "export_cap",
    "export_carrier",
    "force_asynchronous_prod_con",
    "lifetime",
    "storage_cap_equals",
    "storage_cap_max",
    "storage_cap_min",
    "storage_cap_per_unit",
    "storage_initial",
    "storage_loss",
    "storage_time_max",
    "storage_discharge_depth",
    ...UNITS,
  ],
  supply: SUPPLY,
  supply_plus: [
    ...STORAGE_LINK,
    ...SUPPLY,
    "parasitic_eff",
    "resource_cap_equals",
    "resource_cap_equals_energy_cap",
    "resource_cap_max",
    "resource_cap_min",
    "resource_eff",
    "storage_cap_equals",
    "storage_cap_max",
    "storage_cap_min",
    "storage_cap_per_unit",
    "storage_initial",
    "storage_loss",
  ],
  transmission: [
    "energy_cap_equals",
    "energy_cap_min",
    "energy_cap_max",
    "energy_cap_per_unit",
    "energy_cap_scale",
    "energy_con",
    "energy_eff",
    "energy_eff_per_distance",
    "energy_prod",
    "force_asynchronous_prod_con",
    "lifetime",
    "one_way",
    ...ENERGY_CAP_SYSTEMWIDE,
  ],
};

const COMMON_COSTS = [
  "depreciation_rate",
  "energy_cap",
  "interest_rate",
  "om_annual",
  "om_annual_investment_fraction",
  "om_prod",
  "purchase",
];

/** `tech_groups.<type>.allowed_costs`. */
export const ALLOWED_COSTS: Readonly<Record<TechType, readonly string[]>> = {
  conversion: [...COMMON_COSTS, "export", "om_con"],
  conversion_plus: [...COMMON_COSTS, "export", "om_con"],
  demand: ["om_con"],
  storage: [...COMMON_COSTS, "export", "storage_cap"],
  supply: [...COMMON_COSTS, "export", "om_con", "resource_area"],
  supply_plus: [
    ...COMMON_COSTS,
    "export",
    "om_con",
    "resource_area",
    "resource_cap",
    "storage_cap",
  ],
  transmission: [...COMMON_COSTS, "energy_cap_per_distance", "purchase_per_distance"],
};

/** `tech_groups.<type>.required_constraints` (only demand requires one). */
export const REQUIRED_CONSTRAINTS: Readonly<Record<TechType, readonly string[]>> = {
  supply: [],
  supply_plus: [],
  demand: ["resource"],
  storage: [],
  conversion: [],
  conversion_plus: [],
  transmission: [],
};

/** `techs.default_tech.constraints`: the value of a key no level set. */
export const DEFAULT_CONSTRAINTS = {
  energy_cap_min: 0,
  energy_cap_max: Infinity,
  energy_cap_scale: 1,
  energy_con: false,
  energy_eff: 1,
  energy_prod: false,
  export_cap: Infinity,
  force_resource: false,
  parasitic_eff: 1,
  resource: 0,
  resource_area_max: Infinity,
  resource_area_min: 0,
  resource_cap_equals_energy_cap: false,
  resource_cap_max: Infinity,
  resource_cap_min: 0,
  resource_eff: 1,
  resource_min_use: 0,
  resource_scale: 1,
  resource_unit: "energy",
  storage_cap_max: Infinity,
  storage_cap_min: 0,
  storage_loss: 0,
} as const;
