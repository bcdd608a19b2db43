/**
 * The solver runner measured (issue 9 section 7): Calliope's national-scale example over a full
 * year at 1 h and at 3 h resolution.
 *
 *   deno run -A benchmarks/runner_solve.ts [--cases 1h,3h] [--method simplex|ipm|pdlp|choose]
 *     [--skip-native] [--skip-cancel] [--skip-jobs]
 *
 * The WebAssembly heap never shrinks, so its figure is the high-water mark of the process: run one
 * case per process (`--cases 3h`) for that case's own peak.
 *
 * For each case: LP build time (best of 3) against the HiGHS solve time; the same LP written as
 * a CPLEX LP file and solved by Debian's `clp` and `cbc` (apt-get install coinor-clp coinor-cbc)
 * as a ratio in the same run; peak memory (HiGHS's WebAssembly heap, the process's RSS). Then
 * the cancel latency of a solve in a Worker, aborted at several moments of its longest phase
 * (simplex iterations), and ten jobs submitted at once to the service with the real runner.
 * Prints Markdown for BENCHMARKS.md.
 */
import { buildLp } from "../lib/lp/build_lp.ts";
import { writeLp } from "../lib/lp/write_lp.ts";
import { importCalliopeModel } from "../lib/model/calliope/calliope_import.ts";
import { prepareModelBody } from "../lib/model/prepare_model_body.ts";
import type { ResolvedModel } from "../lib/model/preprocess/resolved_model.ts";
import { createHighsModelRunner } from "../lib/runner/highs_model_runner.ts";
import { solveInProcess } from "../lib/solver/solve_in_process.ts";
import { solveInWorker } from "../lib/solver/solve_in_worker.ts";
import { createRunnerApp } from "../server/runner/app.ts";
import { readRunnerSettings } from "../server/runner/config.ts";

const NATIONAL = new URL("../data/models/calliope_national_scale", import.meta.url).pathname;
const args = Deno.args;
const casesArg = args[args.indexOf("--cases") + 1];
const CASES = (args.includes("--cases") && casesArg ? casesArg : "1h,3h").split(",");
const SKIP_NATIVE = args.includes("--skip-native");
const SKIP_CANCEL = args.includes("--skip-cancel");
const SKIP_JOBS = args.includes("--skip-jobs");
const methodArg = args.includes("--method") ? args[args.indexOf("--method") + 1] : undefined;
const METHOD = (methodArg ?? "choose") as "simplex" | "ipm" | "pdlp" | "choose";

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function fullYear(hours: number): Promise<ResolvedModel> {
  const overrides: Record<string, unknown> = {
    "model.subset_time": ["2005-01-01", "2005-12-31"],
  };
  if (hours !== 1) {
    overrides["model.time"] = {
      function: "resample",
      function_options: { resolution: `${hours}H` },
    };
  }
  const config = await importCalliopeModel(NATIONAL, { overrides });
  const prepared = prepareModelBody(config);
  if (!prepared.ok) throw new Error(JSON.stringify(prepared.problems));
  return prepared.model;
}

