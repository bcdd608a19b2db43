import assert from "node:assert/strict";
import fc from "fast-check";
import { calculate, referenceArea } from "../../../lib/heat/calculation/calculate.ts";
import {
  OVERRIDE_FIELDS,
  OVERRIDE_MEMBERS,
  overridesSchema,
  SURFACE_BOUNDS,
  SURFACE_TYPES,
  surfaceSchema,
} from "../../../lib/heat/calculation/overrides.ts";
import { PARAMETERS } from "../../../lib/heat/parameters/parameters.ts";
import { prepareVariant } from "../../../lib/heat/calculation/prepared_variant.ts";
import { numberOf } from "../../../lib/heat/parameters/variant_row.ts";
import { testTypology } from "../_typology.ts";

const typology = await testTypology();
const rows = typology.allVariants();
const codes = rows.map((row) => String(row.Code_BuildingVariant));

/** The value a variant row gives for an override member: the archetype's own input. */
function archetypeValue(row: (typeof rows)[number], member: string): number {
  if (member === "A_ref") return referenceArea(row);
  const field = OVERRIDE_FIELDS.find((f) => f.member === member)!;
  return numberOf(row, field.parameter.column);
}

Deno.test("overridesSchema takes every value of the TABULA data (all 2,147 variants)", () => {
  assert.equal(rows.length, 2147);
  const refused: string[] = [];
  for (const row of rows) {
    const own = Object.fromEntries(OVERRIDE_MEMBERS.map((m) => [m, archetypeValue(row, m)]));
    const parsed = overridesSchema.safeParse(own);
    if (!parsed.success) {
      const paths = parsed.error.issues.map((i) =>
        `${i.path.join(".")} = ${own[String(i.path[0])]}`
      );
      refused.push(`${row.Code_BuildingVariant}: ${paths.join(", ")}`);
    }
  }
  assert.deepEqual(refused.slice(0, 10), []);
});

Deno.test("surfaceSchema takes every archetype slot with an area as a surface", () => {
  const refused: string[] = [];
  for (const row of rows) {
    for (const { spec, area, u } of prepareVariant(row).slots) {
      if (!(area > 0) || !(u.U_actual > 0)) continue;
      const surface = { id: spec.slot, type: spec.category, area, u_value: u.U_actual };
      if (!surfaceSchema.safeParse(surface).success) {
        refused.push(`${row.Code_BuildingVariant} ${spec.slot}: ${JSON.stringify(surface)}`);
      }
    }
  }
  assert.deepEqual(refused.slice(0, 10), []);
});

Deno.test("each override's bounds lie within its column's own range", () => {
  for (const f of OVERRIDE_FIELDS) {
    const p = f.parameter;
    assert.equal(p.override?.member, f.member);
    assert.ok(f.min <= f.max, f.member);
    if (p.min !== undefined) assert.ok(p.exclusiveMin ? f.min > p.min : f.min >= p.min, f.member);
    if (p.max !== undefined) assert.ok(f.max <= p.max, f.member);
  }
  const withOverride = PARAMETERS.filter((p) => p.override).map((p) => p.override!.member);
  assert.deepEqual([...withOverride].sort(), [...OVERRIDE_MEMBERS].sort(), "one entry each");
});

Deno.test("calculate() gives a finite demand for every in-bounds override of every variant", () => {
  const inRange = (min: number, max: number) =>
    fc.oneof(fc.double({ min, max, noNaN: true }), fc.constantFrom(min, max));
  const surface = fc.record({
    id: fc.constant("s"),
    type: fc.constantFrom(...SURFACE_TYPES),
    area: inRange(SURFACE_BOUNDS.area.min, SURFACE_BOUNDS.area.max),
    u_value: inRange(SURFACE_BOUNDS.u_value.min, SURFACE_BOUNDS.u_value.max),
    azimuth: inRange(SURFACE_BOUNDS.azimuth.min, SURFACE_BOUNDS.azimuth.max),
    tilt: inRange(SURFACE_BOUNDS.tilt.min, SURFACE_BOUNDS.tilt.max),
  }, { requiredKeys: ["id", "type", "area", "u_value"] });
  const overrides = fc.record({
    ...Object.fromEntries(OVERRIDE_FIELDS.map((f) => [f.member, inRange(f.min, f.max)])),
    surfaces: fc.array(surface, { maxLength: 8 }),
  }, { requiredKeys: [] });
  fc.assert(
    fc.property(fc.constantFrom(...codes), overrides, (code, o) => {
      const { q_h_nd } = calculate(typology.variant(code)!, overridesSchema.parse(o));
      assert.ok(Number.isFinite(q_h_nd), `${code}: ${q_h_nd}`);
    }),
    { numRuns: 5000 },
  );
});

