/**
 * A Calliope 0.6 model's `run.mode: spores` and `run.spores_options` into the ModelConfig's
 * `parameters.mode` and `parameters.spores` (Calliope's names, checked by the SPORES schema; each
 * problem at its `run.spores_options...` path). In plan mode the options are kept and unused, as
 * Calliope leaves them.
 */
import { type AttrDict, getKey, toJson } from "./calliope_yaml.ts";
import type { ReportProblem as Report } from "../model_problem.ts";
import { sporesOptionsSchema } from "../spores/spores_options.ts";

export function convertSpores(
  config: AttrDict,
  params: Record<string, unknown>,
  problem: Report,
): void {
  const mode = getKey(config, "run.mode");
  if (mode === "spores" || mode === "plan") params["mode"] = mode;
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
