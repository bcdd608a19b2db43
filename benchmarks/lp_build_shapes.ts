/**
 * How fast the LP of each shape of model is prepared and built (issue 24 section 2: hold the
 * national full year's rate, about 5 M nonzeros a second with preparation, for any shape).
 * Shapes: Calliope's national-scale example over its full year (5 locations × 8,760 h) and the
 * runner's copies of it (tests/runner/_national_copies.ts: 3 and 6 groups × 167 days; 6 × 167 is
 * the 30-location, 4,000-hour model). Each run is a fresh process, so its peak RSS is its
 * own; the best of `--repeat` runs is kept (the machine is shared).
 *
 *   deno run -A benchmarks/lp_build_shapes.ts [--repeat 3] [SHAPE ...]
 *
 * SHAPE: national, copies3x167, copies6x167 (default: all). Prints a Markdown table.
 */
import { buildLp } from "../lib/lp/build_lp.ts";
import { importCalliopeModel } from "../lib/model/calliope/calliope_import.ts";
import { prepareModelBody } from "../lib/model/prepare_model_body.ts";
import { nationalScaleCopies } from "../tests/runner/_national_copies.ts";

const NATIONAL = new URL("../data/models/calliope_national_scale", import.meta.url).pathname;

const SHAPES: Record<string, () => Promise<unknown>> = {
  national: () =>
    importCalliopeModel(NATIONAL, {
      overrides: { "model.subset_time": null, "run.solver": "highs" },
    }),
  copies3x167: () => nationalScaleCopies({ groups: 3, days: 167 }),
  copies6x167: () => nationalScaleCopies({ groups: 6, days: 167 }),
};

interface Measure {
  shape: string;
  variables: number;
  constraints: number;
  nonzeros: number;
  prepareMs: number;
  buildMs: number;
  peakRssMb: number;
  /** Fresh pages touched (minor faults) while preparing and building. */
  faults: number;
}

/** Peak resident set of this process (VmHWM), in MB. */
function peakRssMb(): number {
  const status = Deno.readTextFileSync("/proc/self/status");
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** Minor page faults of this process so far: each fresh page touched (costly on a VM). */
function minorFaults(): number {
  const stat = Deno.readTextFileSync("/proc/self/stat");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[7]);
}

/** One shape in this process: its body made (not timed), then prepared and built (timed). */
async function measure(shape: string): Promise<Measure> {
  const make = SHAPES[shape];
  if (make === undefined) throw new Error(`unknown shape ${shape}`);
  const body = await make();
  const f0 = minorFaults();
  const t0 = performance.now();
  const prepared = prepareModelBody(body);
  if (!prepared.ok) throw new Error(JSON.stringify(prepared.problems));
  const t1 = performance.now();
  const { lp } = buildLp(prepared.model);
  const t2 = performance.now();
  const faults = minorFaults() - f0;
  return {
    shape,
    variables: lp.numCols,
    constraints: lp.numRows,
    nonzeros: lp.matrix.indices.length,
    prepareMs: t1 - t0,
    buildMs: t2 - t1,
    peakRssMb: peakRssMb(),
    faults,
  };
}

const args = [...Deno.args];
const one = args.indexOf("--one");
if (one >= 0) {
  console.log(JSON.stringify(await measure(args[one + 1] ?? "")));
} else {
  const at = args.indexOf("--repeat");
  const repeat = at >= 0 ? Number(args.splice(at, 2)[1]) : 3;
  const shapes = args.length > 0 ? args : Object.keys(SHAPES);
  console.log(
    "| shape | variables | constraints | nonzeros | prepare s | build s | M nnz/s | peak RSS MB | page faults k |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const shape of shapes) {
    let best: Measure | undefined;
    for (let r = 0; r < repeat; r++) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", new URL(import.meta.url).pathname, "--one", shape],
        stderr: "inherit",
      }).output();
      if (!out.success) throw new Error(`${shape} failed`);
      const m = JSON.parse(new TextDecoder().decode(out.stdout)) as Measure;
      if (best === undefined || m.prepareMs + m.buildMs < best.prepareMs + best.buildMs) best = m;
    }
    const m = best!;
    const total = (m.prepareMs + m.buildMs) / 1000;
    console.log(
      `| ${m.shape} | ${m.variables} | ${m.constraints} | ${m.nonzeros} | ` +
        `${(m.prepareMs / 1000).toFixed(2)} | ${(m.buildMs / 1000).toFixed(2)} | ` +
        `${(m.nonzeros / total / 1e6).toFixed(2)} | ${m.peakRssMb.toFixed(0)} | ${
          (m.faults / 1000).toFixed(0)
        } |`,
    );
  }
}