/** Runs a native solver on an LP file; wall time and the objective it printed. */
async function native(cmd: string[], pattern: RegExp) {
  const started = performance.now();
  const out = await new Deno.Command(cmd[0]!, {
    args: cmd.slice(1),
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  const ms = performance.now() - started;
  const text = new TextDecoder().decode(out.stdout);
  const match = text.match(pattern);
  return { ms, objective: match ? Number(match[1]) : NaN };
}

const rows: string[] = [];
let cancelModel: ResolvedModel | undefined;
for (const name of CASES) {
  const hours = Number(name.replace("h", ""));
  const model = await fullYear(hours);
  if (hours === 1) cancelModel = model;
  let build = Infinity;
  let built = buildLp(model);
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    built = buildLp(model);
    build = Math.min(build, performance.now() - started);
  }
  const { lp } = built;
  const rssBefore = Deno.memoryUsage().rss;
  const outcome = await solveInProcess(lp, { method: METHOD }, {});
  const rssAfter = Deno.memoryUsage().rss;
  let clp = { ms: NaN, objective: NaN };
  let cbc = { ms: NaN, objective: NaN };
  if (!SKIP_NATIVE) {
    const file = await Deno.makeTempFile({ suffix: ".lp" });
    await Deno.writeTextFile(file, writeLp(lp));
    clp = await native(["clp", file, "-dualsimplex"], /Optimal objective\s+([-\d.e+]+)/);
    cbc = await native(["cbc", file, "solve"], /Optimal objective\s+([-\d.e+]+)/);
    await Deno.remove(file);
  }
  rows.push(
    `| ${name} | ${model.timestamps.length} | ${lp.numCols} | ${lp.numRows} | ` +
      `${lp.matrix.values.length} | ${build.toFixed(0)} ms | ${s(outcome.solveMs)} | ` +
      `${(100 * build / outcome.solveMs).toFixed(1)} % | ${outcome.iterations} | ` +
      `${s(clp.ms)} (${(outcome.solveMs / clp.ms).toFixed(2)}x) | ` +
      `${s(cbc.ms)} (${(outcome.solveMs / cbc.ms).toFixed(2)}x) | ` +
      `${mb(outcome.peakHeapBytes)} | ${mb(rssAfter)} (+${mb(rssAfter - rssBefore)}) | ` +
      `${outcome.objective?.toFixed(2)} / ${clp.objective} / ${cbc.objective} |`,
  );
  console.error(`done ${name}: ${rows.at(-1)}`);
}

console.log(
  "| case | steps | variables | constraints | nonzeros | LP build | HiGHS wasm solve | build/solve |" +
    " iterations | clp (HiGHS/clp) | cbc (HiGHS/cbc) | wasm heap | process RSS | objective HiGHS / clp / cbc |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
for (const row of rows) console.log(row);

if (!SKIP_CANCEL && cancelModel) {
  // Cancel: a Worker solve of the full year, aborted at moments of its simplex phase.
  const { lp } = buildLp(cancelModel);
  console.log("\n| abort after the first iteration line | stopped after abort | termination |");
  console.log("|---|---|---|");
  for (const delay of [200, 1000, 3000, 6000]) {
    const controller = new AbortController();
    let abortedAt = 0;
    let iterating = false;
    const promise = solveInWorker(lp, { method: "simplex" }, {
      signal: controller.signal,
      onLog(line) {
        if (!iterating && /^\s+\d+\s+[-\d.e+]+\s/.test(line)) {
          iterating = true;
          setTimeout(() => {
            abortedAt = performance.now();
            controller.abort();
          }, delay);
        }
      },
    });
    const outcome = await promise;
    const latency = abortedAt === 0 ? NaN : performance.now() - abortedAt;
    console.log(`| ${delay} ms | ${latency.toFixed(0)} ms | ${outcome.termination} |`);
  }
}

// Ten jobs at once through the service (in-process requests), real runner, default 1 worker.
if (!SKIP_JOBS) {
  const config = await importCalliopeModel(NATIONAL);
  const runner = await createHighsModelRunner();
  for (const workers of [1, 2]) {
    const { app, close } = createRunnerApp({
      runner,
      config: { ...readRunnerSettings({}), workers },
    });
    const started = performance.now();
    const ids: string[] = [];
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        const res = await app.request("/run", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(config),
        });
        ids.push((await res.json()).job_id);
      }),
    );
    const statuses = new Map<string, string>();
    for (;;) {
      for (const id of ids) {
        statuses.set(id, (await (await app.request(`/run/${id}`)).json()).status);
      }
      if ([...statuses.values()].every((v) => v !== "pending" && v !== "running")) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const counts = [...statuses.values()].reduce<Record<string, number>>((acc, v) => {
      acc[v] = (acc[v] ?? 0) + 1;
      return acc;
    }, {});
    console.log(
      `\nTen 5-day jobs at once, RUNNER_WORKERS=${workers}: ${JSON.stringify(counts)} in ` +
        `${s(performance.now() - started)}`,
    );
    await close();
  }
}
