import assert from "node:assert/strict";
import { techCarriers } from "../../../lib/model/preprocess/carriers.ts";
import type { Technology } from "../../../lib/model/model_config.ts";
import type { ModelProblem } from "../../../lib/model/model_problem.ts";

function carriers(tech: Technology) {
  const problems: ModelProblem[] = [];
  const c = techCarriers(tech, "technologies[0]", problems);
  return { c, problems };
}

Deno.test("techCarriers() derives each type's tiers", async (t) => {
  await t.step("supply uses carrier_out or carrier", () => {
    assert.deepEqual(carriers({ name: "s", type: "supply", carrier: "power" }).c?.tiers.out, [
      "power",
    ]);
    assert.deepEqual(
      carriers({ name: "s", type: "supply_plus", carrier_out: "heat" }).c?.tiers.out,
      ["heat"],
    );
  });
  await t.step("demand consumes", () => {
    const { c } = carriers({ name: "d", type: "demand", carrier: "power" });
    assert.deepEqual(c?.tiers.in, ["power"]);
    assert.deepEqual(c?.tiers.out, []);
    assert.equal(c?.main, "power");
  });
  await t.step("storage and transmission both ways", () => {
    for (const type of ["storage", "transmission"] as const) {
      const { c } = carriers({ name: "x", type, carrier: "power" });
      assert.deepEqual([c?.tiers.in, c?.tiers.out], [["power"], ["power"]]);
    }
  });
  await t.step("conversion one in, one out", () => {
    const { c } = carriers({
      name: "b",
      type: "conversion",
      carrier_in: "gas",
      carrier_out: "heat",
    });
    assert.deepEqual([c?.tiers.in, c?.tiers.out, c?.main], [["gas"], ["heat"], "heat"]);
  });
  await t.step("conversion_plus with lists and a single output needs no primary", () => {
    const { c, problems } = carriers({
      name: "cp",
      type: "conversion_plus",
      carrier_in: ["gas", "oil"],
      carrier_out: "power",
      primary_carrier_in: "gas",
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(c?.tiers.in, ["gas", "oil"]);
    assert.equal(c?.primary_carrier_out, "power");
    assert.equal(c?.primary_carrier_in, "gas");
  });
});

Deno.test("techCarriers() reports missing and inconsistent carriers", () => {
  const cases: [Technology, string, RegExp][] = [
    [{ name: "s", type: "supply" }, "technologies[0]", /needs carrier_out/],
    [{ name: "d", type: "demand" }, "technologies[0]", /needs carrier_in/],
    [{ name: "c", type: "conversion", carrier_in: "gas" }, "technologies[0]", /needs carrier_out/],
    [
      { name: "c", type: "conversion", carrier_in: ["gas", "oil"], carrier_out: "heat" },
      "technologies[0].carrier_in",
      /exactly one/,
    ],
    [
      { name: "c", type: "conversion_plus", carrier_in: ["gas", "oil"], carrier_out: "heat" },
      "technologies[0]",
      /primary_carrier_in is required/,
    ],
    [
      { name: "s", type: "supply", carrier: "power", carrier_out_2: "heat" },
      "technologies[0].carrier_out_2",
      /only for conversion_plus/,
    ],
    [{ name: "s", type: "supply", carrier: "resource" }, "technologies[0].carrier_out", /reserves/],
  ];
  for (const [tech, path, message] of cases) {
    const { c, problems } = carriers(tech);
    assert.equal(c, undefined);
    assert.ok(
      problems.some((p) => p.path === path && message.test(p.message)),
      `${JSON.stringify(tech)}: ${JSON.stringify(problems)}`,
    );
  }
});
