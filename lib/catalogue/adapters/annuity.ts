/** Annualisation of investment costs. */

/**
 * Capital recovery factor CRF = r(1+r)^n / ((1+r)^n - 1): the share of an investment paid each
 * year to repay it with interest rate `r` (fraction, e.g. 0.07) over `n` years; 1/n at r = 0.
 * Throws RangeError for n <= 0, r < 0 or a non-finite argument.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(capitalRecoveryFactor(0.07, 25).toFixed(7), "0.0858105");
 * ```
 */
export function capitalRecoveryFactor(r: number, n: number): number {
  if (!Number.isFinite(r) || r < 0) {
    throw new RangeError(`Discount rate must be a finite number >= 0, got ${r}`);
  }
  if (!Number.isFinite(n) || n <= 0) {
    throw new RangeError(`Lifetime must be a finite number of years > 0, got ${n}`);
  }
  if (r === 0) return 1 / n;
  const growth = (1 + r) ** n;
  return r * growth / (growth - 1);
}
