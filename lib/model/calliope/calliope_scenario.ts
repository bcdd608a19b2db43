/**
 * Calliope 0.6 scenarios and overrides applied to a model's YAML before it is converted:
 * `-o key=value` overrides, then the named scenario's override groups (nested scenarios
 * expanded), then the `-o` overrides again.
 */
import {
  type AttrDict,
  type AttrValue,
  cloneAttr,
  isAttrDict,
  toAttrDict,
  union,
} from "./calliope_yaml.ts";

/**
 * `config` with the `-o` overrides and the scenario's override groups applied, as Calliope's
 * `apply_overrides` does (errors name `modelFile`).
 */
export function applyOverrides(
  config: AttrDict,
  modelFile: string,
  options: { readonly scenario?: string; readonly overrides?: Record<string, unknown> },
): AttrDict {
  const result = cloneAttr(config);
  const overrideDict = options.overrides ? toAttrDict(options.overrides) : undefined;
  // Twice, as Calliope does: before the scenario (so it can redefine scenarios) and after it.
  if (overrideDict) union(result, overrideDict, { allowOverride: true, allowReplacement: true });
  if (options.scenario) {
    const names = overridesOfScenario(result, options.scenario, modelFile, []);
    const overrides = isAttrDict(result["overrides"]) ? result["overrides"] : {};
    const combined: AttrDict = {};
    for (const name of names) {
      const group = overrides[name];
      if (!isAttrDict(group)) {
        throw new RangeError(
          `${modelFile}: scenario "${options.scenario}": override "${name}" is not defined ` +
            `(overrides: ${Object.keys(overrides).join(", ") || "none"}; scenarios: ${
              Object.keys(isAttrDict(result["scenarios"]) ? result["scenarios"] : {}).join(", ") ||
              "none"
            })`,
        );
      }
      try {
        union(combined, group);
      } catch (error) {
        if (error instanceof RangeError) {
          throw new RangeError(
            `${modelFile}: ${error.message}. Already specified but defined again in override "${name}"`,
          );
        }
        throw error;
      }
    }
    union(result, combined, { allowOverride: true, allowReplacement: true });
  }
  if (overrideDict) union(result, overrideDict, { allowOverride: true, allowReplacement: true });
  return result;
}

/** Override names of a scenario, nested scenarios expanded, each once, in order. */
function overridesOfScenario(
  config: AttrDict,
  scenario: string,
  modelFile: string,
  seen: string[],
): string[] {
  const scenarios = isAttrDict(config["scenarios"]) ? config["scenarios"] : {};
  let list: AttrValue[];
  if (Object.hasOwn(scenarios, scenario)) {
    if (seen.includes(scenario)) {
      throw new RangeError(`${modelFile}: scenario "${scenario}" refers to itself`);
    }
    const entry = scenarios[scenario] ?? null;
    list = Array.isArray(entry) ? entry : [entry];
  } else {
    list = scenario.split(",").map((s) => s.trim()).filter((s) => s !== "");
  }
  const out: string[] = [];
  for (const item of list) {
    if (typeof item !== "string") {
      throw new TypeError(
        `${modelFile}: scenario "${scenario}" must be a list of override or scenario names`,
      );
    }
    const names = Object.hasOwn(scenarios, item) && item !== scenario
      ? overridesOfScenario(config, item, modelFile, [...seen, scenario])
      : [item];
    for (const n of names) if (!out.includes(n)) out.push(n);
  }
  return out;
}
