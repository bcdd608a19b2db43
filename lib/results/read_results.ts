/**
 * Reads a solved LP back into the result JSON (issue 9 section 5): Calliope's variables as
 * columnar tables, costs per class and loc_tech, nodal prices, levelised cost and capacity
 * factor, statistics, and the keys the existing frontend's result views read
 * (research notes tempo_client.md section 3.1).
 *
 * Nodal prices: the dual of `system_balance[l::c,τ]` divided by w_τ. The balance row reads
 * Σ prod + Σ con − Σ export (+ slacks) = 0, so its dual is the change of the objective when one
 * more unit must be put into the node and left there: a higher price means costlier energy
 * (e.g. the marginal generator's om_con/eff).
 */
import { evaluate, type LpIndex } from "../lp/lp_index.ts";
import type { RunResult } from "./run_result.ts";
import type { SolveOutcome, Termination } from "../solver/solve_types.ts";
import {
  capacityFactor,
  levelisedCost,
  techOf,
  totalLevelisedCost,
  type WeightedProduction,
} from "./levelised.ts";
import type { ResolvedLocTech, ResolvedModel } from "../model/preprocess/resolved_model.ts";
import { DEFAULT_ZERO_THRESHOLD } from "../model/preprocess/resolve_model.ts";
import { expandTable, fullTimeline } from "./full_timeline.ts";
import { clusteredMembers } from "./clustered_results.ts";

/** Calliope's default `zero_threshold`: smaller magnitudes are reported as 0. */
export const ZERO_THRESHOLD = DEFAULT_ZERO_THRESHOLD;

const CONDITION: Record<Termination, string> = {
  optimal: "optimal",
  infeasible: "infeasible",
  unbounded: "unbounded",
  infeasible_or_unbounded: "infeasibleOrUnbounded",
  time_limit: "maxTimeLimit",
  iteration_limit: "maxIterations",
  interrupted: "interrupted",
  error: "error",
};

const MAX_FLOW_PAIRS = 500;

/** Rounds magnitudes below the model's `zero_threshold` (Calliope's `clean_results`) to 0. */
function zeroBelow(threshold: number): (v: number) => number {
  return (v) => Math.abs(v) < threshold ? 0 : v;
}

type Table = Record<string, number>;
type SeriesTable = Record<string, number[]>;

/**
 * The result JSON of one solve. Without a solution (infeasible, stopped...) every table is
 * empty and `success` is false.
 */
