import assert from "node:assert/strict";
import { sporesOptions, sporesOptionsSchema } from "../../../lib/model/spores/spores_options.ts";
import { sporesProblems } from "../../../lib/model/spores/spores_problems.ts";
import { nationalSporesModel } from "./_spores_national.ts";

const model = await nationalSporesModel();

Deno.test("sporesOptions() has Calliope 0.6.10's defaults", () => {
  assert.deepEqual(sporesOptions(), {
    spores_number: 3,
    slack: 0.1,
    score_cost_class: "spores_score",
    objective_cost_class: { spores_score: 1, monetary: 0 },
    slack_cost_group: null,
    skip_cost_op: false,
  });
  // The NetCDF file options are accepted and dropped.
  const o = sporesOptions({ save_per_spore: true, save_per_spore_path: "spore_{}.nc" });
  assert.equal("save_per_spore" in o, false);
});

Deno.test("sporesOptionsSchema refuses unknown keys and bad values, by key", () => {
  const r = sporesOptionsSchema.safeParse({ spores_numbr: 3, slack: -1, spores_number: 1.5 });
  assert.equal(r.success, false);
  const paths = r.error!.issues.map((i) => i.path.join(".")).sort();
  assert.deepEqual(paths, ["", "slack", "spores_number"]);
});

Deno.test("sporesProblems() accepts the national spores scenario", () => {
  assert.deepEqual(
    sporesProblems(model, sporesOptions({ slack_cost_group: "systemwide_cost_max" })),
    [],
  );
});

Deno.test("sporesProblems() names what Calliope fails on", () => {
  const paths = (o: Parameters<typeof sporesOptions>[0]) =>
    sporesProblems(model, sporesOptions(o)).map((p) => p.path);
  // Calliope's default slack_cost_group (null) cannot set the slack.
  assert.deepEqual(paths({}), ["parameters.spores.slack_cost_group"]);
  assert.deepEqual(paths({ slack_cost_group: "nope" }), ["parameters.spores.slack_cost_group"]);
  assert.deepEqual(
    paths({ slack_cost_group: "systemwide_cost_max", score_cost_class: "emissions" }),
    ["parameters.spores.score_cost_class"],
  );
  assert.deepEqual(
    paths({ slack_cost_group: "systemwide_cost_max", objective_cost_class: { co2: 1 } }),
    ["parameters.spores.objective_cost_class.co2"],
  );
});

Deno.test("sporesProblems() refuses a slack group without cost_max", () => {
  const m = {
    ...model,
    groupConstraints: model.groupConstraints!.map((g) => ({ ...g, sense: "min" as const })),
  };
  const p = sporesProblems(m, sporesOptions({ slack_cost_group: "systemwide_cost_max" }));
  assert.deepEqual(p.map((x) => x.path), ["parameters.spores.slack_cost_group"]);
  assert.match(p[0]!.message, /no cost_max/);
});
