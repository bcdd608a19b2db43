/**
 * Every result key the existing client (TEMPO) reads, per model: the flat series its charts
 * read, the nested per-unit series and the KPIs in both namings (research notes
 * /work/shared/research/simulation.md §1.2, §1.3). The model tests and the service tests check
 * the same lists.
 */

/** Hydrogen plant: flat series. */
export const H2_FLAT = [
  "time_s",
  "source_power_kw",
  "electrolyzer_power_kw",
  "h2_production_nm3h",
  "h2_production_kg_h",
  "elz_efficiency_pct",
  "compressor_power_kw",
  "tank_pressure_bar",
  "tank_soc_pct",
  "h2_mass_kg",
  "fc_power_output_kw",
  "h2_consumption_nm3h",
  "fc_terminal_voltage_v",
  "fc_current_density_acm2",
  "fc_efficiency_pct",
] as const;

/** Hydrogen plant: nested series by unit. */
export const H2_NESTED: Readonly<Record<string, readonly string[]>> = {
  electrolyzer: [
    "power_in_kw",
    "h2_production_nm3h",
    "h2_production_kg_h",
    "efficiency_pct",
    "stack_temperature_c",
  ],
  compressor: ["power_consumed_kw", "outlet_pressure_bar"],
  storage: ["pressure_bar", "soc_pct", "h2_mass_kg"],
  fuel_cell: [
    "power_output_kw",
    "h2_consumed_nm3h",
    "terminal_voltage_v",
    "current_density_acm2",
    "efficiency_pct",
  ],
  source: ["power_output_kw"],
};

/** Hydrogen plant: KPIs, both namings. */
export const H2_KPI = [
  "total_h2_produced_kg",
  "total_h2_consumed_kg",
  "total_energy_consumed_kwh",
  "overall_system_efficiency_pct",
  "system_efficiency_pct",
  "specific_energy_kwh_kg",
  "peak_h2_production_kg_h",
  "avg_electrolyzer_load_pct",
  "capacity_factor_pct",
  "fuel_cell_capacity_factor_pct",
  "total_source_energy_kwh",
  "total_curtailed_energy_kwh",
  "total_elz_energy_kwh",
  "total_fc_energy_kwh",
  "avg_source_power_kw",
  "avg_fc_power_kw",
  "peak_source_power_kw",
  "peak_fc_power_kw",
  "avg_h2_production_nm3h",
  "peak_tank_pressure_bar",
  "total_h2_produced_nm3",
  "total_h2_consumed_nm3",
  "avg_elz_power_kw",
  "peak_elz_power_kw",
] as const;

/** Carbon capture: flat series. */
export const CCS_FLAT = [
  "time_s",
  "source_co2_tph",
  "absorber_co2_captured_tph",
  "absorber_solvent_flow_m3h",
  "absorber_power_kw",
  "absorber_temperature_c",
  "stripper_co2_released_tph",
  "stripper_heat_demand_kw",
  "stripper_temperature_c",
  "compressor_power_kw",
  "compressor_outlet_pressure_bar",
  "compressor_temperature_c",
  "storage_pressure_bar",
  "storage_fill_pct",
  "storage_co2_mass_tonnes",
  "storage_injection_rate_tph",
] as const;

/** Carbon capture: nested series by unit. */
export const CCS_NESTED: Readonly<Record<string, readonly string[]>> = {
  source: ["co2_tph"],
  absorber: ["co2_captured_tph"],
  stripper: ["heat_demand_kw"],
  compressor: ["power_kw", "outlet_pressure_bar", "temperature_c"],
  storage: ["injection_rate_tph", "co2_mass_tonnes"],
};

/** Carbon capture: KPIs, both namings. */
export const CCS_KPI = [
  "total_co2_captured_tonnes",
  "total_co2_stored_tonnes",
  "average_capture_rate_pct",
  "specific_energy_kwh_tco2",
  "total_energy_kwh",
  "total_absorber_energy_kwh",
  "total_compressor_energy_kwh",
  "total_co2_captured_tco2",
  "total_co2_stored_tco2",
  "avg_capture_rate_pct",
  "specific_energy_gj_tco2",
  "total_energy_consumed_gwh",
  "avoided_emissions_tco2",
  "capture_cost_usd_tco2",
] as const;