export function readResults(
  model: ResolvedModel,
  index: LpIndex,
  solution: SolveOutcome,
  stats: { buildMs: number },
): RunResult {
  const T = index.numTimesteps;
  const z = zeroBelow(model.zeroThreshold ?? ZERO_THRESHOLD);
  const x = solution.colValue;
  const has = x.length > 0;
  const val = (col: number) => z(x[col]!);
  const series = (base: number) => {
    const s = new Array<number>(T);
    for (let t = 0; t < T; t++) s[t] = z(x[base + t]!);
    return s;
  };
  const scalarTable = (m: ReadonlyMap<string, number>): Table => {
    const out: Table = {};
    if (has) { for (const [k, col] of m) out[k] = val(col); }
    return out;
  };
  const seriesTable = (m: ReadonlyMap<string, number>): SeriesTable => {
    const out: SeriesTable = {};
    if (has) { for (const [k, base] of m) out[k] = series(base); }
    return out;
  };

  const energyCap = scalarTable(index.energyCap);
  const carrierProd = seriesTable(index.carrierProd);
  const carrierCon = seriesTable(index.carrierCon);

  // Costs per class and loc_tech (investment + variable), as Calliope's `cost` variable.
  const costs: Record<string, Table> = {};
  const costInvestment: Record<string, Table> = {};
  const costVar: Record<string, Table> = {};
  // Σ cost over every class, unweighted and without the bigM penalty (not what was optimised).
  let costSum: number | null = null;
  if (has) {
    costSum = 0;
    for (const [cls, byLt] of index.costs) {
      const c: Table = {};
      const ci: Table = {};
      const cv: Table = {};
      for (const [id, expr] of byLt) {
        const inv = evaluate(expr.investment, x);
        const v = evaluate(expr.variable, x);
        ci[id] = z(inv);
        cv[id] = z(v);
        c[id] = z(inv + v);
        costSum += inv + v;
      }
      costs[cls] = c;
      costInvestment[cls] = ci;
      costVar[cls] = cv;
    }
  }

  const unmet: SeriesTable = {};
  const prices: SeriesTable = {};
  if (has) {
    for (const [lc, base] of index.unmetDemand) {
      const unused = index.unusedSupply.get(lc);
      const s = new Array<number>(T);
      let any = false;
      for (let t = 0; t < T; t++) {
        s[t] = z(x[base + t]! + (unused === undefined ? 0 : x[unused + t]!));
        if (s[t] !== 0) any = true;
      }
      if (any) unmet[lc] = s;
    }
    if (solution.rowDual.length > 0) {
      for (const [lc, row] of index.systemBalance) {
        const s = new Array<number>(T);
        for (let t = 0; t < T; t++) s[t] = z(solution.rowDual[row + t]! / model.weights[t]!);
        prices[lc] = s;
      }
    }
  }

  const byId = new Map(model.locTechs.map((lt) => [lt.id, lt]));
  const production = new Map<string, { lt: ResolvedLocTech; carrier: string; sum: number }>();
  if (has) {
    for (const [key, s] of Object.entries(carrierProd)) {
      const cut = key.lastIndexOf("::");
      const lt = byId.get(key.slice(0, cut))!;
      let sum = 0;
      for (let t = 0; t < T; t++) sum += s[t]! * model.weights[t]!;
      production.set(key, { lt, carrier: key.slice(cut + 2), sum });
    }
  }

  // Clustered: the frontend's views and `timestamps` show the original days, rebuilt.
  const full = fullTimeline(model);
  const frontend = !has
    ? emptyFrontend(model)
    : full === undefined
    ? frontendKeys(model, energyCap, carrierProd, carrierCon, costs, z)
    : frontendKeys(
      { ...model, timestamps: full.timestamps },
      energyCap,
      expandTable(carrierProd, full),
      expandTable(carrierCon, full),
      costs,
      z,
    );
  const storage = seriesTable(index.storage);

  return {
    termination: solution.termination,
    termination_condition: CONDITION[solution.termination],
    success: solution.termination === "optimal" && has,
    // What was optimised, as Calliope's `objective_function_value`: the weighted cost classes,
    // the bigM penalty (ensure_feasibility), the constant of check_feasibility.
    objective: has ? solution.objective : null,
    cost_sum_unweighted: costSum === null ? null : z(costSum),
    solver: solution.solver,
    ...(solution.conflicts === undefined ? {} : { conflicts: solution.conflicts }),
    ...(solution.message === undefined ? {} : { message: solution.message }),
    ...(model.warnings === undefined ? {} : { warnings: [...model.warnings] }),
    model_name: model.name,
    timestamps: full?.timestamps ?? model.timestamps,
    ...(full === undefined
      ? {}
      : clusteredMembers(model, index, x, full, carrierProd, carrierCon, storage, z)),
    costs,
    cost_investment: costInvestment,
    cost_var: costVar,
    energy_cap: energyCap,
    storage_cap: scalarTable(index.storageCap),
    resource_area: scalarTable(index.resourceArea),
    resource_cap: scalarTable(index.resourceCap),
    ...milpTables(index, has ? x : undefined),
    ...(index.demandShareDecision.size === 0
      ? {}
      : { demand_share_per_timestep_decision: scalarTable(index.demandShareDecision) }),
    carrier_prod: carrierProd,
    carrier_con: carrierCon,
    carrier_export: seriesTable(index.carrierExport),
    storage,
    resource_con: seriesTable(index.resourceCon),
    link_flows: linkFlows(model, carrierProd),
    unmet_demand: unmet,
    nodal_prices: prices,
    levelised_cost: has ? levelisedCost(costs, production as WeightedProduction) : {},
    capacity_factor: has ? capacityFactor(model, energyCap, production as WeightedProduction) : {},
    total_levelised_cost: has ? totalLevelisedCost(costs, production as WeightedProduction) : {},
    stats: {
      variables: index.size.variables,
      constraints: index.size.constraints,
      nonzeros: index.size.nonzeros,
      build_ms: stats.buildMs,
      solve_ms: solution.solveMs,
      iterations: solution.iterations,
      peak_heap_bytes: solution.peakHeapBytes,
      // A MIP's gap and bound when it stopped (absent for an LP).
      ...(solution.mipGap === undefined ? {} : { mip_gap: solution.mipGap }),
      ...(solution.mipDualBound === undefined ? {} : { mip_dual_bound: solution.mipDualBound }),
    },
    ...frontend,
  };
}

/** Energy received at each link end (`l1::T:l2::carrier`: what arrives at l1 from l2). */
function linkFlows(model: ResolvedModel, carrierProd: SeriesTable): SeriesTable {
  const out: SeriesTable = {};
  for (const lt of model.locTechs) {
    if (lt.type !== "transmission") continue;
    for (const [key, s] of Object.entries(carrierProd)) {
      if (key.startsWith(`${lt.id}::`)) out[key] = s;
    }
  }
  return out;
}

function emptyFrontend(model: ResolvedModel): Record<string, unknown> {
  return {
    capacities: {},
    generation: {},
    dispatch: {},
    transmission_flow: {},
    demand_timeseries: [],
    costs_by_tech: {},
    costs_by_location: {},
    ...techInfo(model),
  };
}

function techInfo(model: ResolvedModel): Record<string, unknown> {
  const meta: Record<string, Record<string, string>> = {};
  const parents: Record<string, string> = {};
  for (const t of model.technologies) {
    meta[t.name] = {
      parent: t.type,
      carrier_out: t.carrier,
      display_name: t.displayName,
      ...(t.color === undefined ? {} : { color: t.color }),
    };
    parents[t.name] = t.type;
  }
  return { tech_metadata: meta, tech_parents: parents };
}

