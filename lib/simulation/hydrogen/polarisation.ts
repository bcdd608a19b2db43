/**
 * Cell physics of a water electrolyser: reversible voltage, activation and ohmic overpotentials
 * and Faraday efficiency, after NREL/electrolyzer `components/cell/pem_cell.py` and Ulleberg
 * (2003), calibrated so that the nominal load meets the payload's HHV efficiency (research
 * notes 2.1 and 3.1 step 4).
 */
import { FARADAY, H2_HHV_KWH_PER_KG, KELVIN_OFFSET, M_H2, R_GAS } from "./constants.ts";

/** Electrolyser technologies the client sends. */
export type ElectrolyserTech = "pem" | "alkaline" | "soec" | "aem";

/**
 * Reversible cell voltage, V: U0(T) = 1.229 − 0.9 mV/K (T − 298.15) (NREL `pem_cell.py`
 * `temp_adjusted`; Valverde et al. 2013, doi:10.1016/j.ijhydene.2013.06.113) plus the Nernst
 * term (RT/2F) ln(p_H2 √p_O2) with pressures in bar and unit water activity.
 */
export function reversibleVoltage(
  temperatureC: number,
  cathodePressureBar = 1,
  anodePressureBar = 1,
): number {
  const t = temperatureC + KELVIN_OFFSET;
  const u0 = 1.229 - 0.9e-3 * (t - 298.15);
  const nernst = ((R_GAS * t) / (2 * FARADAY)) *
    Math.log(cathodePressureBar * Math.sqrt(anodePressureBar));
  return u0 + nernst;
}

/** Butler-Volmer kinetics of the two electrodes (NREL `pem_cell.py` defaults). */
export interface Kinetics {
  /** Anode exchange current density, A/cm² (Ir, OER). */
  readonly i0Anode: number;
  /** Cathode exchange current density, A/cm² (Pt, HER). */
  readonly i0Cathode: number;
  readonly alphaAnode: number;
  readonly alphaCathode: number;
}

/** NREL/electrolyzer `pem_cell.py` defaults: i0_a 2e-7, i0_c 2e-3 A/cm², α_a 2, α_c 0.5. */
export const NREL_PEM_KINETICS: Kinetics = {
  i0Anode: 2e-7,
  i0Cathode: 2e-3,
  alphaAnode: 2,
  alphaCathode: 0.5,
};

/**
 * Activation overpotential, V, of both electrodes in the symmetric Butler-Volmer (arcsinh) form:
 * (RT/α_a F) asinh(j / 2 i0_a) + (RT/α_c F) asinh(j / 2 i0_c) (NREL `PEM_cell.py`).
 */
export function activationOverpotential(
  currentDensityAcm2: number,
  temperatureC: number,
  kinetics: Kinetics = NREL_PEM_KINETICS,
): number {
  const rtf = (R_GAS * (temperatureC + KELVIN_OFFSET)) / FARADAY;
  return (rtf / kinetics.alphaAnode) * Math.asinh(currentDensityAcm2 / (2 * kinetics.i0Anode)) +
    (rtf / kinetics.alphaCathode) * Math.asinh(currentDensityAcm2 / (2 * kinetics.i0Cathode));
}

/** Faraday-efficiency parameters of the Ulleberg form (f1 mA²/cm⁴, f2 dimensionless). */
export interface FaradayParameters {
  readonly f1: number;
  readonly f2: number;
}

/**
 * Faraday parameters by technology: PEM f1 = 250, f2 = 0.996 (NREL `pem_cell.py`); alkaline
 * f1 = 250, f2 = 0.96 (Ulleberg 2003, robinroche/modellib `load_parameters.m`). AEM and SOEC
 * take the PEM values (no source gives theirs).
 */
export function faradayParameters(tech: ElectrolyserTech): FaradayParameters {
  return tech === "alkaline" ? { f1: 250, f2: 0.96 } : { f1: 250, f2: 0.996 };
}

/**
 * Faraday efficiency η_F = j² / (f1 + j²) · f2 with j in mA/cm² (Ulleberg 2003): the share of the
 * current that makes hydrogen, falling at low current density through gas crossover.
 */
export function faradayEfficiency(
  currentDensityAcm2: number,
  params: FaradayParameters = faradayParameters("pem"),
): number {
  const jmA = currentDensityAcm2 * 1000;
  const j2 = jmA * jmA;
  return (j2 / (params.f1 + j2)) * params.f2;
}

