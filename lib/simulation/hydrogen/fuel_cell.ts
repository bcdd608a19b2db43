/**
 * A PEM fuel cell on the LHV basis (research notes 2.4): the cell curve of Kim et al. (1995),
 * V = V0 − b ln j − R j − m exp(n j) with j in mA/cm² (robinroche/modellib `fuel_cell`), scaled
 * so that the rated power is reached at 500 mA/cm² with the payload's nominal LHV efficiency.
 * Hydrogen use is proportional to current, so the efficiency at part load follows the cell
 * voltage: η(j) = η_nom · V(j) / V(j_rated). The client's fallback converted on HHV although the
 * efficiency is LHV (research notes 1.6 item 4); here H2 = P / (η · 33.33 kWh/kg).
 */
import { H2_LHV_KWH_PER_KG } from "./constants.ts";

/** Kim et al. (1995) parameters as modellib states them. */
export const KIM_PARAMETERS = {
  v0: 1.031,
  b: 0.03,
  /** kΩ cm², i.e. V per mA/cm² */
  r: 2.45e-4,
  m: 2.11e-5,
  /** cm²/mA */
  n: 0.008,
  /** Cells per stack (modellib). */
  cellsPerStack: 35,
} as const;

/** Rated current density, A/cm². */
export const FC_RATED_CURRENT_DENSITY_ACM2 = 0.5;

/** Kim et al. (1995) cell voltage, V, at j in A/cm² (j > 0). */
export function kimCellVoltage(currentDensityAcm2: number): number {
  const { v0, b, r, m, n } = KIM_PARAMETERS;
  const j = Math.max(currentDensityAcm2 * 1000, 1e-9);
  return v0 - b * Math.log(j) - r * j - m * Math.exp(n * j);
}

/** One operating point of the fuel cell. */
export interface FuelCellPoint {
  readonly powerKw: number;
  readonly h2KgPerH: number;
  /** Stack terminal voltage, V (0 when off). */
  readonly terminalVoltageV: number;
  readonly currentDensityAcm2: number;
  /** Electrical efficiency, LHV basis, 0..1 (0 when off). */
  readonly efficiencyLhv: number;
}

const TABLE_POINTS = 2048;

/** A fuel cell of a rated power and nominal LHV efficiency. */
export class FuelCell {
  readonly ratedKw: number;
  readonly nominalEfficiencyLhv: number;
  /** Hydrogen use at rated power, kg/h. */
  readonly ratedH2KgPerH: number;
  readonly #ratedVoltage: number;
  readonly #j: Float64Array;
  readonly #p: Float64Array;

  constructor(ratedKw: number, nominalEfficiencyLhv: number) {
    if (!(ratedKw >= 0)) throw new RangeError(`fuel_cell.rated_power_kw ${ratedKw} is negative`);
    if (!(nominalEfficiencyLhv > 0 && nominalEfficiencyLhv < 1)) {
      throw new RangeError(`fuel cell efficiency ${nominalEfficiencyLhv} is not in (0, 1)`);
    }
    this.ratedKw = ratedKw;
    this.nominalEfficiencyLhv = nominalEfficiencyLhv;
    this.ratedH2KgPerH = ratedKw / (nominalEfficiencyLhv * H2_LHV_KWH_PER_KG);
    this.#ratedVoltage = kimCellVoltage(FC_RATED_CURRENT_DENSITY_ACM2);
    this.#j = new Float64Array(TABLE_POINTS);
    this.#p = new Float64Array(TABLE_POINTS);
    for (let i = 0; i < TABLE_POINTS; i++) {
      const j = FC_RATED_CURRENT_DENSITY_ACM2 * (i / (TABLE_POINTS - 1));
      this.#j[i] = j;
      this.#p[i] = this.#powerAt(j);
    }
  }

  /** Power at a current density, kW: rated · j V(j) / (j_r V(j_r)). */
  #powerAt(j: number): number {
    if (j <= 0) return 0;
    return (this.ratedKw * j * kimCellVoltage(j)) /
      (FC_RATED_CURRENT_DENSITY_ACM2 * this.#ratedVoltage);
  }

  #point(j: number): FuelCellPoint {
    if (!(j > 0) || this.ratedKw === 0) return FuelCell.off();
    const v = kimCellVoltage(j);
    return {
      powerKw: this.#powerAt(j),
      h2KgPerH: (this.ratedH2KgPerH * j) / FC_RATED_CURRENT_DENSITY_ACM2,
      terminalVoltageV: KIM_PARAMETERS.cellsPerStack * v,
      currentDensityAcm2: j,
      efficiencyLhv: (this.nominalEfficiencyLhv * v) / this.#ratedVoltage,
    };
  }

  /** The idle fuel cell. */
  static off(): FuelCellPoint {
    return {
      powerKw: 0,
      h2KgPerH: 0,
      terminalVoltageV: 0,
      currentDensityAcm2: 0,
      efficiencyLhv: 0,
    };
  }

  /** Operating point delivering `powerKw` (clipped to the rating). */
  atPower(powerKw: number): FuelCellPoint {
    if (!(powerKw > 0) || this.ratedKw === 0) return FuelCell.off();
    if (powerKw >= this.ratedKw) return this.#point(FC_RATED_CURRENT_DENSITY_ACM2);
    let lo = 0;
    let hi = TABLE_POINTS - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (this.#p[mid]! <= powerKw) lo = mid;
      else hi = mid;
    }
    const p0 = this.#p[lo]!;
    const p1 = this.#p[hi]!;
    let j = this.#j[lo]! + ((powerKw - p0) / (p1 - p0)) * (this.#j[hi]! - this.#j[lo]!);
    for (let k = 0; k < 2; k++) {
      const h = j * 1e-6;
      const d = (this.#powerAt(j + h) - this.#powerAt(j - h)) / (2 * h);
      if (d > 0) {
        j = Math.min(
          FC_RATED_CURRENT_DENSITY_ACM2,
          Math.max(1e-12, j - (this.#powerAt(j) - powerKw) / d),
        );
      }
    }
    return this.#point(j);
  }

  /** Operating point using `h2KgPerH` (clipped to the rating). */
  atH2Rate(h2KgPerH: number): FuelCellPoint {
    if (!(h2KgPerH > 0) || this.ratedKw === 0) return FuelCell.off();
    const j = Math.min(1, h2KgPerH / this.ratedH2KgPerH) * FC_RATED_CURRENT_DENSITY_ACM2;
    return this.#point(j);
  }
}
