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

/** Options of a work table: a compression whose outlet pressure varies up to `maxOutletBar`. */
export interface CompressionTableOptions extends Omit<CompressionOptions, "outletBar" | "stages"> {
  /** Highest outlet pressure looked up, bar (higher ones are extrapolated from the last node). */
  readonly maxOutletBar: number;
  /** Nodes in all (default 1024); each stage count gets at least 16. */
  readonly points?: number;
  /** Every tabulated work is multiplied by this (e.g. 1 / motor efficiency; default 1). */
  readonly scale?: number;
}

/** One stage count's stretch of outlet pressures, with its own nodes evenly spaced in ln p. */
interface StageSegment {
  readonly stages: number;
  /** Outlet pressure of the first node, bar (the stretch's lower end). */
  readonly fromBar: number;
  /** Highest outlet pressure of this stage count, bar (inlet × 3.5^stages; last: Infinity). */
  readonly upToBar: number;
  /** 1 / step between nodes in ln(p). */
  readonly perLog: number;
  readonly work: Float64Array;
}

/**
 * The compression work by outlet pressure, tabulated so that a time step does not pay the
 * real-gas stage sums. The work drops where one more stage starts (at inlet × 3.5^n: the gas is
 * cooled once more), so the table keeps one stretch of nodes per stage count, each computed with
 * that stage count up to and including its own ends, and interpolates within one stage count
 * only; a single grid across the change was 4.8 % off next to it (issue 18). Within a stretch
 * the work is smooth in ln p (it is (p/p1)^(k/n) − 1 times a slowly varying Z): nodes evenly
 * spaced in ln p, 1024 in all, interpolate it within 0.05 % of `compressionWorkKwhPerKg` (the
 * most right above the inlet, where the work tends to zero).
 */
export class CompressionWorkTable {
  readonly #inletBar: number;
  readonly #segments: StageSegment[] = [];

  constructor(options: CompressionTableOptions) {
    const { inletBar, maxOutletBar, points = 1024, scale = 1 } = options;
    this.#inletBar = inletBar;
    if (!(inletBar > 0) || !(maxOutletBar > inletBar)) return;
    const logSpan = Math.log(maxOutletBar / inletBar);
    const maxStages = stageCount(inletBar, maxOutletBar);
    for (let stages = 1; stages <= maxStages; stages++) {
      const fromBar = stages === 1 ? inletBar : inletBar * MAX_STAGE_RATIO ** (stages - 1);
      const toBar = Math.min(maxOutletBar, inletBar * MAX_STAGE_RATIO ** stages);
      // Nodes shared out by each stretch's share of ln(p2/p1).
      const stretchLog = Math.log(toBar / fromBar);
      const nodes = Math.max(16, Math.ceil(points * stretchLog / logSpan));
      const stepLog = stretchLog / (nodes - 1);
      const work = new Float64Array(nodes);
      for (let i = 0; i < nodes; i++) {
        const outletBar = i === nodes - 1 ? toBar : fromBar * Math.exp(i * stepLog);
        work[i] = outletBar > inletBar
          ? compressionWorkKwhPerKg({ ...options, outletBar, stages }) * scale
          : 0;
      }
      const upToBar = stages === maxStages ? Infinity : inletBar * MAX_STAGE_RATIO ** stages;
      this.#segments.push({ stages, fromBar, upToBar, perLog: 1 / stepLog, work });
    }
  }

  /**
   * Work at `outletBar`, kWh/kg (times `scale`); zero at or below the inlet pressure. The stage
   * count is `stageCount()`'s, found by comparing with the stage changes (a per-step hot path),
   * so it can differ from it only within 1e-12 of a change.
   */
  at(outletBar: number): number {
    const segments = this.#segments;
    if (!(outletBar > this.#inletBar) || segments.length === 0) return 0;
    let s = 0;
    while (outletBar > segments[s]!.upToBar) s++;
    const segment = segments[s]!;
    const work = segment.work;
    const x = Math.max(0, Math.log(outletBar / segment.fromBar) * segment.perLog);
    const i = Math.min(Math.floor(x), work.length - 2);
    const f = x - i;
    return work[i]! + f * (work[i + 1]! - work[i]!);
  }
}
