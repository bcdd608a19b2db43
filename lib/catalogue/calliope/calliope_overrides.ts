/**
 * Caller overrides of a Calliope configuration: numeric values under keys Calliope 0.6 knows and
 * allows for the technology's parent, in cost classes whose names cannot reach a prototype.
 */
import { z } from "zod";
import type { CalliopeConfig } from "./calliope_answer.ts";
import {
  CALLIOPE_ALLOWED,
  CALLIOPE_CONSTRAINT_KEYS,
  CALLIOPE_COST_KEYS,
  type CalliopeConstraintKey,
  type CalliopeCostKey,
  type CalliopeParent,
} from "./calliope_keys.ts";
import { costClassSchema } from "./cost_class.ts";
import { ownValue, RESERVED_KEY_MESSAGE, reservedKeyPaths, setOwn } from "../adapters/own_keys.ts";

function numericKeys<K extends string>(keys: readonly K[]) {
  const shape = {} as Record<K, z.ZodOptional<z.ZodNumber>>;
  for (const key of keys) shape[key] = z.number().optional();
  // Strict: a key Calliope 0.6 does not know is an error that names it.
  return z.strictObject(shape);
}

/** A Calliope 0.6 time-series reference: `file=ID.csv`, optionally `:column`. */
export const CALLIOPE_FILE_REFERENCE = /^file=[^:]+\.csv(:.+)?$/;

/** Calliope 0.6's resource units. */
export const CALLIOPE_RESOURCE_UNITS = ["energy", "energy_per_cap", "energy_per_area"] as const;

/** The constraints: numbers, except the resource (or its series) and its unit. */
const constraintsSchema = numericKeys(CALLIOPE_CONSTRAINT_KEYS).extend({
  resource: z.union([
    z.number(),
    z.string().regex(CALLIOPE_FILE_REFERENCE, "must be a number or file=ID.csv[:column]"),
  ]).optional(),
  resource_unit: z.enum(CALLIOPE_RESOURCE_UNITS).optional(),
});

/** Constraint and cost overrides: numeric values under keys Calliope 0.6 knows. */
export const CalliopeOverridesSchema = z.strictObject({
  constraints: constraintsSchema.optional().describe(
    'Constraint values by Calliope 0.6 key, e.g. {"energy_cap_max": 50000} (kW); `resource` ' +
      "may name a series (file=ID.csv[:column]) and `resource_unit` is energy, energy_per_cap " +
      "or energy_per_area",
  ),
  costs: z.record(costClassSchema, numericKeys(CALLIOPE_COST_KEYS), {
    // The key's own rule, instead of zod's "Invalid key in record".
    error: (issue) =>
      issue.code === "invalid_key" ? issue.issues.map((i) => i.message).join("; ") : undefined,
  }).optional().describe(
    'Costs by cost class, then Calliope 0.6 key, e.g. {"monetary": {"energy_cap": 900}}',
  ),
});

/** Validated overrides. */
export type CalliopeOverrides = z.infer<typeof CalliopeOverridesSchema>;

/** The refusal of a key Calliope 0.6 knows but does not allow for the technology's parent. */
function notAllowed(path: string, parent: CalliopeParent): TypeError {
  return new TypeError(`${path}: not allowed for a ${parent} technology in Calliope 0.6`);
}

/**
 * Applies constraint and cost overrides to a Calliope configuration (a copy is returned). Unknown
 * keys and non-numeric values (but a `resource` series and a `resource_unit`) throw a ZodError
 * naming them; a reserved name (`__proto__`,
 * `constructor`, `prototype`, ...) anywhere in the overrides, and a key Calliope 0.6 knows but
 * does not allow for the technology's parent, throw TypeError naming it. Every write is an own
 * property of the copy: no override reaches a prototype.
 */
export function applyCalliopeOverrides(config: CalliopeConfig, overrides: unknown): CalliopeConfig {
  // zod drops a `__proto__` record key silently; the raw body is checked first so it is refused.
  const reserved = reservedKeyPaths(overrides);
  if (reserved.length > 0) {
    throw new TypeError(`${reserved.join(", ")}: ${RESERVED_KEY_MESSAGE}`);
  }
  const { constraints = {}, costs = {} } = CalliopeOverridesSchema.parse(overrides);
  const result = structuredClone(config);
  for (const tech of Object.values(result)) {
    const allowed = CALLIOPE_ALLOWED[tech.essentials.parent];
    for (
      const [key, value] of Object.entries(constraints) as [
        CalliopeConstraintKey,
        number | string | undefined,
      ][]
    ) {
      if (value === undefined) continue;
      if (!allowed.constraints.includes(key)) {
        throw notAllowed(`constraints.${key}`, tech.essentials.parent);
      }
      setOwn(tech.constraints as Record<string, number | string>, key, value);
    }
    for (const [costClass, values] of Object.entries(costs)) {
      let target = ownValue(tech.costs, costClass);
      if (target === undefined) setOwn(tech.costs, costClass, target = {});
      for (const [key, value] of Object.entries(values) as [CalliopeCostKey, number][]) {
        if (value === undefined) continue;
        if (!allowed.costs.includes(key)) {
          throw notAllowed(`costs.${costClass}.${key}`, tech.essentials.parent);
        }
        setOwn(target, key, value);
      }
    }
  }
  return result;
}
