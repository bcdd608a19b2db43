/**
 * Calliope 0.6's `group_constraints`: named groups of loc::techs (`techs`, `locs`, both default
 * to all) with limits on their summed capacity, production, consumption or cost, and
 * `demand_share_per_timestep_decision` (a share of demand the model chooses, held in every
 * timestep). Every family of Calliope 0.6.10's `default_group` is accepted; other keys are refused.
 */
import { z } from "zod";

// Same as model_config.ts's quantity (kept here: model_config.ts imports this file).
const quantitySchema = z.union([z.number(), z.enum(["inf", ".inf", "-inf", "-.inf"])]);

/** Families with one number per group (`<family>_<min|max|equals>`). */
export const SCALAR_GROUP_FAMILIES = [
  "energy_cap",
  "storage_cap",
  "resource_area",
  "energy_cap_share",
] as const;
/** Families with one number per carrier (Calliope allows exactly one carrier). */
export const CARRIER_GROUP_FAMILIES = [
  "carrier_prod",
  "carrier_con",
  "carrier_prod_share",
  "carrier_prod_share_per_timestep",
  "demand_share",
  "demand_share_per_timestep",
  "net_import_share",
] as const;
/** Families with one number per cost class. */
export const COST_GROUP_FAMILIES = ["cost", "cost_var", "cost_investment"] as const;
export const GROUP_SENSES = ["min", "max", "equals"] as const;
export type GroupSense = typeof GROUP_SENSES[number];

/**
 * The one family without a sense: `{carrier: share}`, the total of the shares the model decides
 * for the group's techs (`inf`: no total, only equal shares in every timestep).
 */
export const DECISION_GROUP_FAMILY = "demand_share_per_timestep_decision";

const keyed = z.record(z.string(), quantitySchema);
const shape: Record<string, z.ZodType> = {
  techs: z.array(z.string()).optional().describe("Technologies of the group (default: all)"),
  locs: z.array(z.string()).optional().describe("Locations of the group (default: all)"),
  exists: z.boolean().optional().describe("false disables the group"),
};
for (const sense of GROUP_SENSES) {
  for (const f of SCALAR_GROUP_FAMILIES) shape[`${f}_${sense}`] = quantitySchema.optional();
  for (const f of CARRIER_GROUP_FAMILIES) {
    shape[`${f}_${sense}`] = keyed.optional().describe("{carrier: value}, one carrier");
  }
  for (const f of COST_GROUP_FAMILIES) {
    shape[`${f}_${sense}`] = keyed.optional().describe("{cost class: value}");
  }
}
shape[DECISION_GROUP_FAMILY] = keyed.optional().describe("{carrier: total share}, one carrier");
const KNOWN = new Set(Object.keys(shape));

/** The message for a group key the runner does not accept. */
export function groupKeyProblem(key: string): string {
  return `unknown group constraint key "${key}"`;
}

/** One group: its members and its limits (values `inf`/`-inf` allowed, as Calliope's `.inf`). */
export const groupConstraintSchema = z.looseObject(shape).superRefine((group, ctx) => {
  for (const key of Object.keys(group)) {
    if (!KNOWN.has(key)) {
      ctx.addIssue({ code: "custom", path: [key], message: groupKeyProblem(key) });
    }
  }
});
export type GroupConstraint = {
  techs?: string[];
  locs?: string[];
  exists?: boolean;
  [key: string]: string[] | boolean | number | string | Record<string, number | string> | undefined;
};

export const groupConstraintsSchema = z.record(z.string(), groupConstraintSchema).describe(
  "Calliope's group_constraints: {group name: {techs?, locs?, exists?, <family>_<min|max|equals>}}",
) as unknown as z.ZodType<Record<string, GroupConstraint>>;
