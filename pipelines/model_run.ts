/**
 * Solves a model without a server and writes each result table through DuckDB.
 *
 * Usage: `deno task model-run model.json --out results/ [--format parquet|csv]
 * [--write-lp model.lp] [--method simplex|ipm|pdlp] [--time-limit SECONDS] [--solver NAME]
 * [--scenario a,b+c]`
 *
 * The model is either form the runner accepts (ModelConfig or the frontend's JSON); it goes
 * through the runner's own seam on this thread (`createHighsModelRunner`: `prepare`, `run`), as
 * in the notebooks, so its log is the service's. The solver log goes to stderr; `results/` gets one file per table (`energy_cap.parquet`,
 * `carrier_prod.parquet`, ...), `summary.json` (termination, objective, stats, ...) and
 * `result.json` (the runner's full result). Exit 0 when the solve was optimal, 2 when it ended
 * otherwise (infeasible, time limit, ...), 1 on a bad model or arguments.
 *
 * `--scenario` replaces the model's `parameters.scenario`: commas separate scenarios, `+` joins
 * the override names of one. One scenario writes into `results/` as above; several are a sweep,
 * solved one after another, each into `results/<scenario>/`, with `results/sweep.json` listing
 * each one's termination, objective and directory; every scenario is checked before any solve.
 * Exit 0 when every one was optimal, 2 when any was not.
 *
 * `--solver` (else the environment's `RUNNER_SOLVER`) runs the model on that solver over the one
 * it names; a solver this machine lacks runs on the built-in HiGHS, with a warning.
 *
 * With RUNNER_QUEUE_URL set, nothing is solved here: each run (each scenario of a sweep) is a job
 * on the runner's queue, solved by the `deno task runner-worker` processes on any machine, all at
 * once as far as there are workers (model_run_queue.ts); the files written are the same, and
 * `sweep.json` names each scenario's worker. Ctrl-C cancels the jobs. `--write-lp` is refused
 * there (the LP is built on the worker).
 */
import { join } from "node:path";
import { readRunConfig, withScenario } from "../lib/backend/run_model.ts";
import { prepareModelBody } from "../lib/model/prepare_model_body.ts";
import { readRunnerSettings } from "../server/runner/config.ts";
import { type QueuedEnd, runOnQueue } from "./model_run_queue.ts";
import type { LinearProgram } from "../lib/lp/linear_program.ts";
import { writeLp } from "../lib/lp/write_lp.ts";
import { type ResultTable, resultTables } from "../lib/results/result_tables.ts";
import { createHighsModelRunner } from "../lib/runner/highs_model_runner.ts";
import type { ModelRunner, RunOptions, RunResult } from "../lib/runner/model_runner.ts";
import type { ResolvedModel } from "../lib/model/preprocess/resolved_model.ts";
import { BUILT_IN_SOLVER, COMMAND_LINE_SOLVERS, solverNameOf } from "../lib/solver/solver_names.ts";
import { openStore, quoteIdent } from "../lib/store/store.ts";
import { type TableColumn, writeTableFile } from "../lib/store/table_file.ts";

/** Parsed command line. */
export interface ModelRunArgs {
  readonly model: string;
  readonly out: string;
  readonly format: "parquet" | "csv";
  readonly writeLp?: string;
  readonly method?: "simplex" | "ipm" | "pdlp" | "choose";
  readonly timeLimitS?: number;
  /** `--solver`: the runner's name of the solver to run (over the model's `solver.name`). */
  readonly solver?: string;
  /** `--scenario`: each scenario's override names, in order. */
  readonly scenarios?: readonly (readonly string[])[];
}

const USAGE = "usage: deno task model-run model.json --out DIR [--format parquet|csv] " +
  "[--write-lp FILE] [--method simplex|ipm|pdlp|choose] [--time-limit SECONDS] " +
  `[--solver ${[BUILT_IN_SOLVER, ...COMMAND_LINE_SOLVERS].join("|")}] [--scenario A[,B+C...]]\n` +
  "  --scenario: commas separate scenarios (one run each, into DIR/<scenario>/, with " +
  "DIR/sweep.json); + joins the override names of one scenario, e.g. cold+expensive,baseline\n" +
  "  with RUNNER_QUEUE_URL set, each scenario is a job for the queue's runner-worker processes";

