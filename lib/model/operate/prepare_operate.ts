/**
 * Operate mode's model (Calliope 0.6.10 `run_operate` and `backend/checks.py`
 * `check_operate_params`): every capacity becomes a fixed value, from the model's `_equals`,
 * else its `_max` (Calliope's operate defaults are the `_max` defaults), or from a plan result
 * (`use_cap_results`); storage is not cyclic and starts from `storage_initial` (0 when unset).
 * As Calliope's operate backend, no capacity constraints (available_area, systemwide, capacity
 * ratios), no reserve margin and no investment costs are built. An infinite capacity is left a
 * free column (Calliope's inf parameter). Linear models only (no units or purchase).
 * Calliope's errors come back as problems, its warnings with the model.
 */
import type {
  ResolvedConstraints,
  ResolvedCosts,
  ResolvedLocTech,
  ResolvedModel,
} from "../preprocess/resolved_model.ts";
import { operateOptionProblems, type OperateOptions } from "./operate_options.ts";

/** A plan result's capacities of one loc::tech (absent: not a capacity of it). */
export interface FixedCapacities {
  readonly energy_cap?: number;
  readonly storage_cap?: number;
  readonly resource_cap?: number;
  readonly resource_area?: number;
}

/** The operate model, or Calliope's errors. */
export type PreparedOperate =
  | { readonly ok: true; readonly model: ResolvedModel; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly problems: readonly string[] };

