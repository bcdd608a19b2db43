/**
 * How each command-line solver is called on an LP file: its arguments (time limit, MIP gap,
 * threads and method in its own options), the files it needs beside the LP, and how its
 * solution is read back. Option syntax: cbc/clp `cbc -?`/`clp -?` (checked on 2.10.8/1.17.6),
 * glpsol `glpsol --help` (5.0), HiGHS's options file (HiGHS documentation "Options"), gurobi_cl
 * `PARAM=VALUE` (Gurobi "Command-Line Tool"), CPLEX interactive optimizer commands (`set
 * timelimit`, `set mip tolerances mipgap`, `set threads`), SCIP shell (`set limits time`).
 */
import type { SolveOptions } from "../solve_types.ts";
import type { CommandLineSolver } from "../solver_names.ts";
import type { NativeSolution } from "./native_solution.ts";
import { readCoinSolution } from "./read_coin_solution.ts";
import { readGlpkSolution } from "./read_glpk_solution.ts";
import { readHighsSolution } from "./read_highs_solution.ts";
import { gurobiLogTermination, readGurobiJson } from "./read_gurobi_solution.ts";
import { cplexLogTermination, readCplexSolution } from "./read_cplex_solution.ts";
import { readScipSolution } from "./read_scip_solution.ts";

/** The files of one solve, in its own temporary directory. */
export interface SolveFiles {
  readonly lp: string;
  readonly solution: string;
  /** For solvers that take settings from a file (HiGHS). */
  readonly options: string;
}

/** One solver call. */
export interface SolverInvocation {
  readonly args: readonly string[];
  /** Files written before the call: path and text. */
  readonly extraFiles: readonly (readonly [string, string])[];
  /**
   * The solution from the solution file's text (undefined when the solver wrote none) and the
   * log's lines (its last lines at least).
   */
  readonly read: (text: string | undefined, log: readonly string[]) => NativeSolution;
}

/** What a missing solution file means when the log says nothing better. */
function noFile(log: readonly string[]): NativeSolution {
  return {
    termination: "error",
    status: "No solution file",
    message: `The solver wrote no solution file; its last output: ${log.slice(-5).join(" | ")}`,
  };
}

/** The call of `name` on `files` with `options`; `mip`: the LP has integer columns. */
export function solverInvocation(
  name: CommandLineSolver,
  files: SolveFiles,
  options: SolveOptions,
  mip: boolean,
  fileRows: number,
): SolverInvocation {
  const { timeLimitS: time, mipRelGap: gap, threads, method } = options;
  switch (name) {
    case "cbc":
    case "clp": {
      const dash = name === "clp" ? "-" : "";
      const args = [files.lp];
      if (time !== undefined) args.push(`${dash}sec`, String(time));
      if (name === "cbc" && gap !== undefined) args.push("ratioGap", String(gap));
      if (name === "cbc" && threads !== undefined) args.push("threads", String(threads));
      args.push(`${dash}printingOptions`, "all");
      if (name === "clp" && method === "ipm") args.push("-barrier");
      else if (name === "clp" && method === "simplex") args.push("-dualSimplex");
      else args.push(`${dash}solve`);
      args.push(`${dash}solution`, files.solution);
      return {
        args,
        extraFiles: [],
        read: (text, log) =>
          text === undefined ? noFile(log) : readCoinSolution(text, fileRows, mip, log),
      };
    }
    case "glpk": {
      // --nopresol: with the presolver glpsol leaves the status of an infeasible LP undefined.
      const args = ["--lp", files.lp, "--nopresol"];
      if (time !== undefined) args.push("--tmlim", String(Math.max(1, Math.ceil(time))));
      if (gap !== undefined && mip) args.push("--mipgap", String(gap));
      args.push("--write", files.solution);
      return {
        args,
        extraFiles: [],
        read: (text, log) => text === undefined ? noFile(log) : readGlpkSolution(text, log),
      };
    }
    case "highs_native": {
      const settings = ["write_solution_style = 0"];
      if (time !== undefined) settings.push(`time_limit = ${time}`);
      if (gap !== undefined) settings.push(`mip_rel_gap = ${gap}`);
      if (threads !== undefined) settings.push(`threads = ${threads}`);
      if (method !== undefined) settings.push(`solver = ${method}`);
      return {
        args: [
          "--model_file",
          files.lp,
          "--options_file",
          files.options,
          "--solution_file",
          files.solution,
        ],
        extraFiles: [[files.options, settings.join("\n") + "\n"]],
        read: (text, log) => text === undefined ? noFile(log) : readHighsSolution(text, mip),
      };
    }
    case "gurobi": {
      // The JSON result file carries the status and, with JSONSolDetail=1, the duals.
      const args = [`ResultFile=${files.solution}.json`, "JSONSolDetail=1"];
      if (time !== undefined) args.push(`TimeLimit=${time}`);
      if (gap !== undefined) args.push(`MIPGap=${gap}`);
      if (threads !== undefined) args.push(`Threads=${threads}`);
      if (method === "ipm") args.push("Method=2");
      else if (method === "simplex") args.push("Method=1");
      args.push(files.lp);
      return {
        args,
        extraFiles: [],
        read: (text, log) => {
          if (text !== undefined) return readGurobiJson(text, mip);
          const [termination, status] = gurobiLogTermination(log);
          return termination === "error" ? noFile(log) : { termination, status };
        },
      };
    }
    case "cplex": {
      const commands = [`read ${files.lp}`];
      if (time !== undefined) commands.push(`set timelimit ${time}`);
      if (gap !== undefined) commands.push(`set mip tolerances mipgap ${gap}`);
      if (threads !== undefined) commands.push(`set threads ${threads}`);
      if (method === "ipm") commands.push("set lpmethod 4");
      else if (method === "simplex") commands.push("set lpmethod 2");
      commands.push("optimize", `write ${files.solution}.sol`, "quit");
      return {
        args: ["-c", ...commands],
        extraFiles: [],
        read: (text, log) => {
          if (text !== undefined) return readCplexSolution(text, mip);
          const [termination, status] = cplexLogTermination(log);
          return termination === "error" ? noFile(log) : { termination, status };
        },
      };
    }
    case "scip": {
      // SCIP solves on one thread (its concurrent mode aside): threads is not passed.
      const commands = [`read ${files.lp}`];
      if (time !== undefined) commands.push(`set limits time ${time}`);
      if (gap !== undefined) commands.push(`set limits gap ${gap}`);
      commands.push("optimize", `write solution ${files.solution}`, "quit");
      return {
        args: commands.flatMap((c) => ["-c", c]),
        extraFiles: [],
        read: (text, log) => text === undefined ? noFile(log) : readScipSolution(text, mip),
      };
    }
  }
}

/** The solution file's path as each solver writes it (Gurobi and CPLEX by extension). */
export function solutionPath(name: CommandLineSolver, files: SolveFiles): string {
  if (name === "gurobi") return `${files.solution}.json`;
  if (name === "cplex") return `${files.solution}.sol`;
  return files.solution;
}
