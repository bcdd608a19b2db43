/**
 * The absorber as a first-order, capacity-limited column: it captures the design fraction of
 * the CO2 that enters unless the circulating solvent cannot carry that much.
 *
 * Source: research notes section 2.5 ("L/G and capture"): `η_cap = min(η_design,
 * ṁ_solv·cap_cyc/ṁ_CO2,in)`, cyclic capacity `cap_cyc = c_amine·Δα·M_CO2` (30 wt% MEA:
 * c = 0.30·1010/61.08 = 4.96 kmol/m³, lean 0.2–0.3 and rich 0.45–0.5 mol/mol, Δα ≈ 0.25).
 */
import { CO2_MOLAR_MASS_KG_KMOL, co2MassFraction } from "./co2_properties.ts";

/** Solvent data of the absorber. */
export interface SolventProperties {
  /** Amine concentration, kmol/m³ (30 wt% MEA: 4.96). */
  readonly amineKmolM3: number;
  /** Cyclic loading swing α_rich − α_lean, mol CO2/mol amine (MEA: 0.25). */
  readonly deltaAlpha: number;
  /** Solvent density, kg/m³ (30 wt% MEA: 1010). */
  readonly densityKgM3: number;
}

/** 30 wt% MEA, the research notes' reference solvent. */
export const MEA_30WT: SolventProperties = {
  amineKmolM3: 4.96,
  deltaAlpha: 0.25,
  densityKgM3: 1010,
};

/** Cyclic capacity of a solvent, kg CO2 per m³ of solvent circulated (`c·Δα·M_CO2`). */
export function cyclicCapacityKgM3(solvent: SolventProperties): number {
  return solvent.amineKmolM3 * solvent.deltaAlpha * CO2_MOLAR_MASS_KG_KMOL;
}

/**
 * CO2 captured, t/h: the design fraction of `co2InTph`, limited by what `solventM3h` of solvent
 * can carry (`solventM3h·cap_cyc/1000`). Never above the design fraction, never negative.
 */
export function capturedCo2Tph(
  co2InTph: number,
  designCaptureFrac: number,
  solventM3h: number,
  solvent: SolventProperties,
): number {
  if (!(co2InTph > 0)) return 0;
  const carried = solventM3h * cyclicCapacityKgM3(solvent) / 1000;
  return Math.max(0, Math.min(designCaptureFrac * co2InTph, carried));
}

/**
 * The liquid-to-gas mass ratio L/G (kg solvent per kg flue gas) that captures `captureFrac` of
 * the CO2 of a flue gas with `co2VolPct` vol% CO2 with the solvent working at its full cyclic
 * capacity: `L/G = captureFrac·w_CO2·ρ_solv/cap_cyc`.
 */
export function requiredLiquidToGasRatio(
  captureFrac: number,
  co2VolPct: number,
  solvent: SolventProperties,
): number {
  return captureFrac * co2MassFraction(co2VolPct) * solvent.densityKgM3 /
    cyclicCapacityKgM3(solvent);
}

/** Solvent flow, m³/h, from an L/G mass ratio and a flue-gas mass flow in t/h. */
export function solventFlowFromLiquidToGas(
  liquidToGas: number,
  flueGasTph: number,
  solvent: SolventProperties,
): number {
  return liquidToGas * flueGasTph * 1000 / solvent.densityKgM3;
}
