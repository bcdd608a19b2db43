import assert from "node:assert/strict";
import { buildTimeline, type SeriesUser } from "../../../lib/model/preprocess/timeline.ts";
import { modelConfigSchema } from "../../../lib/model/model_config.ts";
import type { ModelProblem } from "../../../lib/model/model_problem.ts";
import { mergeSettings } from "../../../lib/model/preprocess/loc_tech_settings.ts";
import { hourly, supplyDemandModel } from "../../fixtures/model/small_models.ts";

function setup(parameters: Record<string, unknown>, extraResource?: unknown) {
  const input = supplyDemandModel(24);
  input.timeSeries![0]!.columns.eff = Array.from({ length: 24 }, (_, i) => i);
  input.parameters = parameters;
  const config = modelConfigSchema.parse(input);
  const users: SeriesUser[] = [
    {
      id: "r1::demand_power",
      location: "r1",
      settings: mergeSettings("demand", "technologies[1]", [{
        constraints: { resource: "file=demand.csv" },
        path: "technologies[1]",
      }]),
    },
    {
      id: "r1::ccgt",
      location: "r1",
      settings: mergeSettings("supply", "technologies[0]", [{
        constraints: {
          energy_eff: "ts:demand:eff",
          ...(extraResource === undefined ? {} : { resource: extraResource as number }),
        },
        path: "technologies[0]",
      }]),
    },
  ];
  const problems: ModelProblem[] = [];
  const timeline = buildTimeline(config, users, problems);
  return { timeline, problems };
}

Deno.test("buildTimeline() without subsetting or resampling keeps the series", () => {
  const { timeline, problems } = setup({});
  assert.deepEqual(problems, []);
  assert.equal(timeline!.timestamps.length, 24);
  assert.deepEqual(
    timeline!.value("file=demand.csv", "resource", "r1", ""),
    hourly(24).map((_, i) => -(i + 1)),
  );
  assert.equal(timeline!.value("inf", "other", "r1", ""), Infinity);
  assert.equal(timeline!.value(5, "resource", "r1", ""), 5);
});

Deno.test("buildTimeline() cuts subset_time before computing Δτ", () => {
  const { timeline } = setup({ subset_time: ["2005-01-01 03:00", "2005-01-01 05:00"] });
  assert.deepEqual(timeline!.timestamps, [
    "2005-01-01T03:00:00",
    "2005-01-01T04:00:00",
    "2005-01-01T05:00:00",
  ]);
  assert.deepEqual(timeline!.resolution, [1, 1, 1]);
  assert.deepEqual(timeline!.value("ts:demand:eff", "other", "r1", ""), [3, 4, 5]);
});

Deno.test("buildTimeline() resamples: resource summed, other values averaged", () => {
  const { timeline, problems } = setup({ time_resolution_h: 6 }, 2);
  assert.deepEqual(problems, []);
  assert.deepEqual(timeline!.timestamps, [
    "2005-01-01T00:00:00",
    "2005-01-01T06:00:00",
    "2005-01-01T12:00:00",
    "2005-01-01T18:00:00",
  ]);
  assert.deepEqual(timeline!.resolution, [6, 6, 6, 6]);
  // demand -1..-24 summed per 6 h
  assert.deepEqual(timeline!.value("file=demand.csv", "resource", "r1", ""), [-21, -57, -93, -129]);
  // efficiency 0..23 averaged
  assert.deepEqual(timeline!.value("ts:demand:eff", "other", "r1", ""), [2.5, 8.5, 14.5, 20.5]);
  // a constant resource shares the summed variable once any resource is a series
  assert.equal(timeline!.value(2, "resource", "r1", ""), 12);
  assert.equal(timeline!.value(0.5, "other", "r1", ""), 0.5);
});

Deno.test("buildTimeline() resamples a partial last bin with its own length", () => {
  const { timeline } = setup({ time_resolution_h: 5 }, 1);
  assert.deepEqual(timeline!.resolution, [5, 5, 5, 5, 4]);
  assert.deepEqual(timeline!.value(1, "resource", "r1", ""), [5, 5, 5, 5, 4]);
});

Deno.test("buildTimeline() reports a bad subset at its path", () => {
  const { timeline, problems } = setup({ subset_time: "2006-01-01" });
  assert.equal(timeline, undefined);
  assert.equal(problems[0]!.path, "parameters.subset_time");
});

Deno.test("buildTimeline() reports malformed series", () => {
  const input = supplyDemandModel(3);
  input.timeSeries![0]!.timestamps = ["2005-01-01 00:00", "2005-01-01 02:00", "2005-01-01 01:00"];
  input.timeSeries!.push({ id: "short", timestamps: hourly(2), columns: { a: [1] } });
  input.timeSeries!.push({ id: "bad", timestamps: ["noon"], columns: {} });
  const problems: ModelProblem[] = [];
  buildTimeline(modelConfigSchema.parse(input), [], problems);
  const paths = problems.map((p) => p.path);
  assert.ok(paths.includes("timeSeries[0].timestamps[2]"), JSON.stringify(problems));
  assert.ok(paths.includes("timeSeries[1].columns.a"));
  assert.ok(paths.includes("timeSeries[2].timestamps[0]"));
});
