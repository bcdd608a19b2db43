/**
 * A MIP's gap and bound as cbc reports them: its solution file has neither, its log ends with
 * them. Stopped early (time, gap), cbc prints `Gap:` and `Lower bound:`; proved optimal, it prints
 * only the objective, so the gap is 0 and the bound the objective. cbc's objective leaves out the
 * LP's constant (the LP file has none), added back here. A maximisation's bound is left out: cbc
 * minimises the negated objective and its printed bound's sign is not documented.
 */
import { lastMatch, type NativeSolution } from "./native_solution.ts";

/** The gap and bound cbc's log gives, for a MIP (`offset`: the objective's constant). */
export function cbcMipReport(
  log: readonly string[],
  offset: number,
  sense: "minimize" | "maximize" = "minimize",
): Pick<NativeSolution, "mipGap" | "mipDualBound"> {
  const number = (pattern: RegExp): number | undefined => {
    const match = lastMatch(log, pattern);
    const value = match === undefined ? NaN : Number(match[1]);
    return Number.isFinite(value) ? value : undefined;
  };
  const withBound = (gap: number, bound: number | undefined) => ({
    mipGap: gap,
    ...(bound === undefined || sense === "maximize" ? {} : { mipDualBound: bound + offset }),
  });
  const gap = number(/^Gap:\s+(\S+)/);
  if (gap !== undefined) return withBound(gap, number(/^Lower bound:\s+(\S+)/));
  if (lastMatch(log, /^Result - Optimal solution found/) !== undefined) {
    return withBound(0, number(/^Objective value:\s+(\S+)/));
  }
  return {};
}
