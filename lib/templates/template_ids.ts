/**
 * The technology template library's entries as the spec lists them (spec 002 part D,
 * "Technology template library"): seven groups, 49 ids. The issue speaks of "45 entries"; the
 * spec's list has 49 (8 + 11 + 4 + 6 + 12 + 4 + 4), and every one of them is here.
 */

/** The spec's seven template groups. */
export const TEMPLATE_CATEGORIES = [
  "renewable_generation",
  "conventional_generation",
  "electrochemical_storage",
  "mechanical_thermal_storage",
  "hydrogen_chain",
  "carbon_capture_storage",
  "demand",
] as const;

/** One of the spec's seven template groups. */
export type TemplateCategory = typeof TEMPLATE_CATEGORIES[number];

/** The template ids of each group, in the spec's order. */
export const TEMPLATE_GROUPS: Readonly<Record<TemplateCategory, readonly string[]>> = {
  renewable_generation: [
    "solar_pv_utility_scale",
    "solar_pv_distributed",
    "concentrated_solar_power_csp",
    "onshore_wind",
    "offshore_wind_fixed_bottom",
    "offshore_wind_floating",
    "hydroelectric_run_of_river",
    "hydroelectric_reservoir",
  ],
  conventional_generation: [
    "combined_cycle_gas_turbine_ccgt",
    "open_cycle_gas_turbine_ocgt",
    "internal_combustion_engine",
    "coal_power_plant",
    "nuclear_power_conventional",
    "small_modular_reactors_smr",
    "geothermal_power",
    "biomass_power_plant",
    "biogas_power_plant",
    "waste_to_energy",
    "marine_energy",
  ],
  electrochemical_storage: [
    "lithium_ion_bess",
    "redox_flow_batteries",
    "sodium_sulfur_batteries",
    "lead_acid_batteries",
  ],
  mechanical_thermal_storage: [
    "pumped_hydro_storage",
    "compressed_air_energy_storage_caes",
    "liquid_air_energy_storage_laes",
    "flywheels",
    "sensible_thermal_storage",
    "latent_thermal_storage",
  ],
  hydrogen_chain: [
    "pem_electrolyzer",
    "alkaline_electrolyzer",
    "solid_oxide_electrolyzer_soec",
    "pem_fuel_cell",
    "solid_oxide_fuel_cell_sofc",
    "hydrogen_pipeline",
    "compressed_hydrogen_storage",
    "liquid_hydrogen_storage",
    "underground_hydrogen_storage",
    "hydrogen_to_methane",
    "hydrogen_to_liquid_fuels",
    "hydrogen_steam_reforming_smr",
  ],
  carbon_capture_storage: [
    "post_combustion_ccs",
    "direct_air_capture_dac",
    "co2_pipeline",
    "co2_geological_storage",
  ],
  demand: ["electricity_demand", "heat_demand", "hydrogen_demand", "cooling_demand"],
};

/** Every template id, group by group in the spec's order. */
export const TEMPLATE_IDS: readonly string[] = TEMPLATE_CATEGORIES.flatMap((c) =>
  TEMPLATE_GROUPS[c]
);

/** The group of a template id, or undefined for an id that is not a template. */
export function templateCategory(id: string): TemplateCategory | undefined {
  return TEMPLATE_CATEGORIES.find((c) => TEMPLATE_GROUPS[c].includes(id));
}
