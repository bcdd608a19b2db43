/**
 * Run settings of the frontend's model form read into canonical `parameters` (research notes
 * `tempo_client.md` sections 1.2, 1.6 "Time window" and 1.7). Precedence, as that client's
 * runner: the Run form's `modelConfig` wins, then `parameters` rows `subset_time_start` /
 * `subset_time_end`, then `metadata.subsetTime`. `metadata.runConfig.ensure_feasibility` is not
 * inherited (that runner never did); `ensure_feasibility: true` and `bigM: 1e6` are that
 * runner's run section and apply unless set.
 */
import type { FrontendReadContext } from "./frontend_context.ts";
import { isPlainObject } from "./frontend_infinity.ts";
import { BUILT_IN_SOLVER, solverNameOf } from "../../solver/solver_names.ts";

/** The frontend runner's unmet-demand cost (its written `run.bigM`). */
export const FRONTEND_BIG_M = 1e6;

/** Reads `parameters`, `modelConfig`, `metadata`, `solver`, `overrides` and `scenarios`. */
export function readFrontendParameters(
  body: Record<string, unknown>,
  ctx: FrontendReadContext,
): Record<string, unknown> {
  const raw = body["parameters"];
  const out: Record<string, unknown> = isPlainObject(raw) ? { ...raw } : {};
  if (Array.isArray(raw)) readRows(raw, out, ctx);
  else if (raw !== undefined && raw !== null && !isPlainObject(raw)) {
    ctx.problems.push({ path: "parameters", message: "parameters must be a list or an object" });
  }

  const metadata = isPlainObject(body["metadata"]) ? body["metadata"] : {};
  if (out["subset_time"] === undefined) {
    const subset = metadata["subsetTime"];
    if (Array.isArray(subset) && subset.length === 2 && subset.every(isText)) {
      out["subset_time"] = subset.map((d) => (d as string).slice(0, 10));
    } else if (isText(subset)) out["subset_time"] = subset;
  }

  const runConfig = isPlainObject(metadata["runConfig"]) ? metadata["runConfig"] : {};
  const form = isPlainObject(body["modelConfig"]) ? body["modelConfig"] : undefined;
  if (form !== undefined) readForm(form, out, ctx);
  const mode = form?.["mode"] ?? runConfig["mode"];
  if (mode === "operate") {
    out["mode"] = mode;
    // Calliope's run.operation (window, horizon), which TEMPO's form lacks: from the form or
    // the YAML import's runConfig; without it operate is refused with Calliope's error.
    const operation = form?.["operation"] ?? runConfig["operation"];
    if (operation !== undefined) out["operation"] = operation;
  } else if (mode !== undefined && mode !== "plan") {
    ctx.problems.push({
      path: form?.["mode"] !== undefined ? "modelConfig.mode" : "metadata.runConfig.mode",
      message: `mode "${String(mode)}" is not supported: the runner solves plan and operate here`,
    });
  }
  if (form?.["solverOptions"] === undefined && isPlainObject(runConfig["solver_options"])) {
    ctx.notes.push(
      "metadata.runConfig.solver_options ignored: solver options come from the Run form",
    );
  }

  out["ensure_feasibility"] ??= true;
  out["bigM"] ??= FRONTEND_BIG_M;

  // The frontend always sends `highs`, which is the built-in solver's name too; another name is
  // the model's choice (the runner falls back to highs, with a warning, if it lacks it).
  const solver = body["solver"];
  const named = isPlainObject(out["solver"]) && out["solver"]["name"] !== undefined;
  if (
    typeof solver === "string" && solver.trim() !== "" && !named &&
    solverNameOf(solver) !== BUILT_IN_SOLVER
  ) {
    out["solver"] = { ...(isPlainObject(out["solver"]) ? out["solver"] : {}), name: solver.trim() };
  }

  const overrides = body["overrides"];
  if (isPlainObject(overrides) && Object.keys(overrides).length > 0) {
    if (out["overrides"] === undefined) {
      out["overrides"] = overrides;
      ctx.notes.push(
        "overrides copied to parameters.overrides; none is applied unless named in parameters.scenario",
      );
    } else ctx.notes.push("top-level overrides ignored: parameters.overrides is set");
  }
  const scenarios = body["scenarios"];
  if (isPlainObject(scenarios) && Object.keys(scenarios).length > 0) {
    ctx.notes.push(
      `scenarios ${Object.keys(scenarios).join(", ")} not applied (the frontend never applied ` +
        "one); name their override groups in parameters.scenario to apply them",
    );
  }
  return out;
}

