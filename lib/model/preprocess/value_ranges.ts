/**
 * Ranges of the resolved numbers of one loc::tech, checked before any LP is built: a value the
 * LP cannot hold (a cost of inf, an efficiency of -2, a loss of 1e300 read as inf) is a problem
 * at the key's JSON path, not a crash or a silently wrong model. Only maxima, the resource and
 * `energy_cap_per_storage_cap_max` may be infinite, as Calliope's defaults are.
 */
import type { ModelProblem } from "../model_problem.ts";
import type { ResolvedLocTech, Series } from "./resolved_model.ts";

/** Allowed range of a number: lowest, highest, and whether +inf is allowed. */
interface Range {
  readonly min: number;
  readonly max: number;
  readonly infinite?: boolean;
  /** Also allowed below `min`: exactly 0 (an efficiency of 0 switches a flow off). */
  readonly orZero?: boolean;
}

/**
 * Efficiencies and ratios are divided by in the LP; below 1e-6 the coefficients lose all
 * precision (and overflow to inf near 1e-308), so 0 or at least 1e-6.
 */
const EFFICIENCY: Range = { min: 1e-6, max: 1e6, orZero: true };

const FRACTION: Range = { min: 0, max: 1 };
const NON_NEGATIVE: Range = { min: 0, max: Number.MAX_VALUE };
const UNBOUNDED_ABOVE: Range = { min: 0, max: Number.MAX_VALUE, infinite: true };
const ANY_FINITE: Range = { min: -Number.MAX_VALUE, max: Number.MAX_VALUE };

/** Constraint keys and their ranges (keys absent from a loc::tech are not checked). */
const CONSTRAINT_RANGES: Readonly<Record<string, Range>> = {
  energy_eff: EFFICIENCY,
  parasitic_eff: EFFICIENCY,
  resource_eff: EFFICIENCY,
  resource_scale: NON_NEGATIVE,
  resource_min_use: FRACTION,
  energy_cap_min: NON_NEGATIVE,
  energy_cap_max: UNBOUNDED_ABOVE,
  energy_cap_scale: NON_NEGATIVE,
  energy_cap_equals: NON_NEGATIVE,
  energy_cap_min_use: FRACTION,
  energy_cap_equals_systemwide: NON_NEGATIVE,
  energy_cap_max_systemwide: UNBOUNDED_ABOVE,
  energy_cap_per_storage_cap_min: NON_NEGATIVE,
  energy_cap_per_storage_cap_max: UNBOUNDED_ABOVE,
  energy_cap_per_storage_cap_equals: NON_NEGATIVE,
  storage_cap_min: NON_NEGATIVE,
  storage_cap_max: UNBOUNDED_ABOVE,
  storage_cap_equals: NON_NEGATIVE,
  storage_loss: FRACTION,
  storage_initial: FRACTION,
  storage_discharge_depth: FRACTION,
  resource_cap_min: NON_NEGATIVE,
  resource_cap_max: UNBOUNDED_ABOVE,
  resource_cap_equals: NON_NEGATIVE,
  resource_area_min: NON_NEGATIVE,
  resource_area_max: UNBOUNDED_ABOVE,
  resource_area_equals: NON_NEGATIVE,
  resource_area_per_energy_cap: NON_NEGATIVE,
  energy_ramping: NON_NEGATIVE,
  export_cap: UNBOUNDED_ABOVE,
  lifetime: { min: Number.MIN_VALUE, max: Number.MAX_VALUE },
};

/** Cost keys: any finite number (negative costs are revenues). */
const COST_KEYS = [
  "energy_cap",
  "storage_cap",
  "resource_cap",
  "resource_area",
  "om_annual",
  "om_annual_investment_fraction",
  "om_prod",
  "om_con",
  "export",
  "depreciation",
] as const;

function outOfRange(value: number, range: Range): boolean {
  if (Number.isNaN(value)) return true;
  if (value === Infinity) return !range.infinite;
  if (value === 0 && range.orZero) return false;
  return value < range.min || value > range.max;
}

function describe(range: Range): string {
  if (range === FRACTION) return "a fraction between 0 and 1";
  if (range === EFFICIENCY) return "0, or between 1e-6 and 1e6";
  if (range.min === -Number.MAX_VALUE) return "a finite number";
  const floor = range.min === 0 ? "0 or more" : "more than 0";
  return range.infinite ? `${floor} (or inf)` : `a finite number, ${floor}`;
}

/** The first value of `series` outside `range`, with its timestep (undefined if none). */
function firstBad(series: Series, range: Range): { value: number; step?: number } | undefined {
  if (typeof series === "number") return outOfRange(series, range) ? { value: series } : undefined;
  const step = series.findIndex((v) => outOfRange(v, range));
  return step < 0 ? undefined : { value: series[step]!, step };
}

/**
 * Every value of `lt` outside its range, at the JSON path `pathOf` gives for a constraint key
 * (`costPathOf` for a cost of a class).
 */
export function valueRangeProblems(
  lt: ResolvedLocTech,
  pathOf: (key: string) => string,
  costPathOf: (costClass: string, key: string) => string,
): ModelProblem[] {
  const problems: ModelProblem[] = [];
  const report = (path: string, key: string, bad: { value: number; step?: number }, r: Range) =>
    problems.push({
      path,
      message: `${key} of ${lt.id} is ${bad.value}${
        bad.step === undefined ? "" : ` at timestep ${bad.step}`
      }; it must be ${describe(r)}`,
    });
  const constraints = lt.constraints as unknown as Record<string, Series | undefined>;
  for (const [key, range] of Object.entries(CONSTRAINT_RANGES)) {
    const value = constraints[key];
    if (value === undefined) continue;
    const bad = firstBad(value, range);
    if (bad) report(pathOf(key), key, bad, range);
  }
  // The resource may be ±inf as a whole (unlimited), but not NaN, and a series must be finite.
  const resource = lt.constraints.resource;
  const resourceBad = typeof resource === "number"
    ? (Number.isNaN(resource) ? { value: resource } : undefined)
    : firstBad(resource, ANY_FINITE);
  if (resourceBad) report(pathOf("resource"), "resource", resourceBad, ANY_FINITE);
  for (const [tier, ratios] of Object.entries(lt.constraints.carrier_ratios)) {
    for (const [carrier, ratio] of Object.entries(ratios ?? {})) {
      if (outOfRange(ratio, EFFICIENCY)) {
        report(`${pathOf("carrier_ratios")}.carrier_${tier}.${carrier}`, "carrier ratio", {
          value: ratio,
        }, EFFICIENCY);
      }
    }
  }
  for (const [costClass, costs] of Object.entries(lt.costs)) {
    for (const key of COST_KEYS) {
      const bad = firstBad(costs[key], ANY_FINITE);
      if (bad) report(costPathOf(costClass, key), `cost ${costClass}.${key}`, bad, ANY_FINITE);
    }
  }
  return problems;
}
