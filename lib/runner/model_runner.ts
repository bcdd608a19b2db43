/**
 * The seam between the runner service and the modelling domain. The service hands a job's raw
 * JSON body to `runBody`, which parses, validates, pre-processes, builds, solves and reads back
 * (the HiGHS runner does all of it in one Worker per call, so the service's event loop stays
 * free); an invalid model ends with its problems. The CLI, the notebooks and tests use the two
 * steps on their own thread: `prepare` (every problem at once) and `run`.
 */
import type { ModelProblem } from "../model/model_problem.ts";
import type { ResolvedModel } from "../model/preprocess/resolved_model.ts";
import type { LinearProgram } from "../lp/linear_program.ts";
import type { SolveOptions, Termination } from "../solver/solve_types.ts";
import type { RunResult } from "../results/run_result.ts";

/** What `run` resolves with; it lives with the read-back that makes it. */
export type { RunResult };

/** Where a run is: reading and building the LP, or solving it. */
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
  /** Aborting stops the run; it then resolves with termination `interrupted`. */
  readonly signal: AbortSignal;
  /** Told the process id of each command-line solver the run starts (see SolveHooks). */
  readonly onSpawn?: (pid: number) => void;
}

/** What a caller may set for one run beyond the model (the CLI's options). */
export interface RunOptions {
  /** Solver settings over the model's own (`--method`, `--time-limit`). */
  readonly solver?: SolveOptions;
  /** Sees the LP once built, before it is solved (`--write-lp`); awaited. */
  readonly onLp?: (lp: LinearProgram) => void | Promise<void>;
}

/**
 * A result as the service keeps it: the members it reads, the `done` event's summary, and the
 * whole result as UTF-8 JSON, made where the result was read (a Worker), so that a large result
 * costs the service's thread neither a structured clone of every table nor a stringify.
 */
export interface EncodedRunResult {
  readonly success: boolean;
  readonly termination: Termination;
  readonly termination_condition: string;
  readonly objective: number | null;
  /** The result without its time series (`summarizeResult`). */
  readonly summary: Readonly<Record<string, unknown>>;
  /** The full result, UTF-8 JSON (its own buffer, so that it can be transferred). */
  readonly json: Uint8Array<ArrayBuffer>;
}

/** A refused model: the first problems (at most MAX_LISTED_PROBLEMS) and how many there were. */
export interface ModelRefusal {
  readonly problems: readonly ModelProblem[];
  /** Every problem found, listed or not. */
  readonly total: number;
}

/** The end of `runBody`: a result (optimal or not, or interrupted), or the model's problems. */
export type BodyRun =
  | { readonly ok: true; readonly result: EncodedRunResult }
  | ({ readonly ok: false } & ModelRefusal);

/** Accepted or refused: the outcome of `prepare`. */
export type Prepared =
  | { readonly ok: true; readonly model: ResolvedModel }
  | { readonly ok: false; readonly problems: readonly ModelProblem[] };

/** The modelling domain as the runner service sees it. */
export interface ModelRunner {
  /** Validates and pre-processes a request body (either model form). Never throws for bad input. */
  prepare(body: unknown): Prepared;
  /** Builds, solves and reads back; infeasible is a result, a fault rejects with an Error. */
  run(model: ResolvedModel, hooks: RunHooks, options?: RunOptions): Promise<RunResult>;
  /**
   * Parses a JSON body (UTF-8 bytes; they may be transferred away), then prepares and runs it.
   * An invalid or unparsable model resolves with its problems; a fault rejects with an Error;
   * an abort resolves at once with termination `interrupted` (nothing of it is kept).
   */
  runBody(body: Uint8Array, hooks: RunHooks): Promise<BodyRun>;
  /** e.g. "HiGHS 1.15.3 (wasm)". */
  readonly solverName: string;
}
