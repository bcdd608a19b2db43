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

Deno.test("run model: a sweep's scenarios are read and checked by path", () => {
  assert.deepEqual(readRunOverrides({ scenarios: ["a", ["b", "c"]], parameters: {} }), {
    ok: true,
    overrides: { parameters: {} },
    scenarios: ["a", ["b", "c"]],
  });
  const paths = (body: Record<string, unknown>) => {
    const read = readRunOverrides(body);
    assert.ok(!read.ok);
    return read.problems.map((p) => `${p.path}: ${p.message}`);
  };
  assert.deepEqual(paths({ scenarios: [] }), ["scenarios: must list 1 to 50 scenarios (0 given)"]);
  assert.deepEqual(paths({ scenarios: Array(51).fill("a") }), [
    "scenarios: must list 1 to 50 scenarios (51 given)",
  ]);
  assert.deepEqual(paths({ scenarios: "a,b" }), ["scenarios: must be a list of scenarios"]);
  assert.deepEqual(paths({ scenarios: ["a", 3, ["b", 4], " , ", []] }), [
    "scenarios[1]: must be a string (override names, comma-separated) or a list of override names",
    "scenarios[2][1]: must be a string",
    "scenarios[3]: names no override",
    "scenarios[4]: names no override",
  ]);
  assert.deepEqual(paths({ scenario: "a", scenarios: ["b"] }), [
    "scenarios: scenario and scenarios together: give one scenario or a list of them",
  ]);
});