Deno.test("surfaceSchema takes any azimuth on a non-window surface, normalised and unused (issue 18; failed before)", async (t) => {
  // The original service's five-surface example sends azimuth -1 on a roof and a floor: the
  // spec's azimuth is for windows only.
  for (const type of ["roof", "wall", "floor", "door"] as const) {
    await t.step(type, () => {
      for (const [azimuth, normalised] of [[-1, 359], [-450, 270], [720, 0], [361.5, 1.5]]) {
        const parsed = surfaceSchema.safeParse({ id: "s", type, area: 10, u_value: 0.3, azimuth });
        assert.ok(parsed.success, `${type} azimuth ${azimuth}`);
        assert.equal(parsed.data.azimuth, normalised);
      }
    });
  }
  await t.step("a window keeps the bounds (0 to 360 deg)", () => {
    for (const azimuth of [-1, 360.5]) {
      const parsed = surfaceSchema.safeParse({
        id: "w",
        type: "window",
        area: 2,
        u_value: 1.1,
        azimuth,
      });
      assert.equal(parsed.success, false);
      assert.deepEqual(parsed.error?.issues.map((i) => [i.path, i.message]), [
        [["azimuth"], "must be between 0 and 360 deg"],
      ]);
    }
  });
  await t.step("a window's other problems are named together with its azimuth", () => {
    const parsed = surfaceSchema.safeParse({
      id: "w",
      type: "window",
      area: -2,
      u_value: 1.1,
      azimuth: 400,
    });
    assert.deepEqual(parsed.error?.issues.map((i) => i.path.join(".")).sort(), [
      "area",
      "azimuth",
    ]);
  });
  await t.step("the demand does not change with a non-window azimuth", () => {
    const row = typology.variant(codes[0]!)!;
    const roof = { id: "r", type: "roof" as const, area: 80, u_value: 0.25 };
    const without = calculate(row, overridesSchema.parse({ surfaces: [roof] })).q_h_nd;
    const withAzimuth = calculate(
      row,
      overridesSchema.parse({ surfaces: [{ ...roof, azimuth: -1 }] }),
    ).q_h_nd;
    assert.equal(withAzimuth, without);
  });
});

Deno.test("overridesSchema says a c_m that looks like J/(m2.K) is that many Wh/(m2.K) / 3,600 (issue 18; failed before)", async (t) => {
  const cases: [number, string][] = [
    [
      165000,
      "must be between 10 and 1000 Wh/(m2.K); 165000 looks like J/(m2.K): that is 45.8 " +
      "Wh/(m2.K) after dividing by 3,600 (TABULA's unit is Wh/(m2.K), 45 = medium)",
    ],
    [
      36000,
      "must be between 10 and 1000 Wh/(m2.K); 36000 looks like J/(m2.K): that is 10 " +
      "Wh/(m2.K) after dividing by 3,600 (TABULA's unit is Wh/(m2.K), 45 = medium)",
    ],
    // Not a J value that fits either: the bounds alone.
    [1001, "must be between 10 and 1000 Wh/(m2.K)"],
    [1e9, "must be between 10 and 1000 Wh/(m2.K)"],
    [5, "must be between 10 and 1000 Wh/(m2.K)"],
  ];
  for (const [c_m, message] of cases) {
    await t.step(String(c_m), () => {
      const parsed = overridesSchema.safeParse({ c_m });
      assert.deepEqual(parsed.error?.issues.map((i) => [i.path, i.message]), [
        [["c_m"], message],
      ]);
    });
  }
  assert.ok(overridesSchema.safeParse({ c_m: 45 }).success);
});
