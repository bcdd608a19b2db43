/**
 * The electrolyser plant: a calibrated cell (polarisation.ts) scaled to the rated power, behind
 * a rectifier and a fixed balance-of-plant load, answering how much hydrogen a given AC power
 * makes and how much AC power a given hydrogen rate needs (research notes 3.1 steps 4 and 5).
 * The stack curve is tabulated once so a step costs a binary search and a Newton polish, not a
 * bisection over transcendental functions.
 */
import { FARADAY, M_H2 } from "./constants.ts";
import { calibrateCell, type CalibratedCell, type ElectrolyserTech } from "./polarisation.ts";

/** One operating point of the electrolyser plant. */
export interface ElectrolyserPoint {
  /** AC power drawn, kW (0 when off). */
  readonly powerKw: number;
  /** DC power into the stack, kW. */
  readonly stackPowerKw: number;
  readonly currentDensityAcm2: number;
  /** Cell voltage, V (the reversible voltage when off). */
  readonly cellVoltageV: number;
  /** Hydrogen made, kg/h. */
  readonly h2KgPerH: number;
}

/** Options of the electrolyser plant. */
export interface ElectrolyserOptions {
  readonly tech: ElectrolyserTech;
  readonly capacityKw: number;
  /** Nominal system efficiency at rated AC power, HHV basis, 0..1. */
  readonly nominalEfficiencyHhv: number;
  readonly temperatureC: number;
  /** Cathode (hydrogen delivery) pressure, bar. */
  readonly cathodePressureBar: number;
  /**
   * Power electronics and load-proportional balance of plant, 0..1 (default 0.93; with the fixed
   * load the stack gets 0.92 of the AC power at nominal, near the notes' η_pe 0.90).
   */
  readonly rectifierEfficiency?: number;
  /** Fixed balance-of-plant load while running, share of capacity (default 0.01). */
  readonly bopShare?: number;
  /** HHV of the nominal efficiency, kWh/kg (default 39.4). */
  readonly hhvKwhPerKg?: number;
  /** Highest AC power asked of the plant, share of capacity (default 1). */
  readonly maxLoadShare?: number;
}

const TABLE_POINTS = 4096;

/** An electrolyser plant with its calibrated stack. */
export class Electrolyser {
  readonly capacityKw: number;
  readonly cell: CalibratedCell;
  readonly rectifierEfficiency: number;
  /** Fixed balance-of-plant power while running, kW. */
  readonly bopKw: number;
  /** Total active cell area N·A, cm². */
  readonly cellAreaCm2: number;
  readonly #j: Float64Array;
  readonly #stackKw: Float64Array;
  readonly #h2: Float64Array;

  constructor(options: ElectrolyserOptions) {
    if (!(options.capacityKw > 0)) {
      throw new RangeError(`electrolyzer.capacity_kw ${options.capacityKw} is not positive`);
    }
    this.capacityKw = options.capacityKw;
    this.rectifierEfficiency = options.rectifierEfficiency ?? 0.93;
    this.bopKw = (options.bopShare ?? 0.01) * options.capacityKw;
    const stackShare = this.rectifierEfficiency * (1 - (options.bopShare ?? 0.01));
    this.cell = calibrateCell({
      tech: options.tech,
      temperatureC: options.temperatureC,
      cathodePressureBar: options.cathodePressureBar,
      nominalEfficiencyHhv: options.nominalEfficiencyHhv,
      stackShareAtNominal: stackShare,
      ...(options.hhvKwhPerKg === undefined ? {} : { hhvKwhPerKg: options.hhvKwhPerKg }),
    });
    const jNom = this.cell.nominalCurrentDensityAcm2;
    this.cellAreaCm2 = (stackShare * options.capacityKw * 1000) / (jNom * this.cell.voltage(jNom));
    // Tabulate up to the current density the highest load needs (doubling until it is reached).
    const needKw = this.#stackKwAtAc(options.capacityKw * Math.max(options.maxLoadShare ?? 1, 1));
    let jTop = jNom * 1.25;
    while (this.#stackKwAt(jTop) < needKw * 1.0001) jTop *= 2;
    this.#j = new Float64Array(TABLE_POINTS);
    this.#stackKw = new Float64Array(TABLE_POINTS);
    this.#h2 = new Float64Array(TABLE_POINTS);
    for (let i = 0; i < TABLE_POINTS; i++) {
      // Denser near zero, where the Faraday efficiency bends.
      const j = jTop * (i / (TABLE_POINTS - 1)) ** 2;
      this.#j[i] = j;
      this.#stackKw[i] = this.#stackKwAt(j);
      this.#h2[i] = this.#h2At(j);
    }
  }

  /** DC stack power at a current density, kW: N·A·j·V(j). */
  #stackKwAt(j: number): number {
    return (this.cellAreaCm2 * j * this.cell.voltage(j)) / 1000;
  }

