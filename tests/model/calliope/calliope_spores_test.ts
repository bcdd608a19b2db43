import assert from "node:assert/strict";
import { importCalliopeModel } from "../../../lib/model/calliope/calliope_import.ts";
import { writeCalliopeModel } from "../../../lib/model/calliope/calliope_export.ts";
import { modelConfigSchema } from "../../../lib/model/model_config.ts";
import { applyScenario } from "../../../lib/model/preprocess/apply_model_overrides.ts";
import { ModelValidationError } from "../../../lib/model/model_problem.ts";

const NATIONAL = new URL("../../../data/models/calliope_national_scale", import.meta.url).pathname;

Deno.test("run.mode spores and run.spores_options: imported, exported and read back", async () => {
  const config = await importCalliopeModel(NATIONAL, { scenario: "spores" });
  assert.equal(config.parameters.mode, "spores");
  assert.deepEqual(config.parameters.spores, {
    score_cost_class: "spores_score",
    slack_cost_group: "systemwide_cost_max",
    slack: 0.1,
    spores_number: 3,
    objective_cost_class: { monetary: 0, spores_score: 1 },
    skip_cost_op: false,
  });
  const dir = await Deno.makeTempDir();
  try {
    await writeCalliopeModel(config, dir);
    const back = await importCalliopeModel(dir);
    assert.equal(back.parameters.mode, "spores");
    assert.deepEqual(back.parameters.spores, config.parameters.spores);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run.spores_options and run.operation: an unknown option or a bad value at its path", async () => {
  await assert.rejects(
    importCalliopeModel(NATIONAL, {
      scenario: "spores",
      overrides: { "run.spores_options.slack": -1, "run.spores_options.spore_count": 2 },
    }),
    (e: unknown) => {
      const paths = (e as ModelValidationError).problems.map((p) => p.path);
      assert.ok(paths.includes("run.spores_options.slack"), paths.join(", "));
      assert.ok(paths.some((p) => p.startsWith("run.spores_options")), paths.join(", "));
      return true;
    },
  );
  await assert.rejects(
    importCalliopeModel(NATIONAL, {
      scenario: "operate",
      overrides: { "run.operation.window": 0, "run.mode": "design" },
    }),
    (e: unknown) => {
      const paths = (e as ModelValidationError).problems.map((p) => p.path);
      assert.ok(paths.includes("run.operation.window"), paths.join(", "));
      assert.ok(paths.includes("run.mode"), paths.join(", "));
      return true;
    },
  );
  const operate = await importCalliopeModel(NATIONAL, { scenario: "operate" });
  assert.equal(operate.parameters.mode, "operate");
  assert.deepEqual(operate.parameters.operation, {
    window: 12,
    horizon: 24,
    use_cap_results: false,
  });
});

Deno.test("a ModelConfig scenario sets the mode and merges spores options key by key", async () => {
  const base = await importCalliopeModel(NATIONAL, { scenario: "spores" });
  const config = modelConfigSchema.parse({
    ...base,
    parameters: {
      ...base.parameters,
      mode: "plan",
      scenario: "s",
      overrides: { s: { "run.mode": "spores", "run.spores_options.spores_number": 1 } },
    },
  });
  const out = applyScenario(config);
  assert.equal(out.parameters.mode, "spores");
  assert.equal(out.parameters.spores?.spores_number, 1);
  assert.equal(out.parameters.spores?.slack, 0.1);
});
