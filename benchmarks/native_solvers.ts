/**
 * Command-line solvers on a big LP (issue 24 section 2): Calliope's national-scale example copied
 * `groups` times over `days` days (tests/runner/_national_copies.ts; 6 × 167 is the issue's
 * 30-location, 4,000-hour model), built once, written as an LP file (timed: the write every
 * native solve pays) and solved by each solver named on the command line.
 *
 *   deno run -A benchmarks/native_solvers.ts [--groups 6] [--days 167] [--shift-days D]
 *     [--method ipm|simplex|pdlp] [--time-limit S] [--threads N] [--log] [--lp-only] [SOLVER ...]
 *
 * SOLVER: cbc, clp, glpk, highs_native, gurobi, cplex, scip, or `highs` (the built-in
 * WebAssembly HiGHS, in a Worker). Prints Markdown for BENCHMARKS.md; `--log` copies each
 * command-line solver's log to stderr as it writes it. `--shift-days D` gives each copy the
 * year's series D days after the previous copy's (copies that differ; see nationalScaleCopies).
 */
import { buildLp } from "../lib/lp/build_lp.ts";
import { writeLpFile } from "../lib/lp/write_lp.ts";
import { prepareModelBody } from "../lib/model/prepare_model_body.ts";
import { solveNative } from "../lib/solver/native/solve_native.ts";
import { findNativeSolvers } from "../lib/solver/native/find_native_solvers.ts";
import { solveInWorker } from "../lib/solver/solve_in_worker.ts";
import type { SolveOptions, SolveOutcome } from "../lib/solver/solve_types.ts";
import { solverNameOf } from "../lib/solver/solver_names.ts";
import { nationalScaleCopies } from "../tests/runner/_national_copies.ts";

const args = [...Deno.args];
function option(name: string): string | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const [, value] = args.splice(at, 2);
  return value;
}
const groups = Number(option("--groups") ?? 6);
const days = Number(option("--days") ?? 167);
const shiftDays = Number(option("--shift-days") ?? 0);
const method = option("--method") as SolveOptions["method"] | undefined;
const timeLimit = option("--time-limit");
const threads = option("--threads");
const showLog = args.includes("--log");
const lpOnly = args.includes("--lp-only");
const solvers = args.filter((a) => !a.startsWith("--"));

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const rss = () => `${(Deno.memoryUsage().rss / 2 ** 30).toFixed(2)} GiB`;

let t = performance.now();
const body = await nationalScaleCopies({ groups, days, shiftDays });
const prepared = prepareModelBody(body);
if (!prepared.ok) throw new Error(JSON.stringify(prepared.problems.slice(0, 3)));
const { lp } = buildLp(prepared.model);
const buildMs = performance.now() - t;
const nonzeros = lp.matrix.indices.length;
console.log(
  `## ${groups * 5} locations × ${days * 24} hours` +
    `${shiftDays > 0 ? `, copies ${shiftDays} days apart` : ""}: ` +
    `${lp.numCols} columns, ${lp.numRows} rows, ` +
    `${nonzeros} nonzeros; prepared and built in ${s(buildMs)} (RSS ${rss()})\n`,
);

const dir = await Deno.makeTempDir({ prefix: "native-bench-" });
try {
  // Indexed names are what solveNative writes; readable ones what `model-run --write-lp` does.
  for (const indexedNames of [true, false]) {
    t = performance.now();
    await writeLpFile(lp, `${dir}/model.lp`, { objectiveConstant: false, indexedNames });
    const writeMs = performance.now() - t;
    const bytes = (await Deno.stat(`${dir}/model.lp`)).size;
    console.log(
      `writeLpFile (${indexedNames ? "indexed" : "readable"} names): ${s(writeMs)} for ` +
        `${(bytes / 2 ** 20).toFixed(0)} MiB (${(nonzeros / writeMs / 1000).toFixed(2)} M ` +
        `nonzeros/s; RSS ${rss()})\n`,
    );
  }
} finally {
  await Deno.remove(dir, { recursive: true });
}
if (lpOnly) Deno.exit(0);

const found = await findNativeSolvers();
const options: SolveOptions = {
  ...(method === undefined ? {} : { method }),
  ...(timeLimit === undefined ? {} : { timeLimitS: Number(timeLimit) }),
  ...(threads === undefined ? {} : { threads: Number(threads) }),
};
console.log("| solver | termination | objective | wall time (write + solve) | solver time |");
console.log("| --- | --- | --- | --- | --- |");
for (const raw of solvers) {
  const name = solverNameOf(raw);
  let outcome: SolveOutcome;
  t = performance.now();
  if (name === "highs") {
    outcome = await solveInWorker(lp, options);
  } else {
    const solver = found.find((f) => f.name === name);
    if (name === undefined || solver === undefined) {
      console.log(`| ${raw} | not installed | | | |`);
      continue;
    }
    outcome = await solveNative(solver, lp, options, {
      onLog: (line) => showLog && console.error(line),
    });
  }
  const wallMs = performance.now() - t;
  console.log(
    `| ${outcome.solver} | ${outcome.termination}${
      outcome.message ? ` (${outcome.message.slice(0, 80)})` : ""
    } | ${outcome.objective ?? "–"} | ${s(wallMs)} | ${s(outcome.solveMs)} |`,
  );
}