/** The keys the existing frontend reads (tempo_client.md section 3.1). */
function frontendKeys(
  model: ResolvedModel,
  energyCap: Table,
  carrierProd: SeriesTable,
  carrierCon: SeriesTable,
  costs: Record<string, Table>,
  z: (v: number) => number,
): Record<string, unknown> {
  const T = model.timestamps.length;
  const byId = new Map(model.locTechs.map((lt) => [lt.id, lt]));
  const ltOf = (key: string) => byId.get(key.slice(0, key.lastIndexOf("::")))!;

  const generation: Table = {};
  const dispatchSum = new Map<string, number[]>();
  for (const [key, s] of Object.entries(carrierProd)) {
    generation[key] = z(s.reduce((a, b) => a + b, 0));
    const lt = ltOf(key);
    if (lt.type === "demand" || lt.type === "transmission" || lt.tech.includes("demand")) continue;
    let acc = dispatchSum.get(lt.tech);
    if (!acc) dispatchSum.set(lt.tech, acc = new Array<number>(T).fill(0));
    for (let t = 0; t < T; t++) acc[t]! += s[t]!;
  }
  const dispatch: Record<string, number[]> = {};
  for (const [tech, s] of dispatchSum) {
    if (s.reduce((a, b) => a + b, 0) > 0) {
      dispatch[tech] = s.map((v) => Math.round(v * 1000) / 1000);
    }
  }

  const demand = new Array<number>(T).fill(0);
  for (const [key, s] of Object.entries(carrierCon)) {
    if (ltOf(key).type !== "demand") continue;
    for (let t = 0; t < T; t++) demand[t]! += Math.abs(s[t]!);
  }

  // Net flow a->b (a < b): what a sends to b minus what b sends to a, over every link tech.
  const flows = new Map<string, { from: string; to: string; timeseries: number[] }>();
  for (const [key, s] of Object.entries(carrierCon)) {
    const lt = ltOf(key);
    if (lt.type !== "transmission" || lt.remote === undefined) continue;
    const [a, b] = lt.location < lt.remote ? [lt.location, lt.remote] : [lt.remote, lt.location];
    const sign = lt.location === a ? 1 : -1;
    const pair = `${a}::${b}`;
    let f = flows.get(pair);
    if (!f) flows.set(pair, f = { from: a, to: b, timeseries: new Array<number>(T).fill(0) });
    for (let t = 0; t < T; t++) f.timeseries[t]! += sign * -s[t]!;
  }
  const peaks = [...flows.entries()]
    .map(([k, f]) => {
      f.timeseries = f.timeseries.map(z);
      return [k, f, Math.max(0, ...f.timeseries.map(Math.abs))] as const;
    })
    .filter(([, , peak]) => peak > 0)
    .sort((p, q) => q[2] - p[2])
    .slice(0, MAX_FLOW_PAIRS);
  const transmissionFlow = Object.fromEntries(peaks.map(([k, f]) => [k, f]));

  const costsByTech: Table = {};
  const costsByLocation: Record<string, Table> = {};
  for (const byLt of Object.values(costs)) {
    for (const [id, v] of Object.entries(byLt)) {
      const lt = byId.get(id);
      if (!lt) continue;
      const tech = techOf(id);
      costsByTech[tech] = (costsByTech[tech] ?? 0) + v;
      const loc = (costsByLocation[lt.location] ??= {});
      loc[tech] = (loc[tech] ?? 0) + v;
    }
  }
  for (const [k, v] of Object.entries(costsByTech)) if (!(v > 0)) delete costsByTech[k];

  return {
    capacities: energyCap,
    generation,
    dispatch,
    transmission_flow: transmissionFlow,
    demand_timeseries: demand.map(z),
    costs_by_tech: costsByTech,
    costs_by_location: costsByLocation,
    ...techInfo(model),
  };
}

/**
 * MILP results, present only when the model has them: `units` and `purchased` by loc_tech,
 * `operating_units` by loc_tech and timestep, rounded to the integers HiGHS found them near
 * (within its integrality tolerance).
 */
function milpTables(
  index: LpIndex,
  x: Float64Array | undefined,
): Record<string, Table | SeriesTable> {
  const out: Record<string, Table | SeriesTable> = {};
  const scalars = (m: ReadonlyMap<string, number>): Table => {
    const t: Table = {};
    if (x !== undefined) { for (const [k, col] of m) t[k] = Math.round(x[col]!); }
    return t;
  };
  if (index.units.size > 0) out["units"] = scalars(index.units);
  if (index.purchased.size > 0) out["purchased"] = scalars(index.purchased);
  if (index.operatingUnits.size > 0) {
    const t: SeriesTable = {};
    if (x !== undefined) {
      for (const [k, base] of index.operatingUnits) {
        t[k] = Array.from({ length: index.numTimesteps }, (_, i) => Math.round(x[base + i]!));
      }
    }
    out["operating_units"] = t;
  }
  return out;
}
