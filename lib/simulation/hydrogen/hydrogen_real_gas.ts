/**
 * Compressibility of hydrogen gas from the correlation of Lemmon, Huber and Leachman (2008),
 * "Revised standardized equation for hydrogen gas densities for fuel consumption applications",
 * J. Res. NIST 113(6):341-350, doi:10.6028/jres.113.028 (valid to 0.01 % for 255-1000 K up to
 * 120 MPa). Used by the tank, where an ideal gas would over-state the mass at 350 bar by 23 %.
 */
import { M_H2, R_GAS } from "./constants.ts";

const A = [
  0.05888460,
  -0.06136111,
  -0.002650473,
  0.002731125,
  0.001802374,
  -0.001150707,
  0.9588528e-4,
  -0.1109040e-6,
  0.1264403e-9,
] as const;
const B = [1.325, 1.87, 2.5, 2.8, 2.938, 3.14, 3.37, 3.75, 4.0] as const;
const C = [1, 1, 2, 2, 2.42, 2.63, 3, 4, 5] as const;

/**
 * Compressibility factor Z(T, p) = 1 + Σ a_i (100/T)^b_i p^c_i with p in MPa (Lemmon, Huber and
 * Leachman 2008, equation 7 and table 4).
 */
export function compressibility(temperatureK: number, pressureBar: number): number {
  if (!(temperatureK > 0)) throw new RangeError(`temperature ${temperatureK} K is not positive`);
  if (pressureBar <= 0) return 1;
  const pMpa = pressureBar / 10;
  const tau = 100 / temperatureK;
  let z = 1;
  for (let i = 0; i < 9; i++) {
    z += A[i]! * Math.pow(tau, B[i]!) * Math.pow(pMpa, C[i]!);
  }
  return z;
}

/**
 * Z(p) at a fixed temperature, bar -> Z: the same correlation with the temperature factors
 * a_i (100/T)^b_i computed once and the integer powers of p multiplied out, for the per-step
 * pressure iteration of the tank.
 */
export function compressibilityAt(temperatureK: number): (pressureBar: number) => number {
  if (!(temperatureK > 0)) throw new RangeError(`temperature ${temperatureK} K is not positive`);
  const tau = 100 / temperatureK;
  const k = A.map((a, i) => a * Math.pow(tau, B[i]!));
  const [k0, k1, k2, k3, k4, k5, k6, k7, k8] = k as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return (pressureBar) => {
    if (pressureBar <= 0) return 1;
    const p = pressureBar / 10;
    const p2 = p * p;
    const p3 = p2 * p;
    return 1 + (k0 + k1) * p + (k2 + k3) * p2 + k4 * Math.pow(p, C[4]) +
      k5 * Math.pow(p, C[5]) + k6 * p3 + k7 * p3 * p + k8 * p3 * p2;
  };
}

/** Density of H2, kg/m³: ρ = p M / (Z R T) (Lemmon, Huber and Leachman 2008, equation 1). */
export function hydrogenDensity(temperatureK: number, pressureBar: number): number {
  if (pressureBar <= 0) return 0;
  const z = compressibility(temperatureK, pressureBar);
  return (pressureBar * 1e5 * M_H2) / (z * R_GAS * temperatureK);
}

/**
 * Pressure of H2 at a density, bar: the fixed point p = Z(T, p) ρ R T / M, which converges in a
 * few iterations below 100 MPa (research notes 2.3); `guessBar` (the previous step's pressure)
 * makes it two or three; `z` may be a `compressibilityAt(temperatureK)`.
 */
export function pressureFromDensity(
  temperatureK: number,
  densityKgM3: number,
  guessBar = 0,
  z: (pressureBar: number) => number = (p) => compressibility(temperatureK, p),
): number {
  if (densityKgM3 <= 0) return 0;
  const idealBar = (densityKgM3 * R_GAS * temperatureK) / M_H2 / 1e5;
  let p = guessBar > 0 ? guessBar : idealBar;
  for (let i = 0; i < 50; i++) {
    const next = z(p) * idealBar;
    if (Math.abs(next - p) <= 1e-10 * next) return next;
    p = next;
  }
  return p;
}
