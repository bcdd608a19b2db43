/**
 * What a solve is asked and what it answers, independent of where it runs (a Worker per job, or
 * in-process for tests and notebooks).
 */

/** How the solver ended (HiGHS model status, mapped). */
export type Termination =
  | "optimal"
  | "infeasible"
  | "unbounded"
  | "infeasible_or_unbounded"
  | "time_limit"
  | "iteration_limit"
  | "interrupted"
  | "error";

/** Solver settings a model may set. */
export interface SolveOptions {
  /**
   * Which solver: `highs` (the built-in WebAssembly HiGHS, the default) or a command-line solver
   * found on the machine (`cbc`, `clp`, `glpk`, a native `highs`, `gurobi`, `cplex`, `scip`).
   */
  readonly name?: string;
  readonly method?: "simplex" | "ipm" | "pdlp" | "choose";
  /** Seconds; absent = no limit. */
  readonly timeLimitS?: number;
  /** The WebAssembly build is single-threaded; kept for the record and for native solvers. */
  readonly threads?: number;
  /** A MIP's relative gap at which it stops as optimal (HiGHS `mip_rel_gap`; its default 1e-4). */
  readonly mipRelGap?: number;
}

/** Hooks a caller passes to follow and stop a solve. */
export interface SolveHooks {
  /** Each solver log line as the solver writes it (no trailing newline). */
  readonly onLog?: (line: string) => void;
  /** Aborting stops the solve; the outcome is then `interrupted`. */
  readonly signal?: AbortSignal;
  /**
   * Told the process id of a command-line solver as it starts (the leader of its own process
   * group), so that whoever may end this thread at once can end that process with it.
   */
  readonly onSpawn?: (pid: number) => void;
}

/** The answer of one solve. */
export interface SolveOutcome {
  readonly termination: Termination;
  /** HiGHS's own model status text, e.g. "Optimal". */
  readonly status: string;
  /** Objective value including the offset; null when no solution. */
  readonly objective: number | null;
  /** Primal values by column (empty when no solution). */
  readonly colValue: Float64Array;
  /** Duals of the rows (empty when none). */
  readonly rowDual: Float64Array;
  /** Names of rows in an irreducible infeasible subsystem, when HiGHS found one. */
  readonly conflicts?: readonly string[];
  readonly iterations: number;
  readonly solveMs: number;
  /**
   * Peak WebAssembly heap of the solve, bytes: HiGHS's memory only grows, so a Worker kept warm
   * between runs (warm_workers.ts, at most 128 MiB) reports at least its earlier runs' peak.
   */
  readonly peakHeapBytes: number;
  /** e.g. "HiGHS 1.15.3 (wasm)". */
  readonly solver: string;
  /** A MIP's relative gap between its solution and its bound when it stopped. */
  readonly mipGap?: number;
  /** A MIP's proven bound on the objective (lower when minimising). */
  readonly mipDualBound?: number;
  /** Set when termination is "error". */
  readonly message?: string;
}
