/**
 * Annualisation of capital costs (Calliope 0.6
 * `locations.check_costs_and_compute_depreciation_rates`).
 */

/** Cost keys that are one-off investments needing lifetime and interest to annualise. */
export function isCapitalCostKey(key: string): boolean {
  return key.includes("_cap") || key.includes("_area") || key.includes("purchase");
}

/**
 * i(1+i)^L / ((1+i)^L − 1), or 1/L at zero interest; 0 when that is NaN (infinite lifetime),
 * as Calliope does.
 */
export function depreciationRate(interestRate: number, lifetime: number): number {
  let dep: number;
  if (interestRate === 0) dep = 1 / lifetime;
  else {
    const g = (1 + interestRate) ** lifetime;
    dep = interestRate * g / (g - 1);
  }
  return Number.isNaN(dep) ? 0 : dep;
}
