/**
 * Where each Calliope variable and balance row landed in the LP, so results can be read back by
 * family, loc_tech(/carrier) and timestep. Time-indexed families occupy consecutive columns
 * (rows): timestep τ of an item is `base + τ`.
 */

/** A linear expression Σ vals[k]·x[cols[k]] over LP columns. */
export interface LinearTerms {
  readonly cols: number[];
  readonly vals: number[];
}

/** Calliope's cost of one loc_tech in one class, split as `cost_investment` + Σ `cost_var`. */
export interface CostExpression {
  readonly investment: LinearTerms;
  readonly variable: LinearTerms;
}

/** The map from Calliope's variables and balance rows to LP columns and rows. */
export interface LpIndex {
  readonly numTimesteps: number;
  /** Size of the LP built (for result stats). */
  readonly size: { variables: number; constraints: number; nonzeros: number };
  /** loc_tech id (`loc::tech`, `loc::tech:remote`) -> column. */
  readonly energyCap: ReadonlyMap<string, number>;
  readonly storageCap: ReadonlyMap<string, number>;
  readonly resourceCap: ReadonlyMap<string, number>;
  readonly resourceArea: ReadonlyMap<string, number>;
  /** `loc::tech::carrier` -> column of the first timestep (values ≥ 0). */
  readonly carrierProd: ReadonlyMap<string, number>;
  /** `loc::tech::carrier` -> column of the first timestep (values ≤ 0, Calliope's sign). */
  readonly carrierCon: ReadonlyMap<string, number>;
  readonly carrierExport: ReadonlyMap<string, number>;
  /** loc_tech -> column of the first timestep. */
  readonly storage: ReadonlyMap<string, number>;
  readonly resourceCon: ReadonlyMap<string, number>;
  /** MILP: loc_tech -> column of its integer `units` (loc_techs_milp). */
  readonly units: ReadonlyMap<string, number>;
  /** MILP: loc_tech -> column of its binary `purchased` (loc_techs_purchase). */
  readonly purchased: ReadonlyMap<string, number>;
  /** MILP: loc_tech -> column of the first timestep of its integer `operating_units`. */
  readonly operatingUnits: ReadonlyMap<string, number>;
  /** loc::tech::carrier -> column of its decided `demand_share_per_timestep_decision`. */
  readonly demandShareDecision: ReadonlyMap<string, number>;
  /** Clustered with storage between days: loc_tech -> column of its first datestep's level. */
  readonly storageInterCluster: ReadonlyMap<string, number>;
  /** loc_tech -> column of the first timestep of its binary `prod_con_switch`. */
  readonly prodConSwitch: ReadonlyMap<string, number>;
  /** `loc::carrier` -> column of the first timestep (only with ensure_feasibility). */
  readonly unmetDemand: ReadonlyMap<string, number>;
  /** `loc::carrier` -> column of the first timestep (values ≤ 0). */
  readonly unusedSupply: ReadonlyMap<string, number>;
  /** `loc::carrier` -> row of the first timestep of `system_balance` (an equality row). */
  readonly systemBalance: ReadonlyMap<string, number>;
  /** cost class -> loc_tech -> its cost (substituted into the objective, not columns). */
  readonly costs: ReadonlyMap<string, ReadonlyMap<string, CostExpression>>;
}

/** The value of `terms` at the solution `x`. */
export function evaluate(terms: LinearTerms, x: ArrayLike<number>): number {
  let s = 0;
  for (let k = 0; k < terms.cols.length; k++) s += terms.vals[k]! * x[terms.cols[k]!]!;
  return s;
}
