/**
 * CO2 conditioning: multi-stage intercooled compression of the stripper gas up to the critical
 * region, then a dense-phase pump to the target pressure.
 *
 * Source: research notes section 2.5 ("CO2 compression"): N stages of equal pressure ratio,
 * ideal gas with γ 1.29, `w_stage = c_p·T_in·(r^((γ−1)/γ) − 1)/η_is`, intercooled; above about
 * 80 bar a pump `w = Δp/(ρ·η)` with ρ ≈ 800 kg/m³ and η 0.75. Check values (my computation in
 * the notes): 1.5→80 bar, 4 stages, 40 °C, η 0.80: 91.5 kWh/t; pump 80→110 bar: +1.4 kWh/t.
 * DOE NETL range 80–130 kWh/t for 1.5→150 bar.
 */
import {
  CO2_CRITICAL_PRESSURE_BAR,
  CO2_HEAT_CAPACITY_RATIO,
  CO2_MOLAR_MASS_KG_KMOL,
  GAS_CONSTANT_J_MOL_K,
} from "./co2_properties.ts";

/** Parameters of the compression train. */
export interface CompressionParameters {
  /** Suction pressure, bar. */
  readonly inletPressureBar: number;
  /** Delivery pressure, bar. */
  readonly targetPressureBar: number;
  /** Gas stages (≥ 1). */
  readonly stages: number;
  /** Isentropic efficiency of each stage, 0–1. */
  readonly isentropicEfficiency: number;
  /** Gas temperature at the first stage and the coolant's target between stages, °C. */
  readonly intercoolingTempC: number;
  /**
   * Intercooler effectiveness, 0–1: the share of the temperature rise above the coolant target
   * that each intercooler removes (1 = back to `intercoolingTempC`).
   */
  readonly intercoolerEffectiveness: number;
  /** Pressure above which a dense-phase pump takes over, bar (80, above the critical 73.8). */
  readonly pumpAbovePressureBar: number;
  /** Density of dense-phase CO2 at the pump, kg/m³ (800). */
  readonly densePhaseDensityKgM3: number;
  /** Pump efficiency, 0–1 (0.75). */
  readonly pumpEfficiency: number;
}

/** Specific work of the train and the discharge temperature of its last gas stage. */
export interface CompressionDuty {
  /** Gas-stage work, kJ per kg CO2. */
  readonly gasWorkKjKg: number;
  /** Pump work, kJ per kg CO2. */
  readonly pumpWorkKjKg: number;
  /** Total, kWh per t CO2 (kJ/kg ÷ 3.6). */
  readonly totalKwhT: number;
  /** Discharge temperature of the last gas stage, °C. */
  readonly dischargeTempC: number;
  /** Pressure at the end of the gas stages, bar. */
  readonly gasOutletPressureBar: number;
}

/**
 * Specific work of compressing CO2 from `inletPressureBar` to `targetPressureBar`: gas stages up
 * to min(target, pump switch pressure), then the pump. Zero when the target is not above the
 * inlet.
 */
export function compressionDuty(p: CompressionParameters): CompressionDuty {
  const tCool = p.intercoolingTempC + 273.15;
  if (!(p.targetPressureBar > p.inletPressureBar)) {
    return {
      gasWorkKjKg: 0,
      pumpWorkKjKg: 0,
      totalKwhT: 0,
      dischargeTempC: p.intercoolingTempC,
      gasOutletPressureBar: p.inletPressureBar,
    };
  }
  const pumpFrom = Math.max(
    p.inletPressureBar,
    Math.min(p.targetPressureBar, Math.max(p.pumpAbovePressureBar, CO2_CRITICAL_PRESSURE_BAR)),
  );
  const gamma = CO2_HEAT_CAPACITY_RATIO;
  const exponent = (gamma - 1) / gamma;
  const cpJkgK = gamma / (gamma - 1) * GAS_CONSTANT_J_MOL_K / (CO2_MOLAR_MASS_KG_KMOL / 1000);
  const stages = Math.max(1, Math.round(p.stages));
  const ratio = (pumpFrom / p.inletPressureBar) ** (1 / stages);
  let tIn = tCool;
  let work = 0;
  let tOut = tCool;
  for (let s = 0; s < stages; s++) {
    const rise = tIn * (ratio ** exponent - 1) / p.isentropicEfficiency;
    work += cpJkgK * rise;
    tOut = tIn + rise;
    // the intercooler removes its share of the temperature above the coolant target
    tIn = tOut - p.intercoolerEffectiveness * (tOut - tCool);
  }
  const pumpJkg = p.targetPressureBar > pumpFrom
    ? (p.targetPressureBar - pumpFrom) * 1e5 / p.densePhaseDensityKgM3 / p.pumpEfficiency
    : 0;
  return {
    gasWorkKjKg: work / 1000,
    pumpWorkKjKg: pumpJkg / 1000,
    totalKwhT: (work + pumpJkg) / 1000 / 3.6,
    dischargeTempC: tOut - 273.15,
    gasOutletPressureBar: pumpFrom,
  };
}

/** Compression power, kW, for a CO2 flow in t/h at a specific work in kWh/t. */
export function compressionPowerKw(co2Tph: number, totalKwhT: number): number {
  return co2Tph * totalKwhT;
}
