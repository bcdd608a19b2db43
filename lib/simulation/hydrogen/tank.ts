/**
 * A compressed-hydrogen tank of fixed volume at a fixed gas temperature: mass from pressure
 * and pressure from mass through the real-gas density (research notes 2.3), usable mass between
 * the minimum and maximum pressure, and the sizing rule when the payload gives no size (4 h of
 * rated production, the client fallback's rule, research notes 1.2).
 */
import { compressibilityAt, hydrogenDensity, pressureFromDensity } from "./hydrogen_real_gas.ts";

/** Gas temperature of the tank, K (15 °C; research notes 3.1 step 8). */
export const TANK_TEMPERATURE_K = 288.15;

/** Hours of rated production a tank holds when the payload gives no size. */
export const DEFAULT_TANK_HOURS = 4;

/** How the tank is sized: a volume, a usable mass, or hours of a production rate. */
export type TankSize =
  | { readonly volumeM3: number }
  | { readonly capacityKg: number }
  | { readonly hours: number; readonly productionKgPerH: number };

/** A sized tank. */
export class HydrogenTank {
  readonly volumeM3: number;
  readonly minPressureBar: number;
  readonly maxPressureBar: number;
  readonly temperatureK: number;
  /** Mass at the minimum pressure (the heel that stays in), kg. */
  readonly minMassKg: number;
  /** Mass at the maximum pressure, kg. */
  readonly maxMassKg: number;
  readonly #z: (pressureBar: number) => number;

  constructor(
    size: TankSize,
    minPressureBar: number,
    maxPressureBar: number,
    temperatureK = TANK_TEMPERATURE_K,
  ) {
    if (!(maxPressureBar > minPressureBar) || minPressureBar < 0) {
      throw new RangeError(
        `tank pressures min ${minPressureBar} bar, max ${maxPressureBar} bar are not 0 <= min < max`,
      );
    }
    this.minPressureBar = minPressureBar;
    this.maxPressureBar = maxPressureBar;
    this.temperatureK = temperatureK;
    this.#z = compressibilityAt(temperatureK);
    const rhoMin = hydrogenDensity(temperatureK, minPressureBar);
    const rhoMax = hydrogenDensity(temperatureK, maxPressureBar);
    let volume: number;
    if ("volumeM3" in size) volume = size.volumeM3;
    else if ("capacityKg" in size) volume = size.capacityKg / (rhoMax - rhoMin);
    else volume = (size.hours * size.productionKgPerH) / (rhoMax - rhoMin);
    if (!(volume > 0)) throw new RangeError(`tank volume ${volume} m³ is not positive`);
    this.volumeM3 = volume;
    this.minMassKg = rhoMin * volume;
    this.maxMassKg = rhoMax * volume;
  }

  /** Usable mass between the pressure limits, kg. */
  get usableKg(): number {
    return this.maxMassKg - this.minMassKg;
  }

  /** Mass at a state of charge 0..1, kg. */
  massAtSoc(soc: number): number {
    return this.minMassKg + soc * this.usableKg;
  }

  /** State of charge of a mass, 0..1. */
  soc(massKg: number): number {
    return (massKg - this.minMassKg) / this.usableKg;
  }

  /** Pressure of a mass, bar; `guessBar` (the previous pressure) speeds the iteration. */
  pressureBar(massKg: number, guessBar = 0): number {
    return pressureFromDensity(this.temperatureK, massKg / this.volumeM3, guessBar, this.#z);
  }
}
