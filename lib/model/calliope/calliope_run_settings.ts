/**
 * The `model:` and `run:` sections of a Calliope 0.6 model checked (what the runner cannot do is
 * a problem at its Calliope path) and read into ModelConfig's `parameters`.
 */
import {
  type AttrDict,
  dictAt,
  getKey,
  isAttrDict,
  type Json,
  keysNested,
  toJson,
} from "./calliope_yaml.ts";
import type { ReportProblem as Report } from "../model_problem.ts";
import { convertReserveMargin } from "./calliope_reserve_margin.ts";
import { convertTime } from "./calliope_time.ts";
import { convertRunModes } from "./calliope_run_modes.ts";
import { convertSolver } from "./calliope_solver.ts";

/** Keys of `run:` that only steer Calliope's own solver call, not the model. */
const RUN_KEYS_IGNORED = new Set([
  "solver_io",
  "save_logs",
  "backend",
]);

/** Keys of `model:` that do not change the model. */
const MODEL_KEYS_IGNORED = new Set(["calliope_version", "file_allowed"]);

/** The one constraint Calliope 0.6.10 relaxes (`run.relax_constraint`). */
const RELAX_KEY = "demand_share_per_timestep_decision_main_constraint";

export function checkRunAndModel(config: AttrDict, problem: Report): void {
  const mode = getKey(config, "run.mode");
  if (
    mode !== undefined && mode !== null && !["plan", "operate", "spores"].includes(String(mode))
  ) {
    problem(
      "run.mode",
      `run mode "${String(mode)}" is not a Calliope mode (plan, operate, spores)`,
    );
  }
  const known = new Set([
    "mode",
    "ensure_feasibility",
    "bigM",
    "zero_threshold",
    "cyclic_storage",
    "objective",
    "objective_options",
    "relax_constraint",
    "spores_options",
    "operation",
    "solver",
    "solver_options",
  ]);
  for (const key of Object.keys(dictAt(config, "run"))) {
    if (!known.has(key) && !RUN_KEYS_IGNORED.has(key)) {
      problem(`run.${key}`, `run setting "${key}" is not supported by the runner`);
    }
  }
  for (const key of Object.keys(dictAt(config, "run.relax_constraint"))) {
    if (key !== RELAX_KEY) {
      problem(
        `run.relax_constraint.${key}`,
        `constraint "${key}" cannot be relaxed (${RELAX_KEY})`,
      );
    }
  }
  for (const key of Object.keys(dictAt(config, "run.objective_options"))) {
    if (key !== "cost_class" && key !== "sense") {
      problem(`run.objective_options.${key}`, `objective option "${key}" is not supported`);
    }
  }
  const modelKnown = new Set([
    "name",
    "timeseries_data_path",
    "subset_time",
    "time",
    "random_seed",
    "reserve_margin",
  ]);
  for (const key of Object.keys(dictAt(config, "model"))) {
    if (!modelKnown.has(key) && !MODEL_KEYS_IGNORED.has(key) && key !== "timeseries_dateformat") {
      problem(`model.${key}`, `model setting "${key}" is not supported by the runner`);
    }
  }
}

