import assert from "node:assert/strict";
import {
  buildingHeight,
  buildingYear,
  isUnheatedType,
  parseLength,
} from "../../lib/extraction/building_height.ts";
import { DEFAULT_EXTRACTION_OPTIONS } from "../../lib/extraction/building_record.ts";

Deno.test("parseLength: every tag form in metres", async (t) => {
  const cases: [string | undefined, number | null][] = [
    ["12", 12],
    ["12 m", 12],
    ["12m", 12],
    ["12.5", 12.5],
    ["12,5", 12.5],
    ["12,5 m", 12.5],
    ["40'", 40 * 0.3048],
    ["40 ft", 40 * 0.3048],
    [`40'6"`, 40 * 0.3048 + 6 * 0.0254],
    ["0", null],
    ["tall", null],
    ["-3", null],
    [undefined, null],
  ];
  for (const [text, want] of cases) {
    await t.step(String(text), () => {
      const got = parseLength(text);
      if (want === null) assert.equal(got, null);
      else assert.ok(got !== null && Math.abs(got - want) < 1e-9, `${got} != ${want}`);
    });
  }
});

Deno.test("buildingHeight: height, levels, default, in that order", async (t) => {
  const o = DEFAULT_EXTRACTION_OPTIONS;
  await t.step("height tag", () => {
    const h = buildingHeight({ height: "9.5" }, o);
    assert.deepEqual([h.height, h.height_source, h.storeys], [9.5, "height", 3]);
  });
  await t.step("height less roof:height", () => {
    const h = buildingHeight({ height: "12", "roof:height": "4" }, o);
    assert.deepEqual([h.height, h.height_source, h.storeys], [8, "height", 3]);
  });
  await t.step("height less roof:levels x storey height", () => {
    const h = buildingHeight({ height: "12", "roof:levels": "1" }, o);
    assert.deepEqual([h.height, h.roof_levels], [9, 1]);
  });
  await t.step("height with building:levels keeps the levels as storeys", () => {
    const h = buildingHeight({ height: "10", "building:levels": "4" }, o);
    assert.deepEqual([h.height, h.storeys], [10, 4]);
  });
  await t.step("a height under 2 m is rejected and reported", () => {
    const h = buildingHeight({ height: "1", "building:levels": "2" }, o);
    assert.deepEqual([h.height, h.height_source], [6, "levels"]);
    assert.match(h.problems.join(), /under 2 m/);
  });
  await t.step("levels x storey height; roof:levels not added", () => {
    const h = buildingHeight({ "building:levels": "3", "roof:levels": "1" }, o);
    assert.deepEqual([h.height, h.height_source, h.storeys, h.roof_levels], [9, "levels", 3, 1]);
  });
  await t.step("default storeys by type", () => {
    const house = buildingHeight({ building: "house" }, o);
    assert.deepEqual([house.height, house.height_source, house.storeys], [6, "default", 2]);
    const shed = buildingHeight({ building: "garage" }, o);
    assert.deepEqual([shed.height, shed.storeys], [3, 1]);
  });
  await t.step("min_height and building:min_level subtracted", () => {
    assert.equal(buildingHeight({ height: "15", min_height: "6" }, o).height, 9);
    const h = buildingHeight({ "building:levels": "5", "building:min_level": "2" }, o);
    assert.deepEqual([h.height, h.storeys], [9, 3]);
  });
  await t.step("storey height option", () => {
    const h = buildingHeight({ "building:levels": "2" }, { ...o, storey_height: 2.5 });
    assert.equal(h.height, 5);
  });
});

Deno.test("buildingYear: first 4-digit year of start_date or building:year", () => {
  assert.equal(buildingYear({ start_date: "1965" }), 1965);
  assert.equal(buildingYear({ start_date: "~1890-05" }), 1890);
  assert.equal(buildingYear({ start_date: "C19", "building:year": "1972" }), 1972);
  assert.equal(buildingYear({}), null);
});

Deno.test("isUnheatedType: sheds and garages, not houses", () => {
  assert.ok(isUnheatedType("shed") && isUnheatedType("garages") && isUnheatedType("carport"));
  assert.ok(!isUnheatedType("house") && !isUnheatedType("yes"));
});
