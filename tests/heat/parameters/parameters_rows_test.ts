import assert from "node:assert/strict";
import Papa from "papaparse";
import {
  isReferenceTextColumn,
  REFERENCE_COLUMNS,
  referenceRowSchema,
} from "../../../lib/heat/parameters/parameters.ts";
import {
  numberOf,
  textOf,
  variantCodeOf,
  type VariantRow,
} from "../../../lib/heat/parameters/variant_row.ts";

const ROW: VariantRow = {
  Code_BuildingVariant: "DE.N.SFH.01.Gen.ReEx.001.001",
  U_Roof_1: 1.4,
  Code_Roof_2: "0",
  Date_Change: null,
};

Deno.test("variant row accessors", async (t) => {
  await t.step("numberOf returns a numeric column", () => {
    assert.equal(numberOf(ROW, "U_Roof_1"), 1.4);
  });
  await t.step("numberOf names the variant and column of a non-number", () => {
    assert.throws(() => numberOf(ROW, "Code_Roof_2"), {
      name: "TypeError",
      message: /DE\.N\.SFH\.01\.Gen\.ReEx\.001\.001: column Code_Roof_2 is not a number/,
    });
    assert.throws(() => numberOf(ROW, "U_Wall_9"), TypeError);
  });
  await t.step("textOf returns text or null", () => {
    assert.equal(textOf(ROW, "Code_Roof_2"), "0");
    assert.equal(textOf(ROW, "Date_Change"), null);
    assert.equal(textOf(ROW, "not_there"), null);
    assert.throws(() => textOf(ROW, "U_Roof_1"), TypeError);
  });
  await t.step("variantCodeOf", () => {
    assert.equal(variantCodeOf(ROW), "DE.N.SFH.01.Gen.ReEx.001.001");
    assert.throws(() => variantCodeOf({}), TypeError);
  });
});

const REFERENCE = Papa.parse<Record<string, string>>(
  Deno.readTextFileSync(new URL("../../../data/tabula/tsib/episcope.csv", import.meta.url)),
  { header: true, skipEmptyLines: true },
);

Deno.test("referenceRowSchema reads every row of tsib/episcope.csv", () => {
  assert.deepEqual(REFERENCE.errors, []);
  const fields = REFERENCE.meta.fields ?? [];
  assert.equal(fields[0], "", "the first column is the unnamed pandas index");
  assert.deepEqual(fields.slice(1), [...REFERENCE_COLUMNS]);
  assert.equal(REFERENCE.data.length, 836);
  for (const [i, record] of REFERENCE.data.entries()) {
    const result = referenceRowSchema.safeParse(record);
    assert.ok(result.success, `row ${i + 1}: ${JSON.stringify(result.error?.issues)}`);
    assert.equal(result.data[""], undefined, "index column dropped");
    assert.equal(typeof result.data["q_h_nd"], "number");
  }
});

Deno.test("referenceRowSchema types text and numbers by column", () => {
  const first = referenceRowSchema.parse(REFERENCE.data[0]);
  for (const column of REFERENCE_COLUMNS) {
    const value = first[column];
    if (isReferenceTextColumn(column)) assert.ok(value === null || typeof value === "string");
    else assert.equal(typeof value, "number", column);
  }
  assert.equal(first["Code_Wall_2"], "0", "an unused code slot stays text");
});

Deno.test("referenceRowSchema names the column of a bad value", () => {
  const result = referenceRowSchema.safeParse({ ...REFERENCE.data[0], q_h_nd: "n/a", tau: "" });
  assert.equal(result.success, false);
  assert.deepEqual(
    result.error!.issues.map((i) => [i.path[0], i.message]),
    [["tau", "expected a number, the cell is empty"], [
      "q_h_nd",
      'expected a number, got "n/a"',
    ]],
  );
});