type Cap = "energy_cap" | "storage_cap" | "resource_cap" | "resource_area";
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The fixed-capacity model of `model` for an operate run with `options`; `capacities` by
 * loc::tech id (a plan result's) when `options.use_cap_results`.
 */
export function prepareOperate(
  model: ResolvedModel,
  options: OperateOptions,
  capacities?: Readonly<Record<string, FixedCapacities>>,
): PreparedOperate {
  const warnings: string[] = [];
  const errors: string[] = [];
  if (model.clusters) errors.push("Operate mode cannot run a clustered timeline");
  if (options.use_cap_results && !capacities) {
    errors.push("run.operation.use_cap_results needs the capacities of a plan result");
  }
  const fromResult = options.use_cap_results ? capacities : undefined;
  if (model.locTechs.some((lt) => lt.sets.store && lt.constraints.storage_initial === undefined)) {
    warnings.push(
      "Initial stored energy not defined, set to zero for all loc::techs in loc_techs_store, " +
        "for use in iterative optimisation",
    );
  }
  const locTechs = model.locTechs.map((lt) =>
    fixLocTech(lt, fromResult?.[lt.id], warnings, errors)
  );
  if (model.locTechs.some((lt) => lt.type === "supply_plus")) {
    warnings.push(
      "Resource capacity constraint defined and set to infinity for all supply_plus techs",
    );
  }
  errors.push(...operateOptionProblems(options));
  if (model.cyclicStorage) {
    warnings.push(
      "Storage cannot be cyclic in operate run mode, setting `run.cyclic_storage` to False " +
        "for this run",
    );
  }
  const groups = model.groupConstraints?.filter((g) =>
    g.family !== "demand_share_per_timestep_decision"
  );
  if (groups && groups.length !== model.groupConstraints?.length) {
    warnings.push(
      "`demand_share_per_timestep_decision` group constraints cannot be used in operate mode, " +
        "so will not be built.",
    );
  }
  if (errors.length > 0) return { ok: false, problems: errors };
  const { reserveMargin: _reserveMargin, ...rest } = model;
  const fixed: ResolvedModel = {
    ...rest,
    // No available_area rows (a capacity constraint) and no reserve margin (policy.py) in operate.
    locations: model.locations.map(({ available_area: _area, ...loc }) => loc),
    locTechs,
    cyclicStorage: false,
    ...(groups === undefined ? {} : { groupConstraints: groups }),
    warnings: [...(model.warnings ?? []), ...warnings],
  };
  return { ok: true, model: fixed, warnings };
}

/** `value` or, when not finite, Infinity (Calliope's inf/NaN parameter). */
function fixedValue(c: ResolvedConstraints, cap: Cap, given: number | undefined): number {
  if (given !== undefined) return given;
  const v = c[`${cap}_equals`] ?? c[`${cap}_max`];
  return Number.isFinite(v) ? v : Infinity;
}

function fixLocTech(
  lt: ResolvedLocTech,
  given: FixedCapacities | undefined,
  warnings: string[],
  errors: string[],
): ResolvedLocTech {
  const c = lt.constraints;
  const caps: Record<Cap, number> = {
    energy_cap: fixedValue(c, "energy_cap", given?.energy_cap),
    storage_cap: fixedValue(c, "storage_cap", given?.storage_cap),
    resource_cap: fixedValue(c, "resource_cap", given?.resource_cap),
    resource_area: fixedValue(c, "resource_area", given?.resource_area),
  };
  const id = lt.id;
  const removeCap = (cap: Cap, text: string) => {
    // Calliope warns only when a finite value is replaced by infinity.
    if (Number.isFinite(caps[cap])) warnings.push(text);
    caps[cap] = Infinity;
  };
  if (
    !Number.isFinite(caps.energy_cap) &&
    ((c.energy_cap_min_use ?? 0) !== 0 ||
      (c.force_resource && c.resource_unit === "energy_per_cap"))
  ) {
    errors.push(
      "Operate mode: User must define a finite energy_cap (via energy_cap_equals or " +
        `energy_cap_max) for ${id}`,
    );
  } else if (lt.sets.finiteResource) {
    if (
      lt.sets.area && c.resource_unit === "energy_per_area" && !Number.isFinite(caps.resource_area)
    ) {
      errors.push(
        `Operate mode: User must define a finite resource_area (via resource_area_equals or ` +
          `resource_area_max) for ${id}, as available resource is linked to resource_area ` +
          "(resource_unit = `energy_per_area`)",
      );
    }
    if (c.force_resource) {
      if (!lt.sets.store) {
        if (c.resource_unit === "energy_per_cap" && lt.sets.area) {
          removeCap(
            "resource_area",
            `Resource area constraint removed from ${id} as force_resource is applied and ` +
              "resource is linked to energy flow using `energy_per_cap`",
          );
        } else if (c.resource_unit === "energy_per_area") {
          removeCap(
            "energy_cap",
            `Energy capacity constraint removed from ${id} as force_resource is applied and ` +
              "resource is linked to energy flow using `energy_per_area`",
          );
        } else if (c.resource_unit === "energy") {
          if (lt.sets.area) {
            removeCap(
              "resource_area",
              `Resource area constraint removed from ${id} as force_resource is applied and ` +
                "resource is not linked to energy flow (resource_unit = `energy`)",
            );
          }
          removeCap(
            "energy_cap",
            `Energy capacity constraint removed from ${id} as force_resource is applied and ` +
              "resource is not linked to energy flow (resource_unit = `energy`)",
          );
        }
      }
      if (lt.type === "supply_plus") {
        removeCap(
          "resource_cap",
          `Resource capacity constraint removed from ${id} as force_resource is applied`,
        );
      }
    }
  }
  if (lt.sets.store && Number.isFinite(caps.storage_cap) && Number.isFinite(caps.energy_cap)) {
    const max = c.energy_cap_per_storage_cap_max;
    if (max !== undefined && Number.isFinite(max) && caps.storage_cap * max < caps.energy_cap) {
      errors.push(
        "fixed storage capacity * energy_cap_per_storage_cap_max is not larger than fixed " +
          `energy capacity for loc::tech ${id}`,
      );
    }
    const min = c.energy_cap_per_storage_cap_min;
    if (min !== undefined && min !== 0 && caps.storage_cap * min > caps.energy_cap) {
      errors.push(
        "fixed storage capacity * energy_cap_per_storage_cap_min is not smaller than fixed " +
          `energy capacity for loc::tech ${id}`,
      );
    }
  }
  const next: Mutable<ResolvedConstraints> = { ...c };
  for (const cap of ["energy_cap", "storage_cap", "resource_cap", "resource_area"] as const) {
    const v = caps[cap];
    // An infinite fixed capacity leaves the column free (Calliope's inf parameter): 0..inf.
    if (Number.isFinite(v)) {
      next[`${cap}_equals`] = v;
      next[`${cap}_min`] = v;
      next[`${cap}_max`] = v;
    } else {
      delete next[`${cap}_equals`];
      next[`${cap}_min`] = 0;
      next[`${cap}_max`] = Infinity;
    }
  }
  // Operate builds no capacity constraints (capacity.py returns at once): the capacities are
  // parameters, so the rows that tie one to another or to a system total go.
  delete next.energy_cap_per_storage_cap_min;
  delete next.energy_cap_per_storage_cap_max;
  delete next.energy_cap_per_storage_cap_equals;
  delete next.energy_cap_max_systemwide;
  delete next.energy_cap_equals_systemwide;
  delete next.resource_area_per_energy_cap;
  next.resource_cap_equals_energy_cap = false;
  if (lt.milp !== undefined) {
    errors.push(
      `Operate mode runs linear models only here: ${id} has integer units or a purchase`,
    );
  }
  if (lt.sets.store && next.storage_initial === undefined) next.storage_initial = 0;
  // Nor investment costs (costs.py skips cost_investment in operate): the cost is cost_var.
  const costs: Record<string, ResolvedCosts> = {};
  for (const [cls, k] of Object.entries(lt.costs)) {
    costs[cls] = {
      ...k,
      energy_cap: 0,
      storage_cap: 0,
      resource_cap: 0,
      resource_area: 0,
      om_annual: 0,
      om_annual_investment_fraction: 0,
    };
  }
  return { ...lt, constraints: next, costs };
}
