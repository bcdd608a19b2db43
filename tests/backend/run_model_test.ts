import assert from "node:assert/strict";
import { buildRunModel, readRunOverrides } from "../../lib/backend/run_model.ts";

const fixture = () =>
  JSON.parse(
    Deno.readTextFileSync(
      new URL("../fixtures/model/national_scale_frontend.json", import.meta.url),
    ),
  );

Deno.test("run model: a frontend model becomes canonical, overrides merged", () => {
  const built = buildRunModel(fixture(), {
    parameters: { subset_time: ["2005-01-01", "2005-01-01"], solver: { time_limit_s: 30 } },
  });
  assert.ok(built.ok);
  const parameters = built.model["parameters"] as Record<string, unknown>;
  assert.deepEqual(parameters["subset_time"], ["2005-01-01", "2005-01-01"]);
  assert.deepEqual(parameters["solver"], { time_limit_s: 30 });
  assert.ok(!Array.isArray(built.model["parameters"]));
  assert.ok(!("createdAt" in built.model));
});

Deno.test("run model: a canonical model keeps its parameters under the overrides", () => {
  const canonical = buildRunModel(fixture());
  assert.ok(canonical.ok);
  const again = buildRunModel(canonical.model, { scenario: "x" });
  assert.ok(!again.ok, "an unknown scenario is refused");
  const fine = buildRunModel(canonical.model, { parameters: { time_resolution_h: 6 } });
  assert.ok(fine.ok);
  assert.equal((fine.model["parameters"] as Record<string, unknown>)["time_resolution_h"], 6);
  assert.equal(
    (fine.model["parameters"] as Record<string, unknown>)["ensure_feasibility"],
    true,
  );
});

Deno.test("run model: problems by path", () => {
  const bad = buildRunModel({ name: "x" });
  assert.ok(!bad.ok);
  assert.ok(bad.problems.some((p) => p.path === "locations"));
  assert.ok(!buildRunModel([]).ok);
  const request = readRunOverrides({ parameters: [], scenario: 3, other: 1 });
  assert.ok(!request.ok);
  assert.deepEqual(request.problems.map((p) => p.path).sort(), ["other", "parameters", "scenario"]);
  assert.deepEqual(readRunOverrides({ scenario: ["a"] }), {
    ok: true,
    overrides: { scenario: ["a"] },
  });
});
