/**
 * Calliope 0.6.10's `run.spores_options` (config/defaults.yaml), with its names and defaults.
 * `save_per_spore` and `save_per_spore_path` are Calliope's NetCDF file output: accepted and
 * ignored here (every spore's tables are kept in the result instead).
 */
import { z } from "zod";

/** The settings of a SPORES run, defaults applied. */
export interface SporesOptions {
  /** How many spores after the cost-optimal solve (spores 1..n). */
  readonly spores_number: number;
  /** Fraction above the cost-optimal cost that each spore may cost. */
  readonly slack: number;
  /** The cost class whose `energy_cap` cost carries the cumulative scores. */
  readonly score_cost_class: string;
  /** Objective weights per cost class from spore 1 on (classes not named keep their weight). */
  readonly objective_cost_class: Readonly<Record<string, number>>;
  /**
   * The group constraint whose `cost_max` is set to the optimal cost × (1 + slack). Calliope's
   * default is null, with which its run fails when it sets the slack: required here.
   */
  readonly slack_cost_group: string | null;
  /** No cost-optimal solve: the model's own cost_max and score costs start the spores. */
  readonly skip_cost_op: boolean;
}

/** `parameters.spores` of a ModelConfig: Calliope's keys, every one optional. */
export const sporesOptionsSchema = z.strictObject({
  spores_number: z.number().int().min(0).default(3),
  slack: z.number().min(0).finite().default(0.1),
  score_cost_class: z.string().min(1).default("spores_score"),
  objective_cost_class: z.record(z.string().min(1), z.number().finite())
    .default({ spores_score: 1, monetary: 0 }),
  slack_cost_group: z.string().min(1).nullable().default(null),
  skip_cost_op: z.boolean().default(false),
  /** Calliope's per-spore NetCDF output: accepted, ignored. */
  save_per_spore: z.boolean().optional(),
  /** Calliope's per-spore NetCDF path: accepted, ignored. */
  save_per_spore_path: z.string().nullable().optional(),
});

/** What `sporesOptionsSchema` accepts (before defaults). */
export type SporesOptionsInput = z.input<typeof sporesOptionsSchema>;

/** Options with Calliope's defaults for whatever `input` leaves out (throws on invalid input). */
export function sporesOptions(input: SporesOptionsInput = {}): SporesOptions {
  const p = sporesOptionsSchema.parse(input);
  return {
    spores_number: p.spores_number,
    slack: p.slack,
    score_cost_class: p.score_cost_class,
    objective_cost_class: p.objective_cost_class,
    slack_cost_group: p.slack_cost_group,
    skip_cost_op: p.skip_cost_op,
  };
}
