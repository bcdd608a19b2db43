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
 */
import { isFrontendModel, readFrontendModel } from "../model/frontend/frontend_model.ts";
import type { ModelProblem } from "../model/model_problem.ts";
import { prepareModelBody } from "../model/prepare_model_body.ts";

/** The optional body of `POST /api/models/{id}/run`. */
export interface RunOverrides {
  parameters?: Record<string, unknown>;
  scenario?: string | string[];
}

/** The model to submit, or why not. */
export type RunModel =
  | { ok: true; model: Record<string, unknown>; notes: string[] }
  | { ok: false; problems: ModelProblem[] };

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Reads the run request body; problems by path for anything it cannot take. */
export function readRunOverrides(
  body: Record<string, unknown>,
): { ok: true; overrides: RunOverrides } | { ok: false; problems: ModelProblem[] } {
  const problems: ModelProblem[] = [];
  const overrides: RunOverrides = {};
  for (const key of Object.keys(body)) {
    if (key !== "parameters" && key !== "scenario") {
      problems.push({ path: key, message: "unknown member; allowed: parameters, scenario" });
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
  return problems.length ? { ok: false, problems } : { ok: true, overrides };
}

/** The saved model with the overrides, in canonical form, checked. */
export function buildRunModel(saved: unknown, overrides: RunOverrides = {}): RunModel {
  if (!isObject(saved)) {
    return { ok: false, problems: [{ path: "", message: "the model must be a JSON object" }] };
  }
  let config: Record<string, unknown> = saved;
  let notes: string[] = [];
  if (isFrontendModel(saved)) {
    const read = readFrontendModel(saved);
    if (!read.ok) return read;
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
  const checked = prepareModelBody(model);
  if (!checked.ok) return { ok: false, problems: [...checked.problems] };
  return { ok: true, model, notes: [...notes, ...checked.notes] };
}
