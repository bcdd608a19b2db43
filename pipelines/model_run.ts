/**
 * Solves a model without a server and writes each result table through DuckDB.
 *
 * Usage: `deno task model-run model.json --out results/ [--format parquet|csv]
 * [--write-lp model.lp] [--method simplex|ipm|pdlp] [--time-limit SECONDS]`
 *
 * The model is either form the runner accepts (ModelConfig or the frontend's JSON); it goes
 * through the runner's own seam on this thread (`createHighsModelRunner`: `prepare`, `run`), as
 * in the notebooks, so its log is the service's. The solver log goes to stderr; `results/` gets one file per table (`energy_cap.parquet`,
 * `carrier_prod.parquet`, ...), `summary.json` (termination, objective, stats, ...) and
 * `result.json` (the runner's full result). Exit 0 when the solve was optimal, 2 when it ended
 * otherwise (infeasible, time limit, ...), 1 on a bad model or arguments.
 */
import { join } from "node:path";
import type { LinearProgram } from "../lib/lp/linear_program.ts";
import { writeLp } from "../lib/lp/write_lp.ts";
import { type ResultTable, resultTables } from "../lib/results/result_tables.ts";
import { createHighsModelRunner } from "../lib/runner/highs_model_runner.ts";
import type { RunResult } from "../lib/runner/model_runner.ts";
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
}

const USAGE = "usage: deno task model-run model.json --out DIR [--format parquet|csv] " +
  "[--write-lp FILE] [--method simplex|ipm|pdlp|choose] [--time-limit SECONDS]";

/** Reads the command line; throws RangeError with the usage on a bad one. */
export function parseModelRunArgs(args: readonly string[]): ModelRunArgs {
  let model: string | undefined;
  let out: string | undefined;
  let format: "parquet" | "csv" = "parquet";
  let writeLpPath: string | undefined;
  let method: ModelRunArgs["method"];
  let timeLimitS: number | undefined;
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

/** Runs the command; returns the exit code. */
export async function main(args: readonly string[]): Promise<number> {
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
  // The runner's own seam, on this thread: `prepare` names every problem at once, `run` builds,
  // solves and reads back with the same log lines as the service.
  const runner = await createHighsModelRunner({ solveIn: "process" });
  const prepared = runner.prepare(body);
  if (!prepared.ok) {
    log(`${parsed.model}: ${prepared.problems.length} problem(s):`);
    for (const p of prepared.problems) log(`  ${p.path || "(model)"}: ${p.message}`);
    return 1;
  }
  const writeLpPath = parsed.writeLp;
  const result: RunResult = await runner.run(
    prepared.model,
    { log, progress: () => {}, signal: new AbortController().signal },
    {
      solver: {
        ...(parsed.method === undefined ? {} : { method: parsed.method }),
        ...(parsed.timeLimitS === undefined ? {} : { timeLimitS: parsed.timeLimitS }),
      },
      ...(writeLpPath === undefined ? {} : {
        onLp: async (lp: LinearProgram) => {
          await Deno.writeTextFile(writeLpPath, writeLp(lp));
          log(`[runner] wrote ${writeLpPath}`);
        },
      }),
    },
  );
  const { tables, summary } = resultTables(result);
  const written = await writeResultTables(tables, parsed.out, parsed.format);
  await Deno.writeTextFile(join(parsed.out, "summary.json"), JSON.stringify(summary, null, 2));
  await Deno.writeTextFile(join(parsed.out, "result.json"), JSON.stringify(result));
  log(`[runner] ${result.termination}; objective ${result.objective}`);
  log(`[runner] wrote ${written.length} tables, summary.json and result.json to ${parsed.out}`);
  return result.success ? 0 : 2;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
