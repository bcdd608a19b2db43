/**
 * The LP build rate once the process is warm (issue 24: hold the national full year's rate for any
 * shape): the national full year and the 30-location, 4,000-hour model (the runner's
 * copies, 6 × 167 days) prepared and built three rounds each in one process, as the service's
 * Worker and `model-run` do it after their first model. lp_build_shapes.ts measures cold processes.
 *
 *   deno run -A benchmarks/lp_build_warm.ts
 */
import { importCalliopeModel } from "../lib/model/calliope/calliope_import.ts";
import { prepareModelBody } from "../lib/model/prepare_model_body.ts";
import { buildLp } from "../lib/lp/build_lp.ts";
import { nationalScaleCopies } from "../tests/runner/_national_copies.ts";
const NATIONAL = new URL("../data/models/calliope_national_scale", import.meta.url).pathname;
const bodies: [string, unknown][] = [
  [
    "national",
    await importCalliopeModel(NATIONAL, {
      overrides: { "model.subset_time": null, "run.solver": "highs" },
    }),
  ],
  ["copies6x167", await nationalScaleCopies({ groups: 6, days: 167 })],
];
for (let round = 0; round < 3; round++) {
  for (const [name, body] of bodies) {
    const t0 = performance.now();
    const p = prepareModelBody(structuredClone(body));
    if (!p.ok) throw new Error("bad");
    const t1 = performance.now();
    const { lp } = buildLp(p.model);
    const t2 = performance.now();
    const nnz = lp.matrix.values.length;
    console.log(
      `${round} ${name} nnz=${nnz} prepare=${(t1 - t0).toFixed(0)}ms build=${
        (t2 - t1).toFixed(0)
      }ms rate=${(nnz / (t2 - t0) / 1000).toFixed(2)}M/s buildonly=${
        (nnz / (t2 - t1) / 1000).toFixed(2)
      }M/s`,
    );
  }
}
