/**
 * The integer-unit and purchase settings of one loc::tech (Calliope 0.6 `preprocess/sets.py`:
 * `loc_techs_milp`, `loc_techs_purchase`, `loc_techs_asynchronous_prod_con`), decided from the
 * keys set, as Calliope decides them.
 */
import type { ModelProblem } from "../model_problem.ts";
import type { RawSettings } from "./loc_tech_settings.ts";
import { toNumber } from "./quantity.ts";

/** The MILP keys checked here, and whether each may be infinite (none may be negative). */
const RANGED: readonly (readonly [string, boolean])[] = [
  ["energy_cap_per_unit", false],
  ["storage_cap_per_unit", false],
  ["units_min", false],
  ["units_max", true],
  ["units_equals", false],
  ["units_max_systemwide", true],
  ["units_equals_systemwide", false],
];

/** What the MILP rows of one loc::tech need; absent when it has none. */
export interface ResolvedMilp {
  /**
   * `loc_techs_milp` (some constraint key contains `units_`): an integer `units` column, with
   * operating units per timestep in place of the capacity-based dispatch bounds.
   */
  readonly units?: {
    readonly equals?: number;
    readonly min: number;
    readonly max: number;
  };
  readonly energyCapPerUnit?: number;
  readonly storageCapPerUnit?: number;
  /** `loc_techs_purchase`: a `purchase` cost and no `units_` key: a binary `purchased` column. */
  readonly purchase: boolean;
  /** Cost per unit (or per purchase) by cost class, `purchase_per_distance` folded in. */
  readonly purchaseCost: Readonly<Record<string, number>>;
  /** `force_asynchronous_prod_con`: a binary switch per timestep, production or consumption. */
  readonly asynchronous: boolean;
  /** Σ units + purchased over the technology's loc_techs (×2 for transmission). */
  readonly unitsMaxSystemwide?: number;
  readonly unitsEqualsSystemwide?: number;
}

/**
 * The MILP settings of merged `settings`, or undefined when it sets none of the keys. A loc_tech
 * with units needs energy_cap_per_unit (Calliope's production bounds multiply by it).
 */
export function resolveMilp(
  settings: RawSettings,
  id: string,
  techPath: string,
  problems: ModelProblem[],
): ResolvedMilp | undefined {
  const c = settings.constraints;
  const opt = (key: string): number | undefined =>
    c[key] === undefined || c[key] === null ? undefined : toNumber(c[key]);
  for (const [key, mayBeInfinite] of RANGED) {
    const v = opt(key);
    if (c[key] === undefined || c[key] === null) continue;
    if (v === undefined || v < 0 || (v === Infinity && !mayBeInfinite)) {
      problems.push({
        path: settings.constraintPaths[key] ?? `${techPath}.constraints.${key}`,
        message: `${key} of ${id} is ${JSON.stringify(c[key])}; it must be a ${
          mayBeInfinite ? "number >= 0 (or inf)" : "finite number >= 0"
        }`,
      });
    }
  }
  const hasUnits = Object.keys(c).some((k) => k.includes("units_"));
  const purchaseCost: Record<string, number> = {};
  for (const [cls, values] of Object.entries(settings.costs)) {
    const v = toNumber(values["purchase"]);
    if (values["purchase"] === undefined || values["purchase"] === null) continue;
    if (v === undefined || !Number.isFinite(v)) {
      problems.push({
        path: settings.costPaths[cls]?.["purchase"] ?? `${techPath}.costs.${cls}.purchase`,
        message: `purchase cost of ${id} is ${JSON.stringify(values["purchase"])}; ` +
          "it must be a finite number",
      });
    } else purchaseCost[cls] = v;
  }
  const hasPurchase = Object.keys(purchaseCost).length > 0;
  const asynchronous = c["force_asynchronous_prod_con"] === true;
  const energyCapPerUnit = opt("energy_cap_per_unit");
  const storageCapPerUnit = opt("storage_cap_per_unit");
  if (!hasUnits && !hasPurchase && !asynchronous) return undefined;
  if (hasUnits && energyCapPerUnit === undefined) {
    problems.push({
      path: `${techPath}.constraints.energy_cap_per_unit`,
      message: `integer units need constraints.energy_cap_per_unit (missing at ${id})`,
    });
  }
  const equals = opt("units_equals");
  const maxSystemwide = opt("units_max_systemwide");
  const equalsSystemwide = opt("units_equals_systemwide");
  return {
    ...(maxSystemwide === undefined ? {} : { unitsMaxSystemwide: maxSystemwide }),
    ...(equalsSystemwide === undefined ? {} : { unitsEqualsSystemwide: equalsSystemwide }),
    ...(hasUnits
      ? {
        units: {
          ...(equals === undefined ? {} : { equals }),
          min: opt("units_min") ?? 0,
          max: opt("units_max") ?? Infinity,
        },
      }
      : {}),
    ...(energyCapPerUnit === undefined ? {} : { energyCapPerUnit }),
    ...(storageCapPerUnit === undefined ? {} : { storageCapPerUnit }),
    purchase: hasPurchase && !hasUnits,
    purchaseCost,
    asynchronous,
  };
}
