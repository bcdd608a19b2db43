/**
 * The shapes of the Calliope adapter's output: one technology in Calliope 0.6 form, the
 * configuration and `techs` block, the report of what was left out, and the HTTP answer that
 * puts the report beside the configuration.
 */
import { z } from "zod";
import { CALLIOPE_PARENTS } from "./calliope_keys.ts";
import type { CapacityConversion } from "../adapters/fuel_link.ts";
import { setOwn } from "../adapters/own_keys.ts";

/** One technology in Calliope 0.6 form. */
export const calliopeTechSchema = z.object({
  essentials: z.object({
    name: z.string(),
    color: z.string(),
    carrier_in: z.string().optional(),
    carrier_out: z.string(),
    parent: z.enum(CALLIOPE_PARENTS),
  }),
  // Numbers, but `resource` may name a series (`file=ID.csv`) and `resource_unit` is a word.
  constraints: z.object({
    resource: z.union([z.number(), z.string()]).optional(),
    resource_unit: z.string().optional(),
  }).catchall(z.number().optional()),
  costs: z.record(z.string(), z.record(z.string(), z.number().optional())),
});

/** One technology in Calliope 0.6 form. */
export type CalliopeTech = z.infer<typeof calliopeTechSchema>;

/** Calliope technologies keyed by technology id, as under `techs:`. */
export const calliopeConfigSchema = z.record(z.string(), calliopeTechSchema).describe(
  "Calliope 0.6 technologies keyed by technology id, as under `techs:`",
);

/** Calliope technologies keyed by technology id. */
export type CalliopeConfig = z.infer<typeof calliopeConfigSchema>;

/** A Calliope `techs` block. */
export const calliopeTechsSchema = z.object({ techs: calliopeConfigSchema });

/** A Calliope `techs` block. */
export type CalliopeTechs = z.infer<typeof calliopeTechsSchema>;

/** A configuration with what was left out and why. */
export interface CalliopeReport {
  config: CalliopeConfig;
  /** Calliope keys left out because the catalogue has no figure (Calliope's default applies). */
  omitted: string[];
  notes: string[];
  /** Unit of every numeric key served, by path (`constraints.energy_eff`, `costs.<class>.x`). */
  units: Record<string, string>;
  /** How per-capacity figures were moved to Calliope's basis; null when none was needed. */
  conversion?: CapacityConversion | null;
}

/** Members of the HTTP answer beside the technology; no technology id may be one of them. */
export const CALLIOPE_ANSWER_MEMBERS = ["notes", "omitted", "units", "conversion"] as const;

/** A conversion of per-capacity figures between input and output basis. */
export const capacityConversionSchema = z.object({
  from: z.enum(["input", "output"]),
  to: z.enum(["input", "output"]),
  factor: z.number().describe("after = before × factor"),
  efficiency: z.number().describe("per unit"),
  converted: z.record(z.string(), z.object({ before: z.number(), after: z.number() })),
});

/**
 * The HTTP answer for one technology: `{<technology_id>: tech, notes, omitted, units}`. The tech
 * block under the id is valid Calliope 0.6 as it stands; the report members sit beside it.
 */
export const calliopeAnswerSchema = z.object({
  notes: z.array(z.string()).describe("What the configuration leaves to the modeller, and why"),
  omitted: z.array(z.string()).describe(
    "Calliope keys left out because the catalogue has no figure (Calliope's default applies)",
  ),
  units: z.record(z.string(), z.string()).describe(
    "Unit of every numeric key served, by path: `constraints.energy_eff`, `costs.<class>.<key>`",
  ),
  conversion: capacityConversionSchema.nullable().describe(
    "How per-capacity figures were moved to Calliope's basis (a conversion's energy_cap is its " +
      "output): after = before × factor; null when the instance's basis is Calliope's already",
  ),
}).catchall(calliopeTechSchema).describe(
  "`{ <technology_id>: { essentials, constraints, costs }, notes, omitted, units }`",
);

/** The HTTP answer for one technology. */
export type CalliopeAnswer = z.infer<typeof calliopeAnswerSchema>;

/**
 * A report as the HTTP answer: the configuration keyed by technology id, with `notes`,
 * `omitted` and `units` beside it. Throws TypeError for a technology id that is one of those.
 */
export function calliopeAnswer(
  { config, notes, omitted, units, conversion }: CalliopeReport,
): CalliopeAnswer {
  const answer: Record<string, unknown> = {};
  for (const [id, tech] of Object.entries(config)) {
    if ((CALLIOPE_ANSWER_MEMBERS as readonly string[]).includes(id)) {
      throw new TypeError(`technology id "${id}" is a member name of the Calliope answer`);
    }
    setOwn(answer, id, tech);
  }
  Object.assign(answer, { notes, omitted, units, conversion: conversion ?? null });
  return answer as CalliopeAnswer;
}
