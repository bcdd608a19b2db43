/**
 * A model after Calliope 0.6 pre-processing (`calliope/core/preprocess/`): every technology
 * placed at its locations with inheritance, location overrides and `defaults.yaml` applied,
 * links expanded into both ends, per-distance values folded in, depreciation computed, time
 * series cut to the modelled window and resampled. The LP builder reads only this.
 *
 * Units are the model's own (the examples use kW, kWh per timestep, kWh, m²). A `Series` is one
 * value for every timestep or one value per timestep (aligned with `timestamps`).
 */
import type { ClusterMap } from "../time/time_data.ts";
import type { SporesOptions } from "../spores/spores_options.ts";
import type { OperateOptions } from "../operate/operate_options.ts";
import type { TechType } from "../model_config.ts";
import type { ResolvedGroupConstraint } from "./group_constraints.ts";
import type { ResolvedMilp } from "./milp_settings.ts";

/** One value for all timesteps, or one per timestep. */
export type Series = number | readonly number[];

/** The value of `series` at timestep `t`. */
export function at(series: Series, t: number): number {
  return typeof series === "number" ? series : series[t]!;
}

/** Carrier tiers of a technology (Calliope's carrier_in, carrier_in_2, ...). */
export interface CarrierTiers {
  readonly in: readonly string[];
  readonly in_2: readonly string[];
  readonly in_3: readonly string[];
  readonly out: readonly string[];
  readonly out_2: readonly string[];
  readonly out_3: readonly string[];
}
export type CarrierTier = keyof CarrierTiers;

/**
 * Constraints with defaults applied. An optional member is absent when the key was not set
 * (Calliope builds that constraint only when it is set); infinity is `Infinity`.
 */
export interface ResolvedConstraints {
  readonly energy_prod: boolean;
  readonly energy_con: boolean;
  readonly energy_eff: Series;
  readonly parasitic_eff: Series;
  readonly resource_eff: Series;
  /** Per timestep, in `resource_unit`; ±Infinity for an unlimited resource. */
  readonly resource: Series;
  readonly resource_scale: number;
  readonly resource_unit: "energy" | "energy_per_area" | "energy_per_cap";
  readonly force_resource: boolean;
  readonly resource_min_use: number;
  readonly energy_cap_equals?: number;
  readonly energy_cap_min: number;
  readonly energy_cap_max: number;
  readonly energy_cap_scale: number;
  readonly energy_cap_min_use?: number;
  readonly energy_cap_equals_systemwide?: number;
  readonly energy_cap_max_systemwide?: number;
  readonly energy_cap_per_storage_cap_min?: number;
  readonly energy_cap_per_storage_cap_max?: number;
  readonly energy_cap_per_storage_cap_equals?: number;
  readonly storage_cap_equals?: number;
  readonly storage_cap_min: number;
  readonly storage_cap_max: number;
  readonly storage_loss: Series;
  readonly storage_initial?: number;
  readonly storage_discharge_depth?: number;
  readonly resource_cap_equals?: number;
  readonly resource_cap_min: number;
  readonly resource_cap_max: number;
  readonly resource_cap_equals_energy_cap: boolean;
  readonly resource_area_equals?: number;
  readonly resource_area_min: number;
  readonly resource_area_max: number;
  readonly resource_area_per_energy_cap?: number;
  readonly energy_ramping?: Series;
  readonly export_carrier?: string;
  readonly export_cap: number;
  readonly lifetime?: number;
  /**
   * Ratios of conversion_plus carriers by tier and carrier (missing = 1); `carrier_out_2: {heat:
   * 0.8}` is read as tier `out_2`.
   */
  readonly carrier_ratios: Partial<Record<CarrierTier, Readonly<Record<string, number>>>>;
}

/** Costs of one class with defaults (0) applied; `energy_cap` includes the per-distance part. */
export interface ResolvedCosts {
  readonly energy_cap: number;
  readonly storage_cap: number;
  readonly resource_cap: number;
  readonly resource_area: number;
  readonly om_annual: number;
  readonly om_annual_investment_fraction: number;
  readonly om_prod: Series;
  readonly om_con: Series;
  readonly export: Series;
  /** Annualisation factor (Calliope's depreciation rate): i(1+i)^L/((1+i)^L−1), 1/L, or 1. */
  readonly depreciation: number;
}

/** Calliope 0.6 set memberships of a loc_tech (`preprocess/sets.py`), decided from the keys set. */
export interface LocTechSets {
  /** `loc_techs_area`: some key contains `resource_area`, or resource_unit energy_per_area. */
  readonly area: boolean;
  /** `loc_techs_store`: storage, or supply_plus with a `storage_` constraint key. */
  readonly store: boolean;
  /** `loc_techs_finite_resource`: resource set, not 0 and not ±inf (a series counts). */
  readonly finiteResource: boolean;
  /** `loc_techs_ramping`: energy_ramping given. */
  readonly ramping: boolean;
  /** `loc_techs_export`: export_carrier given. */
  readonly export: boolean;
  /** `loc_techs_investment_cost`: some cost key has `_cap`, `_area`, `purchase` or `om_annual`. */
  readonly investmentCost: boolean;
  /** `loc_techs_om_cost`: some cost key has `om_` (not om_annual) or `export`. */
  readonly omCost: boolean;
}