/** `a+b,c` as scenarios: `[["a", "b"], ["c"]]`; throws RangeError on an empty name. */
export function parseScenarios(value: string): string[][] {
  return value.split(",").map((scenario) => {
    const names = scenario.split("+").map((name) => name.trim());
    if (names.some((name) => name === "")) {
      throw new RangeError(
        `--scenario: an empty scenario or override name in "${value}"\n${USAGE}`,
      );
    }
    return names;
  });
}

/** Reads the command line; throws RangeError with the usage on a bad one. */
export function parseModelRunArgs(args: readonly string[]): ModelRunArgs {
  let model: string | undefined;
  let out: string | undefined;
  let format: "parquet" | "csv" = "parquet";
  let writeLpPath: string | undefined;
  let method: ModelRunArgs["method"];
  let timeLimitS: number | undefined;
  let solver: string | undefined;
  let scenarios: string[][] | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => {
      const v = args[++i];
      if (v === undefined) throw new RangeError(`${arg} needs a value\n${USAGE}`);
      return v;
    };
    if (arg === "--out") out = value();
    else if (arg === "--format") {
      const v = value();
      if (v !== "parquet" && v !== "csv") {
        throw new RangeError(`--format: parquet or csv\n${USAGE}`);
      }
      format = v;
    } else if (arg === "--write-lp") writeLpPath = value();
    else if (arg === "--method") {
      const v = value();
      if (v !== "simplex" && v !== "ipm" && v !== "pdlp" && v !== "choose") {
        throw new RangeError(`--method: simplex, ipm, pdlp or choose\n${USAGE}`);
      }
      method = v;
    } else if (arg === "--time-limit") {
      const v = Number(value());
      if (!(v > 0)) throw new RangeError(`--time-limit: a positive number of seconds\n${USAGE}`);
      timeLimitS = v;
    } else if (arg === "--solver") {
      const v = value();
      solver = solverNameOf(v);
      if (solver === undefined) throw new RangeError(`--solver: unknown solver "${v}"\n${USAGE}`);
    } else if (arg === "--scenario") {
      if (scenarios !== undefined) {
        throw new RangeError(`--scenario once: commas separate scenarios\n${USAGE}`);
      }
      scenarios = parseScenarios(value());
    } else if (arg.startsWith("-")) throw new RangeError(`unknown option ${arg}\n${USAGE}`);
    else if (model === undefined) model = arg;
    else throw new RangeError(`one model file only\n${USAGE}`);
  }
  if (model === undefined || out === undefined) throw new RangeError(USAGE);
  return {
    model,
    out,
    format,
    ...(writeLpPath === undefined ? {} : { writeLp: writeLpPath }),
    ...(method === undefined ? {} : { method }),
    ...(timeLimitS === undefined ? {} : { timeLimitS }),
    ...(solver === undefined ? {} : { solver }),
    ...(scenarios === undefined ? {} : { scenarios }),
  };
}

/** Writes `tables` into `dir` as Parquet or CSV files through an in-memory DuckDB. */
export async function writeResultTables(
  tables: readonly ResultTable[],
  dir: string,
  format: "parquet" | "csv",
): Promise<string[]> {
  await Deno.mkdir(dir, { recursive: true });
  const store = await openStore(":memory:", { readers: 0 });
  const written: string[] = [];
  try {
    for (const table of tables) {
      const columns = table.columns.map((column, c): TableColumn => [
        column,
        table.rows.every((r) => typeof r[c] === "number" || r[c] === null) ? "DOUBLE" : "VARCHAR",
      ]);
      const path = join(dir, `${table.name}.${format}`);
      await writeTableFile(
        store,
        { name: table.name, columns, rows: table.rows },
        path,
        format,
        // Timesteps are ISO text in the result; the file has them as timestamps.
        table.columns.includes("timestep")
          ? `SELECT * REPLACE (CAST(timestep AS TIMESTAMP) AS timestep) FROM ${
            quoteIdent(table.name)
          }`
          : undefined,
      );
      written.push(path);
    }
  } finally {
    await store.close();
  }
  return written;
}

