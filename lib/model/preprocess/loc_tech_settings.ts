/**
 * The settings of one loc::tech before defaults: the base group's own constraints, then the
 * technology's, then the location's (or the link's) overrides, each later one winning
 * (Calliope 0.6 `locations.process_locations`), remembering where each key was written so a
 * problem can name its JSON path. Also the check of keys against each type's
 * `allowed_constraints` / `allowed_costs`.
 */
import type { Constraints, Costs, TechType } from "../model_config.ts";
import type { ModelProblem } from "../model_problem.ts";
import { ALLOWED_CONSTRAINTS, ALLOWED_COSTS, BASE_GROUP_CONSTRAINTS } from "./tech_defaults.ts";
import { TECH_TYPES } from "../model_config.ts";
import { closestKey } from "../key_suggestions.ts";

/** Merged constraint and cost values with the JSON path each came from. */
export interface RawSettings {
  readonly constraints: Record<string, unknown>;
  readonly costs: Record<string, Record<string, unknown>>;
  readonly constraintPaths: Record<string, string>;
  readonly costPaths: Record<string, Record<string, string>>;
}

/** One layer of settings and the JSON path of the object holding it. */
export interface SettingsLayer {
  readonly constraints?: Constraints | undefined;
  readonly costs?: Readonly<Record<string, Costs>> | undefined;
  readonly path: string;
}

/** Base group constraints < each layer in order; `carrier_ratios` merges tier by tier. */
export function mergeSettings(
  type: TechType,
  techPath: string,
  layers: readonly SettingsLayer[],
): RawSettings {
  const constraints: Record<string, unknown> = { ...BASE_GROUP_CONSTRAINTS[type] };
  const constraintPaths: Record<string, string> = {};
  for (const k of Object.keys(constraints)) constraintPaths[k] = techPath;
  const costs: Record<string, Record<string, unknown>> = {};
  const costPaths: Record<string, Record<string, string>> = {};
  for (const layer of layers) {
    for (const [k, v] of Object.entries(layer.constraints ?? {})) {
      if (v === undefined) continue;
      if (k === "carrier_ratios") {
        const merged = structuredClone((constraints[k] ?? {}) as Record<string, unknown>);
        for (const [tier, ratios] of Object.entries(v as Record<string, unknown>)) {
          merged[tier] = { ...(merged[tier] as object | undefined), ...(ratios as object) };
        }
        constraints[k] = merged;
      } else constraints[k] = v;
      constraintPaths[k] = `${layer.path}.constraints.${k}`;
    }
    for (const [cls, values] of Object.entries(layer.costs ?? {})) {
      const target = (costs[cls] ??= {});
      const paths = (costPaths[cls] ??= {});
      for (const [k, v] of Object.entries(values)) {
        if (v === undefined) continue;
        target[k] = v;
        paths[k] = `${layer.path}.costs.${cls}.${k}`;
      }
    }
  }
  return { constraints, costs, constraintPaths, costPaths };
}

/**
 * Problems for keys a `type` does not allow; at location or link level (`override`), also for
 * `_systemwide` keys, which only a technology may set.
 */
export function checkAllowedKeys(
  type: TechType,
  layer: SettingsLayer,
  override: boolean,
  problems: ModelProblem[],
): void {
  for (const k of Object.keys(layer.constraints ?? {})) {
    const path = `${layer.path}.constraints.${k}`;
    if (override && k.endsWith("_systemwide")) {
      problems.push({
        path,
        message: `${k} applies to the technology as a whole; set it in the technology's ` +
          "constraints, not per location or link",
      });
    } else if (!ALLOWED_CONSTRAINTS[type].includes(k)) {
      problems.push({ path, message: notAllowed("constraint", k, type, ALLOWED_CONSTRAINTS) });
    }
  }
  for (const [cls, values] of Object.entries(layer.costs ?? {})) {
    for (const k of Object.keys(values)) {
      if (!ALLOWED_COSTS[type].includes(k)) {
        problems.push({
          path: `${layer.path}.costs.${cls}.${k}`,
          message: notAllowed("cost", k, type, ALLOWED_COSTS),
        });
      }
    }
  }
}

function notAllowed(
  what: string,
  key: string,
  type: TechType,
  table: Readonly<Record<TechType, readonly string[]>>,
): string {
  const others = TECH_TYPES.filter((t) => t !== type && table[t].includes(key));
  const near = closestKey(key, table[type].filter((k) => k !== key));
  const hint = others.length > 0
    ? ` (it applies to ${others.join(", ")} technologies)`
    : near !== undefined
    ? `; did you mean ${near}?`
    : "";
  return `${what} ${key} is not allowed for a ${type} technology${hint}`;
}