  /** Hydrogen made at a current density, kg/h: η_F N A j / 2F · M (NREL `pem_cell.py`). */
  #h2At(j: number): number {
    const faraday = this.cell.faraday;
    const jmA = j * 1000;
    const etaF = ((jmA * jmA) / (faraday.f1 + jmA * jmA)) * faraday.f2;
    return ((etaF * this.cellAreaCm2 * j) / (2 * FARADAY)) * M_H2 * 3600;
  }

  #stackKwAtAc(acKw: number): number {
    return Math.max(0, (acKw - this.bopKw) * this.rectifierEfficiency);
  }

  /**
   * Inverts a monotone table column for `target` (linear between nodes) and polishes with one
   * Newton step of `f`, kept only inside the bracketing table interval (near j = 0 the hydrogen
   * curve is flat and an unguarded step would fly off).
   */
  #solve(column: Float64Array, target: number, f: (j: number) => number): number {
    const j0 = this.#invert(column, target);
    if (!(j0 > 0)) return j0;
    const h = j0 * 1e-6;
    const d = (f(j0 + h) - f(j0 - h)) / (2 * h);
    if (!(d > 0)) return j0;
    const j1 = j0 - (f(j0) - target) / d;
    return j1 >= this.#bracketLo && j1 <= this.#bracketHi ? j1 : j0;
  }

  #bracketLo = 0;
  #bracketHi = 0;

  /** Inverts a monotone table column for `target` (linear between nodes). */
  #invert(column: Float64Array, target: number): number {
    let lo = 0;
    let hi = TABLE_POINTS - 1;
    this.#bracketLo = this.#j[hi - 1]!;
    this.#bracketHi = this.#j[hi]!;
    if (target >= column[hi]!) return this.#j[hi]!;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (column[mid]! <= target) lo = mid;
      else hi = mid;
    }
    this.#bracketLo = this.#j[lo]!;
    this.#bracketHi = this.#j[hi]!;
    const y0 = column[lo]!;
    const y1 = column[hi]!;
    const f = y1 > y0 ? (target - y0) / (y1 - y0) : 0;
    return this.#j[lo]! + f * (this.#j[hi]! - this.#j[lo]!);
  }

  #point(acKw: number, j: number): ElectrolyserPoint {
    return {
      powerKw: acKw,
      stackPowerKw: this.#stackKwAt(j),
      currentDensityAcm2: j,
      cellVoltageV: this.cell.voltage(j),
      h2KgPerH: this.#h2At(j),
    };
  }

  /** The idle plant: no power, no hydrogen. */
  off(): ElectrolyserPoint {
    return {
      powerKw: 0,
      stackPowerKw: 0,
      currentDensityAcm2: 0,
      cellVoltageV: this.cell.reversibleVoltageV,
      h2KgPerH: 0,
    };
  }

  /** Operating point at an AC power, kW; off when the power does not cover the balance of plant. */
  atPower(acKw: number): ElectrolyserPoint {
    const stackKw = this.#stackKwAtAc(acKw);
    if (!(stackKw > 0)) return this.off();
    const j = this.#solve(this.#stackKw, stackKw, (x) => this.#stackKwAt(x));
    return this.#point(acKw, j);
  }

  /**
   * Hydrogen made at an AC power, kg/h, interpolated in the table without the Newton polish
   * (within 1e-6 relative): the cheap evaluation the compressor's fixed point iterates on.
   */
  h2RateAt(acKw: number): number {
    const stackKw = this.#stackKwAtAc(acKw);
    if (!(stackKw > 0)) return 0;
    const column = this.#stackKw;
    let lo = 0;
    let hi = TABLE_POINTS - 1;
    if (stackKw >= column[hi]!) return this.#h2[hi]!;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (column[mid]! <= stackKw) lo = mid;
      else hi = mid;
    }
    const y0 = column[lo]!;
    const f = (stackKw - y0) / (column[hi]! - y0);
    return this.#h2[lo]! + f * (this.#h2[hi]! - this.#h2[lo]!);
  }

  /** Operating point that makes `h2KgPerH`; its AC power includes rectifier and balance of plant. */
  atH2Rate(h2KgPerH: number): ElectrolyserPoint {
    if (!(h2KgPerH > 0)) return this.off();
    const j = this.#solve(this.#h2, h2KgPerH, (x) => this.#h2At(x));
    const stackKw = this.#stackKwAt(j);
    return this.#point(this.bopKw + stackKw / this.rectifierEfficiency, j);
  }
}