/** Nominal current density, A/cm²: 2 for PEM/AEM/SOEC, 0.4 for alkaline (research notes 3.1). */
export function nominalCurrentDensity(tech: ElectrolyserTech): number {
  return tech === "alkaline" ? 0.4 : 2;
}

/** A calibrated cell: V(j) = U_rev + k·η_act(j) + j·ASR. */
export interface CalibratedCell {
  readonly tech: ElectrolyserTech;
  readonly temperatureC: number;
  readonly reversibleVoltageV: number;
  /** Area-specific resistance, Ω cm² (membrane, electrodes and contacts lumped). */
  readonly asrOhmCm2: number;
  /** Scale on the activation term (1 unless the target voltage needs less). */
  readonly activationScale: number;
  readonly nominalCurrentDensityAcm2: number;
  readonly faraday: FaradayParameters;
  /** Cell voltage at a current density, V. */
  voltage(currentDensityAcm2: number): number;
}

/** Smallest lumped ASR kept by the calibration, Ω cm² (electrode contacts alone; NREL R_elec). */
export const MIN_ASR_OHM_CM2 = 0.01;

/**
 * Calibrates the cell so that at the nominal current density the plant meets the nominal HHV
 * efficiency: V(j_nom) = HHV·M/2F (1.481 V) · η_F(j_nom) · (P_stack/P_ac at nominal) / η_nom (research notes
 * 3.1 step 4), solving for the ASR; when that would fall below MIN_ASR_OHM_CM2 (a very efficient
 * plant) the activation term is scaled down instead.
 */
export function calibrateCell(options: {
  tech: ElectrolyserTech;
  temperatureC: number;
  cathodePressureBar: number;
  /** Nominal system efficiency on the HHV basis, 0..1. */
  nominalEfficiencyHhv: number;
  /** DC stack power over AC plant power at nominal load (rectifier and balance of plant). */
  stackShareAtNominal: number;
  /** HHV the efficiency refers to, kWh/kg (default 39.4, the payload's constant). */
  hhvKwhPerKg?: number;
}): CalibratedCell {
  const { tech, nominalEfficiencyHhv: eta } = options;
  if (!(eta > 0 && eta <= 1)) throw new RangeError(`nominal efficiency ${eta} is not in (0, 1]`);
  // The liquid-water correlation of U0 holds to 100 °C; a warmer (SOEC) stack keeps it there
  // and the calibration absorbs the rest.
  const temperatureC = Math.min(Math.max(options.temperatureC, 0), 100);
  const uRev = reversibleVoltage(temperatureC, Math.max(options.cathodePressureBar, 1e-3));
  const jNom = nominalCurrentDensity(tech);
  const faraday = faradayParameters(tech);
  // The thermoneutral voltage ΔH/2F of the HHV used (1.481 V for 39.4 kWh/kg), so that the
  // plant's efficiency on that HHV is exactly the nominal one.
  const hhvVoltage = ((options.hhvKwhPerKg ?? H2_HHV_KWH_PER_KG) * 3.6e6 * M_H2) / (2 * FARADAY);
  const target = (hhvVoltage * faradayEfficiency(jNom, faraday) *
    options.stackShareAtNominal) / eta;
  const act = activationOverpotential(jNom, temperatureC);
  let asr = (target - uRev - act) / jNom;
  let scale = 1;
  if (asr < MIN_ASR_OHM_CM2) {
    asr = MIN_ASR_OHM_CM2;
    scale = (target - uRev - jNom * asr) / act;
    if (!(scale > 0)) {
      throw new RangeError(
        `nominal efficiency ${(eta * 100).toFixed(1)} % HHV needs a cell voltage of ${
          target.toFixed(3)
        } V, ` +
          `below the reversible voltage ${uRev.toFixed(3)} V`,
      );
    }
  }
  return {
    tech,
    temperatureC,
    reversibleVoltageV: uRev,
    asrOhmCm2: asr,
    activationScale: scale,
    nominalCurrentDensityAcm2: jNom,
    faraday,
    voltage: (j) =>
      j <= 0 ? uRev : uRev + scale * activationOverpotential(j, temperatureC) + j * asr,
  };
}