function log(line: string): void {
  console.error(line);
}

/** What `main` solves with; a caller that solves elsewhere (a queue) hands its own. */
export interface ModelRunDeps {
  /** Default: the HiGHS runner on this thread. */
  readonly runner?: Pick<ModelRunner, "prepare" | "run">;
  /** The settings read (RUNNER_QUEUE_URL, RUNNER_SOLVER, ...); default: the process's. */
  readonly env?: Readonly<Record<string, string>>;
}

/** One solved model as the command reports it. */
export interface ScenarioOutcome {
  readonly success: boolean;
  readonly termination: string;
  readonly objective: number | null;
}

/**
 * Solves one prepared model and writes its tables, `summary.json` and `result.json` into `dir`
 * (the LP to `lpPath` when given): the unit a sweep repeats per scenario.
 */
export async function solveInto(
  runner: Pick<ModelRunner, "run">,
  model: ResolvedModel,
  parsed: ModelRunArgs,
  dir: string,
  lpPath?: string,
): Promise<ScenarioOutcome> {
  const options: RunOptions = {
    solver: {
      ...(parsed.solver === undefined ? {} : { name: parsed.solver }),
      ...(parsed.method === undefined ? {} : { method: parsed.method }),
      ...(parsed.timeLimitS === undefined ? {} : { timeLimitS: parsed.timeLimitS }),
    },
    ...(lpPath === undefined ? {} : {
      onLp: async (lp: LinearProgram) => {
        await Deno.writeTextFile(lpPath, writeLp(lp));
        log(`[runner] wrote ${lpPath}`);
      },
    }),
  };
  const result: RunResult = await runner.run(
    model,
    { log, progress: () => {}, signal: new AbortController().signal },
    options,
  );
  return await writeOutputs(result, dir, parsed.format);
}

/** Writes a result's tables, `summary.json` and `result.json` into `dir`. */
async function writeOutputs(
  result: RunResult,
  dir: string,
  format: ModelRunArgs["format"],
): Promise<ScenarioOutcome> {
  const { tables, summary } = resultTables(result);
  const written = await writeResultTables(tables, dir, format);
  await Deno.writeTextFile(join(dir, "summary.json"), JSON.stringify(summary, null, 2));
  await Deno.writeTextFile(join(dir, "result.json"), JSON.stringify(result));
  log(`[runner] ${result.termination}; objective ${result.objective}`);
  log(`[runner] wrote ${written.length} tables, summary.json and result.json to ${dir}`);
  return {
    success: result.success,
    termination: String(result.termination),
    objective: typeof result.objective === "number" ? result.objective : null,
  };
}

/** A scenario's directory name: its names joined by `+`, anything else a path may not hold `_`. */
export function scenarioDirectory(names: readonly string[]): string {
  const name = names.join("+").replace(/[^A-Za-z0-9._+-]/g, "_");
  return name.startsWith(".") ? `_${name}` : name;
}

/** `model.lp` as `model.<scenario>.lp`: one LP file per scenario of a sweep. */
function scenarioLpPath(path: string, directory: string): string {
  const dot = path.lastIndexOf(".");
  return dot > path.lastIndexOf("/")
    ? `${path.slice(0, dot)}.${directory}${path.slice(dot)}`
    : `${path}.${directory}`;
}

