/**
 * Physical constants of CO2 and of the flue gas that the capture chain shares. Values are
 * textbook constants (CODATA gas constant, IUPAC molar masses) restated in the research notes
 * (/work/shared/research/simulation.md, section 2.5).
 */

/** Universal gas constant, J/(mol·K) (CODATA). */
export const GAS_CONSTANT_J_MOL_K = 8.314462618;

/** Molar mass of CO2, kg/kmol (= g/mol). */
export const CO2_MOLAR_MASS_KG_KMOL = 44.01;

/** Molar mass of the CO2-free flue gas (N2, O2, H2O mix), kg/kmol; research notes 3.2 step 1. */
export const FLUE_GAS_REST_MOLAR_MASS_KG_KMOL = 28.9;

/** Density of CO2 at normal conditions (0 °C, 1.01325 bar), kg/Nm³. */
export const CO2_NORMAL_DENSITY_KG_NM3 = 1.977;

/** Molar volume of an ideal gas at normal conditions, Nm³/kmol. */
export const NORMAL_MOLAR_VOLUME_NM3_KMOL = 22.414;

/** Heat capacity ratio of CO2 near ambient temperature (research notes 2.5, "γ 1.29"). */
export const CO2_HEAT_CAPACITY_RATIO = 1.29;

/** Critical pressure of CO2, bar (73.8 bar); compression switches to a pump above it. */
export const CO2_CRITICAL_PRESSURE_BAR = 73.8;

/** Kilowatt-hours in one gigajoule (1 GJ = 1e6 kJ = 277.78 kWh). */
export const KWH_PER_GJ = 1e6 / 3600;

/**
 * Mass fraction of CO2 in a flue gas of `co2VolPct` vol% CO2, the rest at 28.9 kg/kmol
 * (research notes 3.2 step 1: `w = x·44/(x·44 + (1 − x)·28.9)`).
 */
export function co2MassFraction(co2VolPct: number): number {
  const x = co2VolPct / 100;
  const co2 = x * CO2_MOLAR_MASS_KG_KMOL;
  return co2 / (co2 + (1 - x) * FLUE_GAS_REST_MOLAR_MASS_KG_KMOL);
}

/** Mean molar mass of a flue gas of `co2VolPct` vol% CO2, kg/kmol. */
export function flueGasMolarMass(co2VolPct: number): number {
  const x = co2VolPct / 100;
  return x * CO2_MOLAR_MASS_KG_KMOL + (1 - x) * FLUE_GAS_REST_MOLAR_MASS_KG_KMOL;
}
