import assert from "node:assert/strict";
import {
  checkRunAndModel,
  convertParameters,
} from "../../../lib/model/calliope/calliope_run_settings.ts";
import { calliopeModelYaml } from "../../../lib/model/calliope/calliope_export.ts";
import { parseCalliopeYaml } from "../../../lib/model/calliope/calliope_yaml.ts";
import { modelConfigSchema } from "../../../lib/model/model_config.ts";
import type { ModelProblem } from "../../../lib/model/model_problem.ts";

/** Checks and converts the `model:`/`run:` YAML text; the parameters and every problem. */
function read(yaml: string) {
  const config = parseCalliopeYaml(yaml);
  const problems: ModelProblem[] = [];
  const report = (path: string, message: string) => problems.push({ path, message });
  checkRunAndModel(config, report);
  const params = convertParameters(config, report);
  return { params, problems, paths: problems.map((p) => p.path) };
}

Deno.test("convertParameters() reads the objective, its sense and zero_threshold", async (t) => {
  await t.step("check_feasibility", () => {
    const { params, problems } = read("run: {objective: check_feasibility}");
    assert.deepEqual(problems, []);
    assert.equal(params["objective"], "check_feasibility");
  });
  await t.step("minmax_cost_optimization", () => {
    const { params, problems } = read("run: {objective: minmax_cost_optimization}");
    assert.deepEqual(problems, []);
    assert.equal(params["objective"], "minmax_cost_optimization");
  });
  for (
    const [sense, expected] of [
      ["maximize", "maximize"],
      ["maximise", "maximize"],
      ["minimize", "minimize"],
      ["minimise", "minimize"],
    ]
  ) {
    await t.step(`sense: ${sense}`, () => {
      const { params, problems } = read(`run: {objective_options: {sense: ${sense}}}`);
      assert.deepEqual(problems, []);
      assert.equal(params["objective_sense"], expected);
    });
  }
  await t.step("zero_threshold (number or numeric string)", () => {
    assert.equal(read("run: {zero_threshold: 1e-6}").params["zero_threshold"], 1e-6);
    assert.equal(read("run: {zero_threshold: '1e-8'}").params["zero_threshold"], 1e-8);
    assert.deepEqual(read("run: {zero_threshold: 1e-6}").problems, []);
  });
  await t.step("unknown objective, sense or a bad zero_threshold: problems at their paths", () => {
    const { paths } = read(
      "run: {objective: spores_objective, objective_options: {sense: sideways}, " +
        "zero_threshold: -1}",
    );
    assert.deepEqual(paths.sort(), [
      "run.objective",
      "run.objective_options.sense",
      "run.zero_threshold",
    ]);
  });
});

Deno.test("convertParameters() merges cost_class over Calliope's default {monetary: 1}", () => {
  assert.deepEqual(
    read("run: {objective_options: {cost_class: {emissions: 0.1}}}").params[
      "objective_cost_class"
    ],
    { monetary: 1, emissions: 0.1 },
  );
  assert.deepEqual(
    read("run: {objective_options: {cost_class: {emissions: 1, monetary: 0}}}").params[
      "objective_cost_class"
    ],
    { monetary: 0, emissions: 1 },
  );
  // A class without a weight weighs 1 (Calliope's checks.py).
  assert.deepEqual(
    read("run: {objective_options: {cost_class: {monetary: null, emissions: null}}}").params[
      "objective_cost_class"
    ],
    { monetary: 1, emissions: 1 },
  );
  // A string is refused, as Calliope refuses it.
  assert.deepEqual(read("run: {objective_options: {cost_class: monetary}}").paths, [
    "run.objective_options.cost_class",
  ]);
});

Deno.test("convertParameters() refuses resample options other than resolution, at their path", () => {
  const ok = read("model: {time: {function: resample, function_options: {resolution: 6H}}}");
  assert.deepEqual(ok.problems, []);
  assert.equal(ok.params["time_resolution_h"], 6);
  const how = read(
    "model: {time: {function: resample, function_options: {resolution: 6H, how: mean}}}",
  );
  assert.deepEqual(how.paths, ["model.time.function_options.how"]);
  assert.match(how.problems[0]!.message, /only resolution/);
  assert.equal(how.params["time_resolution_h"], 6);
});

Deno.test("convertParameters() keeps model.time beyond plain resampling in Calliope's shape", async (t) => {
  await t.step("apply_clustering and random_seed", () => {
    const { params, problems } = read(`
model:
  random_seed: 7
  time:
    function: apply_clustering
    function_options: {clustering_func: file=days.csv:a, how: mean, k: 3, scale_clusters: null}
`);
    assert.deepEqual(problems, []);
    assert.equal(params["random_seed"], 7);
    assert.deepEqual(params["time"], {
      function: "apply_clustering",
      function_options: {
        clustering_func: "file=days.csv:a",
        how: "mean",
        k: 3,
        scale_clusters: null,
      },
    });
  });
  await t.step("an unknown option, a bad function and a bad seed at their paths", () => {
    const { paths, params } = read(`
model:
  random_seed: seven
  time:
    function: apply_clustering
    function_options: {clustering_func: kmeans, how: mean, clusters: 3}
`);
    assert.deepEqual(paths, ["model.random_seed", "model.time.function_options"]);
    assert.equal(params["time"], undefined);
    const bad = read("model: {time: {function: smooth}}");
    assert.equal(bad.paths.length, 1);
    assert.match(bad.paths[0]!, /^model\.time/);
  });
});

Deno.test("calliopeModelYaml() writes the objective settings back; they read back the same", () => {
  const config = modelConfigSchema.parse({
    locations: [{ id: "r1", technologies: ["d"] }],
    technologies: [{ name: "d", type: "demand", carrier: "power" }],
    parameters: {
      objective: "check_feasibility",
      objective_sense: "maximize",
      objective_cost_class: { monetary: 0, utility: 1 },
      zero_threshold: 1e-6,
      bigM: 1e3,
      ensure_feasibility: true,
    },
  });
  const yaml = calliopeModelYaml(config);
  const { params, problems } = read(yaml);
  assert.deepEqual(problems, []);
  for (
    const key of [
      "objective",
      "objective_sense",
      "objective_cost_class",
      "zero_threshold",
      "bigM",
      "ensure_feasibility",
    ] as const
  ) {
    assert.deepEqual(params[key], config.parameters[key], key);
  }
});

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