/** The `parameters` of the ModelConfig from `model:` and `run:`. */
export function convertParameters(config: AttrDict, problem: Report): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  const subset = getKey(config, "model.subset_time");
  if (typeof subset === "string" || typeof subset === "number") params["subset_time"] = `${subset}`;
  else if (Array.isArray(subset)) {
    if (
      subset.length === 2 && subset.every((s) => typeof s === "string" || typeof s === "number")
    ) {
      params["subset_time"] = subset.map(String);
    } else problem("model.subset_time", "subset_time is a date or a [start, end] pair");
  } else if (subset !== undefined && subset !== null) {
    problem("model.subset_time", "subset_time is a date or a [start, end] pair");
  }
  convertTime(config, params, problem);
  const flag = (key: string, name: string) => {
    const v = getKey(config, key);
    if (v === undefined || v === null) return;
    if (typeof v !== "boolean") problem(key, `${name} must be true or false`);
    else params[name] = v;
  };
  convertObjective(config, params, problem);
  flag("run.ensure_feasibility", "ensure_feasibility");
  flag("run.cyclic_storage", "cyclic_storage");
  const bigM = getKey(config, "run.bigM");
  if (bigM !== undefined && bigM !== null) {
    const n = typeof bigM === "string" ? Number(bigM) : bigM;
    if (typeof n !== "number" || !Number.isFinite(n)) problem("run.bigM", "bigM must be a number");
    else params["bigM"] = n;
  }
  convertReserveMargin(config, params, problem);
  convertRunModes(config, params, problem);
  const relax = getKey(config, `run.relax_constraint.${RELAX_KEY}`);
  if (relax !== undefined && relax !== null) {
    const n = typeof relax === "string" ? Number(relax) : relax;
    if (typeof n !== "number" || !(n >= 0 && n <= 1)) {
      problem(`run.relax_constraint.${RELAX_KEY}`, "the relaxation is a fraction from 0 to 1");
    } else params["relax_constraint"] = { [RELAX_KEY]: n };
  }
  convertSolver(config, params, problem);
  const overrides = getKey(config, "overrides");
  if (isAttrDict(overrides) && Object.keys(overrides).length > 0) {
    // Kept as dotted keys per group, so the exporter can write them back unchanged.
    const flat: Record<string, Record<string, Json>> = {};
    for (const [name, group] of Object.entries(overrides)) {
      if (!isAttrDict(group)) continue;
      const entries: Record<string, Json> = {};
      for (const key of keysNested(group)) entries[key] = toJson(getKey(group, key) ?? null);
      flat[name] = entries;
    }
    params["overrides"] = flat;
  }
  return params;
}

/** Calliope's default weights (defaults.yaml), merged under the model's as Calliope merges. */
const DEFAULT_COST_CLASS = { monetary: 1 };

/**
 * `run.objective` and `run.objective_options` (Calliope's objective.py): the objective function,
 * its sense and the cost class weights, into `objective`, `objective_sense` and
 * `objective_cost_class`; `run.zero_threshold` into `zero_threshold`.
 */
function convertObjective(
  config: AttrDict,
  params: Record<string, unknown>,
  problem: Report,
): void {
  const objective = getKey(config, "run.objective");
  if (objective === "check_feasibility") params["objective"] = "check_feasibility";
  else if (objective === "minmax_cost_optimization") {
    params["objective"] = "minmax_cost_optimization";
  } else if (objective !== undefined && objective !== null) {
    problem(
      "run.objective",
      `objective "${String(objective)}" is not supported ` +
        "(minmax_cost_optimization or check_feasibility)",
    );
  }
  const sense = getKey(config, "run.objective_options.sense");
  if (sense === "maximize" || sense === "maximise") params["objective_sense"] = "maximize";
  else if (sense === "minimize" || sense === "minimise") params["objective_sense"] = "minimize";
  else if (sense !== undefined && sense !== null) {
    problem(
      "run.objective_options.sense",
      `objective sense "${String(sense)}" is not supported (minimize or maximize)`,
    );
  }
  const costClass = getKey(config, "run.objective_options.cost_class");
  if (costClass !== undefined && costClass !== null) {
    // Calliope: a class without a weight (null) weighs 1; the model's classes are merged over
    // the default {monetary: 1} (so `{emissions: 1}` keeps monetary at 1).
    if (
      !isAttrDict(costClass) ||
      Object.values(costClass).some((v) => v !== null && (typeof v !== "number" || !isFinite(v)))
    ) {
      problem("run.objective_options.cost_class", "cost_class maps cost classes to weights");
    } else {
      const weights: Record<string, number> = { ...DEFAULT_COST_CLASS };
      for (const [k, v] of Object.entries(costClass)) weights[k] = typeof v === "number" ? v : 1;
      params["objective_cost_class"] = weights;
    }
  }
  const zero = getKey(config, "run.zero_threshold");
  if (zero !== undefined && zero !== null) {
    const n = typeof zero === "string" ? Number(zero) : zero;
    if (typeof n !== "number" || !(n >= 0) || !Number.isFinite(n)) {
      problem("run.zero_threshold", "zero_threshold must be a number >= 0");
    } else params["zero_threshold"] = n;
  }
}
