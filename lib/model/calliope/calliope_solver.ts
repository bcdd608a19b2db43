/**
 * `run.solver` and the `run.solver_options` that carry over to every solver, into ModelConfig's
 * `parameters.solver`. Calliope hands `solver_options` to the named solver as they are, so each
 * solver spells them its own way; the ones that mean the same for every solver (a MIP's gap, a
 * time limit, threads) are read in each spelling. The others steer only that solver and are
 * left out.
 */
import { getKey } from "./calliope_yaml.ts";
import type { AttrDict } from "./calliope_yaml.ts";
import type { ReportProblem as Report } from "../model_problem.ts";

/** The spellings of each option, by solver: cbc, glpk, Gurobi, CPLEX, HiGHS, SCIP. */
const SPELLINGS = {
  mip_rel_gap: ["mipgap", "mip_rel_gap", "ratio", "ratioGap", "MIPGap", "mip_tolerances_mipgap"],
  time_limit_s: ["time_limit", "sec", "seconds", "tmlim", "TimeLimit", "timelimit"],
  threads: ["threads", "Threads"],
} as const;

/** Reads `run.solver` and `run.solver_options` into `params.solver`. */
export function convertSolver(
  config: AttrDict,
  params: Record<string, unknown>,
  problem: Report,
): void {
  const solver: Record<string, unknown> = {};
  const name = getKey(config, "run.solver");
  if (typeof name === "string" && name.trim() !== "") solver["name"] = name.trim();
  else if (name !== undefined && name !== null) problem("run.solver", "solver must be a name");
  for (const [option, spellings] of Object.entries(SPELLINGS)) {
    for (const spelling of spellings) {
      const path = `run.solver_options.${spelling}`;
      const raw = getKey(config, path);
      if (raw === undefined || raw === null) continue;
      const n = typeof raw === "string" ? Number(raw) : raw;
      const valid = typeof n === "number" &&
        (option === "threads"
          ? Number.isInteger(n) && n > 0
          : option === "time_limit_s"
          ? n > 0 && Number.isFinite(n)
          : n >= 0 && Number.isFinite(n));
      if (!valid) {
        const what = option === "threads"
          ? "a positive integer"
          : option === "time_limit_s"
          ? "a positive number of seconds"
          : "a non-negative number";
        problem(path, `${spelling} must be ${what}`);
      } else solver[option] = n;
      break;
    }
  }
  if (Object.keys(solver).length > 0) params["solver"] = solver;
}
