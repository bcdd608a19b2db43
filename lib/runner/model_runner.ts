/**
 * The seam between the runner service and the modelling domain: the service validates a body
 * with `prepare` (a 400 lists the problems) and hands the prepared model to `run`, which builds
 * the LP, solves it and reads the result back. Tests and notebooks use the same seam.
 */
import type { ModelProblem } from "../model/model_problem.ts";
import type { ResolvedModel } from "../model/resolved_model.ts";
import type { Termination } from "../solver/solve_types.ts";

/** Where a run is: building the LP, or solving it. */
export interface RunProgress {
  readonly phase: "build" | "solve";
  /** 0..100 */
  readonly pct: number;
}

/** How the service follows and stops one run. */
export interface RunHooks {
  /** One log line (solver lines as HiGHS writes them; runner lines prefixed `[runner] `). */
  readonly log: (line: string) => void;
  readonly progress: (progress: RunProgress) => void;
  /** Aborting stops the solve; `run` then resolves with termination `interrupted`. */
  readonly signal: AbortSignal;
}

/**
 * The result JSON of a run (issue 9 section 5): columnar tables plus the keys the frontend's
 * result views read. Only the members the service itself reads are typed here.
 */
export interface RunResult {
  readonly success: boolean;
  readonly termination: Termination;
  readonly termination_condition: string;
  /** Σ cost over every cost class, without the unmet-demand penalty; null without a solution. */
  readonly objective: number | null;
  readonly [key: string]: unknown;
}

/** Accepted or refused: the outcome of `prepare`. */
export type Prepared =
  | { readonly ok: true; readonly model: ResolvedModel }
  | { readonly ok: false; readonly problems: readonly ModelProblem[] };

/** The modelling domain as the runner service sees it. */
export interface ModelRunner {
  /** Validates and pre-processes a request body (either model form). Never throws for bad input. */
  prepare(body: unknown): Prepared;
  /** Builds, solves and reads back; infeasible is a result, a fault rejects with an Error. */
  run(model: ResolvedModel, hooks: RunHooks): Promise<RunResult>;
  /** e.g. "HiGHS 1.15.3 (wasm)". */
  readonly solverName: string;
}
