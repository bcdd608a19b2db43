/**
 * A Calliope 0.6 model's `run.mode`, `run.spores_options` and `run.operation` into the
 * ModelConfig's `parameters.mode`, `parameters.spores` and `parameters.operation` (Calliope's
 * names, checked by their schemas; each problem at its `run...` path). Options of a mode not
 * chosen are kept and unused, as Calliope leaves them.
 */
import { type AttrDict, getKey } from "./calliope_yaml.ts";
import type { ReportProblem as Report } from "../model_problem.ts";
import { sporesOptionsSchema } from "../spores/spores_options.ts";
import { operateOptionsSchema } from "../operate/operate_options.ts";
import { checkedSection } from "./calliope_checked_section.ts";

export function convertRunModes(
  config: AttrDict,
  params: Record<string, unknown>,
  problem: Report,
): void {
  const mode = getKey(config, "run.mode");
  if (mode === "spores" || mode === "plan" || mode === "operate") params["mode"] = mode;
  const sections = [
    ["run.operation", "operation", operateOptionsSchema],
    ["run.spores_options", "spores", sporesOptionsSchema],
  ] as const;
  for (const [at, name, schema] of sections) {
    const value = getKey(config, at);
    if (value === undefined || value === null) continue;
    const json = checkedSection(value, schema, at, problem);
    if (json !== undefined) params[name] = json;
  }
}
