/**
 * A Calliope 0.6 model's `run.mode`, `run.spores_options` and `run.operation` into the
 * ModelConfig's `parameters.mode`, `parameters.spores` and `parameters.operation` (Calliope's
 * names, checked by their schemas; each problem at its `run...` path). Options of a mode not
 * chosen are kept and unused, as Calliope leaves them.
 */
import { type AttrDict, getKey, toJson } from "./calliope_yaml.ts";
import type { ReportProblem as Report } from "../model_problem.ts";
import { sporesOptionsSchema } from "../spores/spores_options.ts";
import { operateOptionsSchema } from "../operate/operate_options.ts";

export function convertSpores(
  config: AttrDict,
  params: Record<string, unknown>,
  problem: Report,
): void {
  const mode = getKey(config, "run.mode");
  if (mode === "spores" || mode === "plan" || mode === "operate") params["mode"] = mode;
  const operation = getKey(config, "run.operation");
  if (operation !== undefined && operation !== null) {
    const json = toJson(operation);
    const checked = operateOptionsSchema.safeParse(json);
    if (checked.success) params["operation"] = json;
    for (const issue of checked.error?.issues ?? []) {
      const at = issue.path.map((p) => typeof p === "number" ? `[${p}]` : `.${String(p)}`);
      problem(`run.operation${at.join("")}`, issue.message);
    }
  }
  const options = getKey(config, "run.spores_options");
  if (options === undefined || options === null) return;
  const json = toJson(options);
  const parsed = sporesOptionsSchema.safeParse(json);
  if (parsed.success) params["spores"] = json;
  for (const issue of parsed.error?.issues ?? []) {
    const at = issue.path.map((p) => typeof p === "number" ? `[${p}]` : `.${String(p)}`);
    problem(`run.spores_options${at.join("")}`, issue.message);
  }
}
