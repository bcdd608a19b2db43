/** Test fixtures: small MIPs, with a known answer or hard enough to stop by a limit. */
import type { LinearProgram } from "../../lib/lp/linear_program.ts";
import { denseLp } from "./_small_lps.ts";

/**
 * max x0 + x1 (minimised as -x0 - x1) s.t. half: 2 x0 + 2 x1 <= 3, x integer ≥ 0. The LP
 * relaxation reaches -1.5; the integer optimum is -1.
 */
export const twoIntegers: LinearProgram = {
  ...denseLp({
    cost: [-1, -1],
    rows: [{ name: "half", coefs: [2, 2], lower: -Infinity, upper: 3 }],
  }),
  integrality: Uint8Array.from([1, 1]),
};

/**
 * A 0-1 knapsack with 5 weight rows and `items` items (deterministic weights). With 60 items
 * HiGHS finds a solution within 0.1 s but needs far longer than 1 s to prove it optimal at its
 * default gap; at a 2 % gap it stops at once.
 */
export function knapsack(items: number): LinearProgram {
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const rows = 5;
  const weights = Array.from(
    { length: rows },
    () => Array.from({ length: items }, () => Math.floor(rnd() * 900 + 100)),
  );
  const cost = Array.from(
    { length: items },
    (_, j) => -(weights.reduce((s, r) => s + r[j]!, 0) / rows + Math.floor(rnd() * 100)),
  );
  return {
    ...denseLp({
      cost,
      colUpper: cost.map(() => 1),
      rows: weights.map((r, i) => ({
        name: `weight${i}`,
        coefs: r,
        lower: -Infinity,
        upper: r.reduce((a, b) => a + b, 0) / 2,
      })),
    }),
    integrality: Uint8Array.from(cost, () => 1),
  };
}