/** One technology at one location (for transmission, one end of one link). */
export interface ResolvedLocTech {
  /** `loc::tech`, or `loc::tech:remote` for a transmission end. */
  readonly id: string;
  readonly location: string;
  readonly tech: string;
  readonly type: TechType;
  /** Transmission only: the location at the other end. */
  readonly remote?: string;
  /** Transmission only: link length used for per-distance values (metres from coordinates). */
  readonly distance?: number;
  readonly carriers: CarrierTiers;
  readonly primary_carrier_out?: string;
  readonly primary_carrier_in?: string;
  readonly constraints: ResolvedConstraints;
  /** By cost class; a class absent here costs nothing for this loc_tech. */
  readonly costs: Readonly<Record<string, ResolvedCosts>>;
  readonly sets: LocTechSets;
  /** Integer units, purchase, asynchronous production/consumption (absent: none). */
  readonly milp?: ResolvedMilp;
}

/** A location of the model. */
export interface ResolvedLocation {
  readonly id: string;
  readonly name: string;
  readonly lat?: number;
  readonly lon?: number;
  readonly x?: number;
  readonly y?: number;
  /** m²; absent when unlimited. */
  readonly available_area?: number;
}

/** What the results need to know about a technology. */
export interface ResolvedTechnology {
  readonly name: string;
  readonly type: TechType;
  readonly displayName: string;
  readonly color?: string;
  /** Primary output carrier (demand: its carrier). */
  readonly carrier: string;
}

/** The pre-processed model. */
export interface ResolvedModel {
  readonly name: string;
  /** ISO 8601 local times without zone, `2005-01-01T00:00:00`. */
  readonly timestamps: readonly string[];
  /** Δτ in hours per timestep. */
  readonly resolution: readonly number[];
  /** w_τ per timestep (1 unless clustered). */
  readonly weights: readonly number[];
  /**
   * When the days were clustered (`model.time` apply_clustering): each timestep's cluster and
   * each original day's cluster, for storage within and between clusters.
   */
  readonly clusters?: ClusterMap;
  /** `run.mode: spores`: solved as a sequence of spores (lib/model/spores/run_spores.ts). */
  readonly spores?: SporesOptions;
  /** `run.mode: operate`: capacities fixed, solved window by window (lib/model/operate/). */
  readonly operate?: OperateOptions;
  /** Clustered with `storage_inter_cluster` (Calliope's default true): storage between days. */
  readonly storageInterCluster?: boolean;
  readonly locations: readonly ResolvedLocation[];
  readonly technologies: readonly ResolvedTechnology[];
  /** In a stable order: locations in model order, technologies in model order. */
  readonly locTechs: readonly ResolvedLocTech[];
  /** Every cost class named anywhere, sorted. */
  readonly costClasses: readonly string[];
  /** Objective weight per cost class (default `{monetary: 1}`). */
  readonly objectiveWeights: Readonly<Record<string, number>>;
  /** `model.reserve_margin`: per carrier, a fraction >= 0 (absent: no reserve margin rows). */
  readonly reserveMargin?: Readonly<Record<string, number>>;
  /** Calliope's `group_constraints`, one entry per row to build (absent: none). */
  readonly groupConstraints?: readonly ResolvedGroupConstraint[];
  /**
   * `run.objective`: "cost" (minmax_cost_optimization, the default) or "feasibility"
   * (check_feasibility: a constant objective, any feasible point).
   */
  readonly objective?: "cost" | "feasibility";
  /** `run.objective_options.sense` (default minimize). */
  readonly objectiveSense?: "minimize" | "maximize";
  /**
   * `run.relax_constraint.demand_share_per_timestep_decision_main_constraint`: 0 (default) holds
   * each decided share exactly; r > 0 lets each timestep lie within (1 ± r) of it.
   */
  readonly demandShareDecisionRelaxation?: number;
  /** Calliope's ModelWarnings of the preparation (a group it ignores): logged, and in the result. */
  readonly warnings?: readonly string[];
  /** `run.zero_threshold`: result values of smaller magnitude are reported as 0 (1e-10). */
  readonly zeroThreshold?: number;
  readonly ensureFeasibility: boolean;
  readonly bigM: number;
  readonly cyclicStorage: boolean;
  readonly solver: {
    /** The solver asked for (`parameters.solver.name`); absent: the runner's default. */
    readonly name?: string;
    readonly method: "simplex" | "ipm" | "pdlp" | "choose";
    readonly timeLimitS?: number;
    readonly threads?: number;
    readonly mipRelGap?: number;
  };
}
