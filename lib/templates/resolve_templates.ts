/**
 * A model's technologies that name a template (`template: "onshore_wind"`) get the template's
 * settings under their own: any key of the technology wins, the template fills the rest. Works
 * on both model forms the runner reads: ModelConfig (`type`, carriers at the top, `essentials`
 * with name and colour only) and the frontend's (Calliope-shaped `essentials` with parent and
 * carriers). The model given is not changed; `template` stays on the technology.
 */
import { isFrontendModel } from "../model/frontend/frontend_model.ts";
import { didYouMean } from "../model/key_suggestions.ts";
import type { ModelProblem } from "../model/model_problem.ts";
import type { TemplateTech } from "./template_entry.ts";

/** A model with its templates applied, or every unknown template by JSON path. */
export type ResolvedTemplates =
  | { ok: true; model: unknown }
  | { ok: false; problems: ModelProblem[] };

type Json = Record<string, unknown>;

const CARRIER_KEYS = ["carrier", "carrier_in", "carrier_out"] as const;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `over` deep-merged over `under`: objects merge key by key, anything else of `over` wins. */
export function deepMerge(under: unknown, over: unknown): unknown {
  if (!isObject(under) || !isObject(over)) return over === undefined ? under : over;
  const merged: Json = structuredClone(under);
  for (const [key, value] of Object.entries(over)) {
    // Own-property writes only: a model's `__proto__` key must not reach a prototype.
    Object.defineProperty(merged, key, {
      value: deepMerge(merged[key], value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return merged;
}

/** Whether a technology names any carrier itself (then the template's carriers stay out). */
function namesCarriers(tech: Json): boolean {
  const essentials = isObject(tech["essentials"]) ? tech["essentials"] : {};
  return CARRIER_KEYS.some((k) => tech[k] !== undefined || essentials[k] !== undefined) ||
    Object.keys(tech).some((k) => /^(carrier_(in|out)_[23]|primary_carrier_(in|out))$/.test(k));
}

/**
 * The template's settings in the ModelConfig form: `type` from the parent; a demand, storage or
 * transmission technology's one carrier as `carrier`; supply and conversion carriers as they are.
 * Carriers count as one setting: a technology naming any carrier keeps its own and none of the
 * template's, so a template's carrier_out cannot outrank the technology's `carrier`.
 */
function asModelConfig(tech: TemplateTech, own: Json): Json {
  const { parent, name, color, carrier, carrier_in, carrier_out } = tech.essentials;
  const settings: Json = {
    type: parent,
    essentials: { name, color },
    constraints: tech.constraints,
    costs: tech.costs,
  };
  if (!namesCarriers(own)) {
    if (parent === "demand" || parent === "storage" || parent === "transmission") {
      const one = carrier ?? carrier_in ?? carrier_out;
      if (one !== undefined) settings["carrier"] = one;
    } else {
      if (carrier_in !== undefined) settings["carrier_in"] = carrier_in;
      if (carrier_out !== undefined) settings["carrier_out"] = carrier_out;
      if (carrier !== undefined) settings["carrier"] = carrier;
    }
  }
  return settings;
}

/**
 * The template's settings in the frontend's form (Calliope-shaped). Its reader takes the parent
 * from `parent`, then `essentials.parent`, then `type`: a technology with its own `type` or
 * `parent` does not get the template's `essentials.parent`, which would outrank its `type`.
 */
function asFrontend(tech: TemplateTech, own: Json): Json {
  const essentials: Json = { ...tech.essentials };
  if (own["type"] !== undefined || own["parent"] !== undefined) delete essentials["parent"];
  if (namesCarriers(own)) { for (const key of CARRIER_KEYS) delete essentials[key]; }
  return { essentials, constraints: tech.constraints, costs: tech.costs };
}

/**
 * Applies the templates named by `model.technologies[i].template`; `lookup` gives a template's
 * technology or undefined. Unknown or non-text template names are problems at
 * `technologies[i].template`, with the closest id suggested.
 */
export function resolveTemplates(
  model: unknown,
  lookup: (id: string) => TemplateTech | undefined,
  ids: Iterable<string>,
): ResolvedTemplates {
  if (!isObject(model) || !Array.isArray(model["technologies"])) {
    // Nothing to resolve; the runner's schema reports a model without technologies.
    return { ok: true, model: isObject(model) ? { ...model } : model };
  }
  const frontend = isFrontendModel(model);
  const problems: ModelProblem[] = [];
  const technologies = model["technologies"].map((tech: unknown, i) => {
    if (!isObject(tech) || tech["template"] === undefined) return tech;
    const name = tech["template"];
    const path = `technologies[${i}].template`;
    if (typeof name !== "string") {
      problems.push({ path, message: "template must be a template id (text)" });
      return tech;
    }
    const template = lookup(name);
    if (template === undefined) {
      problems.push({ path, message: `unknown template "${name}"${didYouMean(name, ids)}` });
      return tech;
    }
    const settings = frontend ? asFrontend(template, tech) : asModelConfig(template, tech);
    return deepMerge(settings, tech);
  });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, model: { ...model, technologies } };
}
