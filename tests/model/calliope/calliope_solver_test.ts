import assert from "node:assert/strict";
import {
  checkRunAndModel,
  convertParameters,
} from "../../../lib/model/calliope/calliope_run_settings.ts";
import { calliopeModelYaml } from "../../../lib/model/calliope/calliope_export.ts";
import { parseCalliopeYaml } from "../../../lib/model/calliope/calliope_yaml.ts";
import { modelConfigSchema } from "../../../lib/model/model_config.ts";
import type { ModelProblem } from "../../../lib/model/model_problem.ts";

/** Checks and converts the `run:` YAML text; the parameters and every problem. */
function read(yaml: string) {
  const config = parseCalliopeYaml(yaml);
  const problems: ModelProblem[] = [];
  const report = (path: string, message: string) => problems.push({ path, message });
  checkRunAndModel(config, report);
  return { params: convertParameters(config, report), problems };
}

Deno.test("run.solver and run.solver_options become parameters.solver", async (t) => {
  await t.step("the solver's name is kept as the model gives it", () => {
    const { params, problems } = read("run: {solver: cbc}");
    assert.deepEqual(problems, []);
    assert.deepEqual(params["solver"], { name: "cbc" });
  });
  await t.step("each solver's spelling of the gap, the time limit and threads", () => {
    const cases: [string, Record<string, unknown>][] = [
      ["{solver: cbc, solver_options: {ratio: 0.01, sec: 60, threads: 2}}", {
        name: "cbc",
        mip_rel_gap: 0.01,
        time_limit_s: 60,
        threads: 2,
      }],
      ["{solver: glpk, solver_options: {mipgap: 0.02, tmlim: 30}}", {
        name: "glpk",
        mip_rel_gap: 0.02,
        time_limit_s: 30,
      }],
      ["{solver: gurobi, solver_options: {MIPGap: 0.03, TimeLimit: 10, Threads: 4}}", {
        name: "gurobi",
        mip_rel_gap: 0.03,
        time_limit_s: 10,
        threads: 4,
      }],
      ["{solver: highs, solver_options: {mip_rel_gap: 0, time_limit: 5}}", {
        name: "highs",
        mip_rel_gap: 0,
        time_limit_s: 5,
      }],
    ];
    for (const [run, expected] of cases) {
      const { params, problems } = read(`run: ${run}`);
      assert.deepEqual(problems, [], run);
      assert.deepEqual(params["solver"], expected, run);
    }
  });
  await t.step("options that steer one solver only are left out", () => {
    const { params, problems } = read("run: {solver: gurobi, solver_options: {Method: 2}}");
    assert.deepEqual(problems, []);
    assert.deepEqual(params["solver"], { name: "gurobi" });
  });
  await t.step("bad values are problems at their path", () => {
    const { problems } = read(
      "run: {solver: [cbc], solver_options: {sec: -1, threads: 1.5, mipgap: x}}",
    );
    assert.deepEqual(problems.map((p) => p.path).sort(), [
      "run.solver",
      "run.solver_options.mipgap",
      "run.solver_options.sec",
      "run.solver_options.threads",
    ]);
  });
  await t.step("the exporter writes them back in spellings the importer reads", () => {
    const params = modelConfigSchema.shape.parameters.parse({
      solver: { name: "glpk", mip_rel_gap: 0.01, time_limit_s: 20, threads: 3 },
    });
    const yaml = calliopeModelYaml({
      name: "m",
      locations: [{ name: "a" }],
      links: [],
      technologies: [{ name: "d", parent: "demand", carrier: "power" }],
      timeSeries: [],
      parameters: params,
    } as never);
    const back = read(yaml);
    assert.deepEqual(back.params["solver"], {
      name: "glpk",
      mip_rel_gap: 0.01,
      time_limit_s: 20,
      threads: 3,
    });
  });
});
