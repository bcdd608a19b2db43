/**
 * The stripper's reboiler: specific regeneration energy (SRD, GJ per t CO2) and heat duty.
 *
 * Source: research notes section 2.5 ("Specific reboiler duty"), the standard decomposition
 * `q_reb = Δh_abs + q_sens + q_strip` of Springer doi:10.1007/s40789-016-0149-7 (MEA heat of
 * absorption ≈ 85 kJ/mol CO2), with `q_sens = (ṁ_solv/ṁ_CO2)·c_p·ΔT_HX` and
 * `q_strip = (n_H2O/n_CO2)_top·Δh_vap` (Δh_vap of water 40.7 kJ/mol). Duty is
 * `Q = ṁ_CO2·q_reb`: t/h × GJ/t = GJ/h = 277.78 kW per GJ/h. (The predecessor's fallback
 * divided this by a further 3600; research notes 1.6 item 1.)
 */
import { CO2_MOLAR_MASS_KG_KMOL, KWH_PER_GJ } from "./co2_properties.ts";

/** Parameters of the SRD decomposition. */
export interface RegenerationParameters {
  /** Heat of absorption of CO2 in the solvent, kJ/mol (MEA 85). */
  readonly heatOfAbsorptionKjMol: number;
  /** Solvent heat capacity, kJ/(kg·K) (3.7). */
  readonly solventCpKjKgK: number;
  /** Hot-side approach of the lean/rich heat exchanger, K (5–10). */
  readonly approachK: number;
  /** Water vapour leaving the stripper top per CO2, mol/mol (reflux ratio 0.8–1.2). */
  readonly strippingSteamRatio: number;
}

/** Latent heat of water at ~100 °C, kJ/mol. */
export const WATER_LATENT_HEAT_KJ_MOL = 40.7;

/** Desorption term Δh_abs/M_CO2 in GJ/t (85 kJ/mol → 1.93 GJ/t). */
export function desorptionGjT(p: RegenerationParameters): number {
  // kJ/mol ÷ g/mol = kJ/g = GJ/t
  return p.heatOfAbsorptionKjMol / CO2_MOLAR_MASS_KG_KMOL;
}

/** Stripping-steam term r·Δh_vap/M_CO2 in GJ/t (ratio 1.0 → 0.925 GJ/t). */
export function strippingGjT(p: RegenerationParameters): number {
  return p.strippingSteamRatio * WATER_LATENT_HEAT_KJ_MOL / CO2_MOLAR_MASS_KG_KMOL;
}

/**
 * Sensible heat to bring `solventTph` of rich solvent to stripper temperature, GJ/h
 * (`ṁ·c_p·ΔT`: t/h · kJ/(kg·K) · K = MJ/h ÷ 1000).
 */
export function sensibleHeatGjH(solventTph: number, p: RegenerationParameters): number {
  return solventTph * p.solventCpKjKgK * p.approachK / 1000;
}

/**
 * Specific reboiler duty, GJ/t, from the decomposition for a solvent-to-CO2 mass ratio
 * (kg/kg): e.g. 85 kJ/mol, 18.5 kg/kg, 3.7 kJ/(kg·K), 10 K, ratio 1.0 → 3.54 GJ/t.
 */
export function specificReboilerDutyGjT(
  solventPerCo2KgKg: number,
  p: RegenerationParameters,
): number {
  return desorptionGjT(p) + solventPerCo2KgKg * p.solventCpKjKgK * p.approachK / 1000 +
    strippingGjT(p);
}

/** Heat, kW, of a duty given in GJ/h (1 GJ/h = 277.78 kW). */
export function gjPerHourToKw(gjH: number): number {
  return gjH * KWH_PER_GJ;
}

/**
 * Reboiler heat duty, kW_th: `captured [t/h] × q [GJ/t] × 277.78 / η_thermal`.
 * Example: 136.8 t/h × 3.7 GJ/t → 140.6 MW_th (research notes check C2).
 */
export function reboilerDutyKw(
  capturedTph: number,
  specificDutyGjT: number,
  thermalEfficiencyFrac = 1,
): number {
  return capturedTph * specificDutyGjT * KWH_PER_GJ / thermalEfficiencyFrac;
}
