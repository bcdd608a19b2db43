/**
 * The name of a Calliope cost class, one rule for the adapter's `cost_class` option and the
 * overrides' cost classes: a word of letters, digits and `_` that cannot reach a prototype.
 */
import { z } from "zod";
import { isReservedKey, RESERVED_KEY_MESSAGE } from "../adapters/own_keys.ts";

/** A cost class name: a word of letters, digits and `_`. */
export const COST_CLASS = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What `COST_CLASS` asks, for the messages. */
const COST_CLASS_RULE = "must be a word of letters, digits and _";

/**
 * A cost class name: a word of letters, digits and `_` that is not a member every object has
 * (`constructor`, `toString`, `__proto__`, ...) nor `prototype`.
 */
export const costClassSchema = z
  .string()
  .regex(COST_CLASS, COST_CLASS_RULE)
  .refine((name) => !isReservedKey(name), RESERVED_KEY_MESSAGE);

/** Throws RangeError naming the rule when `costClass` is not a cost class name. */
export function checkCostClass(costClass: string): void {
  if (!COST_CLASS.test(costClass)) {
    throw new RangeError(`cost_class ${COST_CLASS_RULE}, got "${costClass}"`);
  }
  if (isReservedKey(costClass)) {
    throw new RangeError(`cost_class "${costClass}": ${RESERVED_KEY_MESSAGE}`);
  }
}