/** Rows `{key, value}`: only `subset_time_start` / `subset_time_end` are run settings. */
function readRows(rows: unknown[], out: Record<string, unknown>, ctx: FrontendReadContext): void {
  let start: string | undefined;
  let end: string | undefined;
  let other = 0;
  for (const row of rows) {
    const key = isPlainObject(row) ? row["key"] : undefined;
    const value = isPlainObject(row) ? row["value"] : undefined;
    if (key === "subset_time_start" && isText(value)) start = value.slice(0, 10);
    else if (key === "subset_time_end" && isText(value)) end = value.slice(0, 10);
    else other++;
  }
  if (start !== undefined && end !== undefined) out["subset_time"] = [start, end];
  else if (start !== undefined || end !== undefined) {
    ctx.notes.push("parameters: subset_time_start and subset_time_end must both be given; ignored");
  }
  if (other > 0) {
    ctx.notes.push(
      `parameters: ${other} row(s) other than subset_time_start/end are not run settings; ignored`,
    );
  }
}

/**
 * The Run form: `{startDate, endDate, ensureFeasibility, cyclicStorage, solverOptions}`, and
 * `time` / `randomSeed` (Calliope's model.time and model.random_seed), which TEMPO's form lacks.
 */
function readForm(
  form: Record<string, unknown>,
  out: Record<string, unknown>,
  ctx: FrontendReadContext,
): void {
  const start = form["startDate"];
  const end = form["endDate"];
  if (isText(start) && isText(end)) out["subset_time"] = [start.slice(0, 10), end.slice(0, 10)];
  if (typeof form["ensureFeasibility"] === "boolean") {
    out["ensure_feasibility"] = form["ensureFeasibility"];
  }
  if (typeof form["cyclicStorage"] === "boolean") out["cyclic_storage"] = form["cyclicStorage"];
  // Calliope's model.time and model.random_seed, in Calliope's shape (checked as parameters.time).
  if (form["time"] !== undefined && form["time"] !== null) out["time"] = form["time"];
  if (form["randomSeed"] !== undefined && form["randomSeed"] !== null) {
    out["random_seed"] = form["randomSeed"];
  }
  const options = form["solverOptions"];
  if (!isPlainObject(options)) return;
  const solver: Record<string, unknown> = isPlainObject(out["solver"]) ? { ...out["solver"] } : {};
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(options)) {
    if (value === null || value === undefined || value === "") continue;
    if (key === "timeLimit" && typeof value === "number" && value > 0) {
      solver["time_limit_s"] = value;
    } else if (key === "threads" && Number.isInteger(value) && (value as number) > 0) {
      solver["threads"] = value;
    } else if (key === "mipGap" && typeof value === "number" && value >= 0) {
      solver["mip_rel_gap"] = value;
    } else if (key === "method" && solverMethod(value) !== undefined) {
      solver["method"] = solverMethod(value);
    } else ignored.push(key);
  }
  if (Object.keys(solver).length > 0) out["solver"] = solver;
  if (ignored.length > 0) {
    ctx.notes.push(
      `modelConfig.solverOptions ${
        ignored.join(", ")
      } ignored (not HiGHS LP settings the runner takes)`,
    );
  }
}

/**
 * A frontend solver method as HiGHS's `solver` option: simplex, ipm, pdlp or choose. Numbers are
 * the common -1 auto / 0 primal / 1 dual / 2 barrier codes.
 */
export function solverMethod(value: unknown): "simplex" | "ipm" | "pdlp" | "choose" | undefined {
  if (typeof value === "number") {
    if (value === -1) return "choose";
    if (value === 0 || value === 1) return "simplex";
    if (value === 2) return "ipm";
    return undefined;
  }
  if (typeof value !== "string") return undefined;
  const word = value.trim().toLowerCase();
  if (word === "pdlp") return "pdlp";
  if (/^(choose|auto|automatic|default)$/.test(word)) return "choose";
  if (/simplex|primal|dual/.test(word)) return "simplex";
  if (/^(ipm|ipx|barrier|interior[ _-]?point)$/.test(word)) return "ipm";
  return undefined;
}

function isText(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}