/** Runs the command; returns the exit code. */
export async function main(args: readonly string[], deps: ModelRunDeps = {}): Promise<number> {
  let parsed: ModelRunArgs;
  try {
    parsed = parseModelRunArgs(args);
  } catch (error) {
    log((error as Error).message);
    return 1;
  }
  let body: unknown;
  try {
    body = JSON.parse(await Deno.readTextFile(parsed.model));
  } catch (error) {
    log(`cannot read ${parsed.model}: ${(error as Error).message}`);
    return 1;
  }
  const env = deps.env ?? Deno.env.toObject();
  const queueUrl = env["RUNNER_QUEUE_URL"]?.trim();
  if (deps.runner === undefined && queueUrl) return await runQueued(body, parsed, env);
  // The runner's own seam, on this thread: `prepare` names every problem at once, `run` builds,
  // solves and reads back with the same log lines as the service.
  // RUNNER_SOLVER, as for the service, unless --solver names one for this run.
  const envSolver = env["RUNNER_SOLVER"]?.trim() || undefined;
  const runner = deps.runner ?? await createHighsModelRunner({
    solveIn: "process",
    ...(parsed.solver === undefined && envSolver !== undefined ? { solver: envSolver } : {}),
  });
  if (parsed.scenarios === undefined) {
    const prepared = runner.prepare(body);
    if (!prepared.ok) {
      log(`${parsed.model}: ${prepared.problems.length} problem(s):`);
      for (const p of prepared.problems) log(`  ${p.path || "(model)"}: ${p.message}`);
      return 1;
    }
    const outcome = await solveInto(runner, prepared.model, parsed, parsed.out, parsed.writeLp);
    return outcome.success ? 0 : 2;
  }
  return await runScenarios(runner, body, parsed, parsed.scenarios);
}

/** `--scenario`: every scenario checked, then each solved in turn into its own directory. */
async function runScenarios(
  runner: Pick<ModelRunner, "prepare" | "run">,
  body: unknown,
  parsed: ModelRunArgs,
  scenarios: readonly (readonly string[])[],
): Promise<number> {
  const read = readRunConfig(body);
  if (!read.ok) {
    log(`${parsed.model}: ${read.problems.length} problem(s):`);
    for (const p of read.problems) log(`  ${p.path || "(model)"}: ${p.message}`);
    return 1;
  }
  for (const note of read.notes) log(`[runner] ${note}`);
  const sweep = scenarios.length > 1;
  const plan = planScenarios(read.model, scenarios);
  // Every scenario is checked before the first solve: a sweep runs whole or not at all.
  let refused = 0;
  for (const { label, model } of plan) {
    const prepared = runner.prepare(model);
    if (prepared.ok) continue;
    refused++;
    log(`${parsed.model}, scenario ${label}: ${prepared.problems.length} problem(s):`);
    for (const p of prepared.problems) log(`  ${p.path || "(model)"}: ${p.message}`);
  }
  if (refused > 0) return 1;
  const rows: Record<string, unknown>[] = [];
  for (const [i, { names, label, directory, model }] of plan.entries()) {
    log(`[sweep] scenario ${label} (${i + 1} of ${plan.length})`);
    // Prepared again rather than kept: a sweep of large models holds one at a time.
    const prepared = runner.prepare(model);
    if (!prepared.ok) throw new Error(`scenario ${label} was accepted, then refused`);
    const dir = sweep ? join(parsed.out, directory) : parsed.out;
    const lp = parsed.writeLp === undefined || !sweep
      ? parsed.writeLp
      : scenarioLpPath(parsed.writeLp, directory);
    const outcome = await solveInto(runner, prepared.model, parsed, dir, lp);
    rows.push({
      scenario: label,
      overrides: names,
      directory: sweep ? directory : ".",
      ...outcome,
    });
  }
  if (sweep) await writeSweep(parsed, rows);
  return rows.every((row) => row["success"] === true) ? 0 : 2;
}

/** One scenario of a sweep: its override names, its label and directory, its model. */
interface PlannedScenario {
  readonly names: readonly string[];
  readonly label: string;
  readonly directory: string;
  readonly model: Record<string, unknown>;
}

/** Each scenario's model and a directory of its own (`-2`, `-3` on a clash). */
function planScenarios(
  config: Record<string, unknown>,
  scenarios: readonly (readonly string[])[],
): PlannedScenario[] {
  const used = new Set<string>();
  return scenarios.map((names) => {
    let directory = scenarioDirectory(names);
    for (let n = 2; used.has(directory); n++) directory = `${scenarioDirectory(names)}-${n}`;
    used.add(directory);
    return { names, label: names.join("+"), directory, model: withScenario(config, [...names]) };
  });
}

