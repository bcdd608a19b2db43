/**
 * Multi-stage intercooled compression of hydrogen from the electrolyser's delivery pressure to
 * the tank's actual pressure (research notes 2.2): equal pressure ratio per stage, gas cooled
 * back to the inlet temperature between stages, isentropic efficiency per stage and the
 * compressibility of hydrogen averaged over each stage.
 */
import { R_H2 } from "./constants.ts";
import { compressibility } from "./hydrogen_real_gas.ts";

/** Heat-capacity ratio of hydrogen near room temperature (research notes 2.2). */
export const H2_GAMMA = 1.41;

/** Highest pressure ratio per stage (research notes 2.2: r ≤ ~3.5). */
export const MAX_STAGE_RATIO = 3.5;

/** Stages needed so that no stage exceeds MAX_STAGE_RATIO: ceil(ln(p2/p1) / ln 3.5). */
export function stageCount(inletBar: number, outletBar: number): number {
  if (!(outletBar > inletBar)) return 0;
  return Math.max(1, Math.ceil(Math.log(outletBar / inletBar) / Math.log(MAX_STAGE_RATIO) - 1e-12));
}

/** Options of a compression. */
export interface CompressionOptions {
  readonly inletBar: number;
  readonly outletBar: number;
  /** Suction (and intercooler outlet) temperature, K. */
  readonly inletTemperatureK: number;
  /** Isentropic efficiency per stage, 0..1. */
  readonly isentropicEfficiency: number;
  /** Stage count; by default `stageCount(inletBar, outletBar)`. */
  readonly stages?: number;
  /** Use the Lemmon, Huber and Leachman compressibility (default) or an ideal gas. */
  readonly realGas?: boolean;
}

/**
 * Specific shaft work of an N-stage intercooled compression, kWh per kg of H2:
 * w = Σ_stages γ/(γ−1) · (R/M) · T1 · Z_avg · (r^((γ−1)/γ) − 1) / η_is (research notes 2.2),
 * with r = (p2/p1)^(1/N) and Z_avg the mean of Z at each stage's suction and discharge pressure.
 * Zero when the outlet is not above the inlet.
 */
export function compressionWorkKwhPerKg(options: CompressionOptions): number {
  const { inletBar, outletBar, inletTemperatureK: t1, isentropicEfficiency: eta } = options;
  if (!(outletBar > inletBar) || !(inletBar > 0)) return 0;
  if (!(eta > 0 && eta <= 1)) throw new RangeError(`isentropic efficiency ${eta} is not in (0, 1]`);
  const n = options.stages ?? stageCount(inletBar, outletBar);
  const ratio = Math.pow(outletBar / inletBar, 1 / n);
  const exponent = (H2_GAMMA - 1) / H2_GAMMA;
  const perStage = (H2_GAMMA / (H2_GAMMA - 1)) * R_H2 * t1 * (Math.pow(ratio, exponent) - 1) /
    eta;
  let joules = 0;
  let p = inletBar;
  for (let s = 0; s < n; s++) {
    const pOut = p * ratio;
    const z = options.realGas === false
      ? 1
      : (compressibility(t1, p) + compressibility(t1, pOut)) / 2;
    joules += perStage * z;
    p = pOut;
  }
  return joules / 3.6e6;
}

/** Isothermal lower bound of the compression work, kWh/kg: (R/M) T ln(p2/p1). */
export function isothermalWorkKwhPerKg(
  inletBar: number,
  outletBar: number,
  temperatureK: number,
): number {
  if (!(outletBar > inletBar)) return 0;
  return (R_H2 * temperatureK * Math.log(outletBar / inletBar)) / 3.6e6;
}
