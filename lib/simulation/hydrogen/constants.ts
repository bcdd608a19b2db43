/**
 * Physical constants of the hydrogen plant model, in one place so every unit conversion uses
 * the same numbers (the client's fallback mixed HHV and LHV; research notes 1.6 item 4).
 */

/** Faraday constant, C/mol (CODATA 2018, exact). */
export const FARADAY = 96_485.332_12;

/** Molar gas constant, J/(mol K) (CODATA 2018, exact). */
export const R_GAS = 8.314_462_618;

/** Molar mass of H2, kg/mol (IUPAC). */
export const M_H2 = 2.015_88e-3;

/** Specific gas constant of H2, J/(kg K): R / M. */
export const R_H2 = R_GAS / M_H2;

/** Higher heating value of H2, kWh/kg (the client's payload constant `h2_hhv_kwh_per_kg`). */
export const H2_HHV_KWH_PER_KG = 39.4;

/** Lower heating value of H2, kWh/kg (research notes 2.4; 120 MJ/kg). */
export const H2_LHV_KWH_PER_KG = 33.33;

/** Density of H2 at normal conditions (0 °C, 1.01325 bar), kg/Nm³, as the client converts. */
export const H2_NORMAL_DENSITY_KG_PER_NM3 = 0.0899;

/** Thermoneutral cell voltage on the HHV basis, V (ΔH / 2F at 25 °C). */
export const THERMONEUTRAL_VOLTAGE_V = 1.481;

/** 0 °C in K. */
export const KELVIN_OFFSET = 273.15;
