/**
 * The model a run submits: the saved model (either form) with the run's overrides applied,
 * validated as the runner will validate it.
 *
 * A frontend-form model is first read into the canonical ModelConfig (`readFrontendModel`, the
 * same reader the runner uses), so that every override applies the same way to both forms:
 * `parameters` of the run request are merged key by key over the model's canonical
 * `parameters` (e.g. `subset_time: ["2005-01-01", "2005-01-02"]`, `time_resolution_h: 6`,
 * `solver: {time_limit_s: 60}`; `solver` is merged one level deeper), and `scenario` sets
 * `parameters.scenario`. The canonical model is what is submitted; the reader's notes go to the
 * job's log. Invalid: every problem by JSON path (of the saved body for problems the frontend
 * reader finds, of the canonical model after it).
 *
 * `scenarios` (a sweep, `run_sweep.ts`) lists scenarios of the same kind, one job each.
 */
import { isFrontendModel, readFrontendModel } from "../model/frontend/frontend_model.ts";
import type { ModelProblem } from "../model/model_problem.ts";
import { scenarioNames } from "../model/preprocess/apply_model_overrides.ts";
import { prepareModelBody } from "../model/prepare_model_body.ts";

/** A scenario: override names, a list or comma-separated (as `parameters.scenario`). */
export type RunScenario = string | string[];

/** The optional body of `POST /api/models/{id}/run`. */
export interface RunOverrides {
  parameters?: Record<string, unknown>;
  scenario?: RunScenario;
}

/** Most scenarios one sweep request may list. */
export const MAX_SWEEP_SCENARIOS = 50;

/** The model to submit, or why not. */
export type RunModel =
  | { ok: true; model: Record<string, unknown>; notes: string[] }
  | { ok: false; problems: ModelProblem[] };

/** The run request read: its overrides, and the scenarios of a sweep when it lists them. */
export type RunRequest =
  | { ok: true; overrides: RunOverrides; scenarios?: RunScenario[] }
  | { ok: false; problems: ModelProblem[] };

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Reads the run request body; problems by path for anything it cannot take. */
export function readRunOverrides(body: Record<string, unknown>): RunRequest {
  const problems: ModelProblem[] = [];
  const overrides: RunOverrides = {};
  for (const key of Object.keys(body)) {
    if (key !== "parameters" && key !== "scenario" && key !== "scenarios") {
      problems.push({
        path: key,
        message: "unknown member; allowed: parameters, scenario, scenarios",
      });
    }
  }
  const { parameters, scenario } = body;
  if (parameters !== undefined) {
    if (isObject(parameters)) overrides.parameters = parameters;
    else problems.push({ path: "parameters", message: "must be an object" });
  }
  if (scenario !== undefined) {
    if (typeof scenario === "string") overrides.scenario = scenario;
    else if (Array.isArray(scenario) && scenario.every((s) => typeof s === "string")) {
      overrides.scenario = scenario as string[];
    } else problems.push({ path: "scenario", message: "must be a string or a list of strings" });
  }
  const scenarios = body["scenarios"] === undefined
    ? undefined
    : readScenarios(body["scenarios"], problems);
  if (scenarios !== undefined && scenario !== undefined) {
    problems.push({
      path: "scenarios",
      message: "scenario and scenarios together: give one scenario or a list of them",
    });
  }
  if (problems.length) return { ok: false, problems };
  return scenarios === undefined ? { ok: true, overrides } : { ok: true, overrides, scenarios };
}

/** `scenarios`: 1 to MAX_SWEEP_SCENARIOS scenarios, each naming at least one override. */
function readScenarios(value: unknown, problems: ModelProblem[]): RunScenario[] | undefined {
  if (!Array.isArray(value)) {
    problems.push({ path: "scenarios", message: "must be a list of scenarios" });
    return undefined;
  }
  if (value.length === 0 || value.length > MAX_SWEEP_SCENARIOS) {
    problems.push({
      path: "scenarios",
      message: `must list 1 to ${MAX_SWEEP_SCENARIOS} scenarios (${value.length} given)`,
    });
    return undefined;
  }
  const out: RunScenario[] = [];
  value.forEach((item: unknown, i) => {
    const path = `scenarios[${i}]`;
    if (typeof item === "string") out.push(item);
    else if (Array.isArray(item)) {
      const bad = item.findIndex((name) => typeof name !== "string");
      if (bad >= 0) problems.push({ path: `${path}[${bad}]`, message: "must be a string" });
      else out.push(item as string[]);
    } else {
      problems.push({
        path,
        message: "must be a string (override names, comma-separated) or a list of override names",
      });
      return;
    }
    // An empty scenario would run the model as saved: a sweep names what each run changes.
    if (
      (typeof item === "string" || item.every((name) => typeof name === "string")) &&
      scenarioNames(item as RunScenario).length === 0
    ) problems.push({ path, message: "names no override" });
  });
  return out;
}

/**
 * The saved model as the run's canonical config, `parameters` of the request merged and its
 * `scenario` set, unchecked; problems only of reading a frontend-form body.
 */
export function readRunConfig(saved: unknown, overrides: RunOverrides = {}): RunModel {
  if (!isObject(saved)) {
    return { ok: false, problems: [{ path: "", message: "the model must be a JSON object" }] };
  }
  let config: Record<string, unknown> = saved;
  let notes: string[] = [];
  if (isFrontendModel(saved)) {
    const read = readFrontendModel(saved);
    if (!read.ok) return { ok: false, problems: [...read.problems] };
    config = read.config as Record<string, unknown>;
    notes = read.notes;
  }
  const base = config["parameters"];
  if (overrides.parameters !== undefined || overrides.scenario !== undefined) {
    const parameters: Record<string, unknown> = isObject(base) ? { ...base } : {};
    for (const [key, value] of Object.entries(overrides.parameters ?? {})) {
      parameters[key] = key === "solver" && isObject(value) && isObject(parameters[key])
        ? { ...parameters[key], ...value }
        : value;
    }
    if (overrides.scenario !== undefined) parameters["scenario"] = overrides.scenario;
    config = { ...config, parameters };
  }
  // The backend's own members of a saved body are not part of the model.
  const { createdAt: _c, updatedAt: _u, ...model } = config;
  return { ok: true, model, notes };
}

/** A canonical config with `parameters.scenario` set to `scenario` (its own replaced). */
export function withScenario(
  config: Record<string, unknown>,
  scenario: RunScenario,
): Record<string, unknown> {
  const base = config["parameters"];
  return { ...config, parameters: { ...(isObject(base) ? base : {}), scenario } };
}

/** A canonical config with its scenario set, checked as the runner will check it. */
export function checkRunConfig(
  config: Record<string, unknown>,
  scenario: RunScenario | undefined,
  notes: readonly string[] = [],
): RunModel {
  const model = scenario === undefined ? config : withScenario(config, scenario);
  const checked = prepareModelBody(model);
  if (!checked.ok) return { ok: false, problems: [...checked.problems] };
  return { ok: true, model, notes: [...notes, ...checked.notes] };
}

/** The saved model with the overrides, in canonical form, checked. */
export function buildRunModel(saved: unknown, overrides: RunOverrides = {}): RunModel {
  const read = readRunConfig(saved, overrides);
  if (!read.ok) return read;
  return checkRunConfig(read.model, undefined, read.notes);
}