async function writeSweep(parsed: ModelRunArgs, rows: readonly Record<string, unknown>[]) {
  await Deno.writeTextFile(
    join(parsed.out, "sweep.json"),
    JSON.stringify({ model: parsed.model, scenarios: rows }, null, 2),
  );
  log(`[sweep] ${rows.length} scenarios; sweep.json in ${parsed.out}`);
}

/** RUNNER_QUEUE_URL: every run checked here, then solved as jobs of the runner's queue. */
async function runQueued(
  body: unknown,
  parsed: ModelRunArgs,
  env: Readonly<Record<string, string>>,
): Promise<number> {
  if (parsed.writeLp !== undefined) {
    log("--write-lp: not with RUNNER_QUEUE_URL (the LP is built on the worker that solves it)");
    return 1;
  }
  let settings;
  try {
    settings = readRunnerSettings(env);
  } catch (error) {
    log((error as Error).message);
    return 1;
  }
  const queue = settings.queue;
  if (queue === undefined) throw new Error("RUNNER_QUEUE_URL was read as unset");
  // The command line's solver settings travel in the body: the worker solves what it says.
  const solver = {
    ...(parsed.solver === undefined ? {} : { name: parsed.solver }),
    ...(parsed.method === undefined ? {} : { method: parsed.method }),
    ...(parsed.timeLimitS === undefined ? {} : { time_limit_s: parsed.timeLimitS }),
  };
  const read = readRunConfig(
    body,
    Object.keys(solver).length > 0 ? { parameters: { solver } } : {},
  );
  if (!read.ok) {
    log(`${parsed.model}: ${read.problems.length} problem(s):`);
    for (const p of read.problems) log(`  ${p.path || "(model)"}: ${p.message}`);
    return 1;
  }
  for (const note of read.notes) log(`[runner] ${note}`);
  const sweep = (parsed.scenarios?.length ?? 1) > 1;
  const plan: PlannedScenario[] = parsed.scenarios === undefined
    ? [{ names: [], label: parsed.model, directory: ".", model: read.model }]
    : planScenarios(read.model, parsed.scenarios);
  let refused = 0;
  for (const { label, model } of plan) {
    const checked = prepareModelBody(model);
    if (checked.ok) continue;
    refused++;
    log(`${parsed.model}, scenario ${label}: ${checked.problems.length} problem(s):`);
    for (const p of checked.problems) log(`  ${p.path || "(model)"}: ${p.message}`);
  }
  if (refused > 0) return 1;
  const rows: Record<string, unknown>[] = new Array(plan.length);
  const abort = new AbortController();
  const interrupt = () => {
    log("[queue] interrupted: cancelling the jobs");
    abort.abort();
  };
  Deno.addSignalListener("SIGINT", interrupt);
  try {
    await runOnQueue(
      { ...settings, queue },
      plan.map(({ label, model }) => ({ label, body: model })),
      {
        log,
        signal: abort.signal,
        async onEnd(i: number, end: QueuedEnd) {
          const { names, label, directory } = plan[i]!;
          const outcome = end.ok
            ? await writeOutputs(
              end.result,
              sweep ? join(parsed.out, directory) : parsed.out,
              parsed.format,
            )
            : { success: false, termination: "error", objective: null, error: end.error };
          if (!end.ok) log(`[queue] ${label}: ${end.error}`);
          rows[i] = {
            scenario: label,
            overrides: names,
            directory: sweep ? directory : ".",
            worker: end.worker,
            ...outcome,
          };
        },
      },
    );
  } catch (error) {
    log(`[queue] ${(error as Error).message}`);
    return 1;
  } finally {
    Deno.removeSignalListener("SIGINT", interrupt);
  }
  if (sweep) await writeSweep(parsed, rows);
  return rows.every((row) => row["success"] === true) ? 0 : 2;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
