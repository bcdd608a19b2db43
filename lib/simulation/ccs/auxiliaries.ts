/**
 * Electric auxiliaries of the absorber: the flue-gas fan (blower) and the solvent pumps.
 *
 * Source: research notes section 2.5 ("Electricity (fans and pumps)"): fan `P = V̇_gas·Δp/η`
 * with Δp ≈ 0.1–0.15 bar and η ≈ 0.75–0.8; pumps `P = V̇_solv·Δp/η` with Δp ≈ 2–3 bar; DEA
 * (via PyPSA technology-data) 0.022–0.03 MWh per t CO2 as a cross-check.
 */
import { GAS_CONSTANT_J_MOL_K } from "./co2_properties.ts";

/** Parameters of the fan and the pumps. */
export interface AuxiliaryParameters {
  /** Pressure rise of the flue-gas fan, bar (0.12). */
  readonly fanDeltaPBar: number;
  /** Fan efficiency (0.8). */
  readonly fanEfficiency: number;
  /** Pressure rise of the solvent pumps, bar (2.5). */
  readonly pumpDeltaPBar: number;
  /** Pump efficiency (0.75). */
  readonly pumpEfficiency: number;
}

/** The research notes' default fan and pump data. */
export const DEFAULT_AUXILIARIES: AuxiliaryParameters = {
  fanDeltaPBar: 0.12,
  fanEfficiency: 0.8,
  pumpDeltaPBar: 2.5,
  pumpEfficiency: 0.75,
};

/**
 * Actual volume flow of a gas, m³/s, from its molar flow (kmol/s), temperature (°C) and
 * pressure (bar) by the ideal-gas law.
 */
export function gasVolumeFlowM3s(kmolS: number, temperatureC: number, pressureBar: number): number {
  return kmolS * 1000 * GAS_CONSTANT_J_MOL_K * (temperatureC + 273.15) / (pressureBar * 1e5);
}

/** Fan power, kW, for an actual gas volume flow in m³/s. */
export function fanPowerKw(gasM3s: number, p: AuxiliaryParameters): number {
  return gasM3s * p.fanDeltaPBar * 1e5 / p.fanEfficiency / 1000;
}

/** Solvent pump power, kW, for a solvent flow in m³/h. */
export function pumpPowerKw(solventM3h: number, p: AuxiliaryParameters): number {
  return solventM3h / 3600 * p.pumpDeltaPBar * 1e5 / p.pumpEfficiency / 1000;
}
