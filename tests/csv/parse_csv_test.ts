import assert from "node:assert/strict";
import { parseCsv } from "../../lib/csv/parse_csv.ts";

Deno.test("parseCsv reports malformed CSV lines with 1-based data rows", () => {
  const { problems, records } = parseCsv('a,b\n1,2\n3,4,5\n"6,7\n', "x.csv");
  assert.equal(records.length, 3);
  assert.deepEqual(problems.map((p) => `${p.row} ${p.message.split(":")[0]}`).sort(), [
    "2 CSV TooManyFields",
    "3 CSV MissingQuotes",
    "3 CSV TooFewFields",
  ]);
});

Deno.test("parseCsv reports a column named twice in the header", () => {
  const { problems } = parseCsv("a,b,a\n1,2,3\n", "x.csv");
  assert.deepEqual(problems, [
    { file: "x.csv", row: 0, column: "a", message: "column appears twice in the header" },
  ]);
});

Deno.test("parseCsv names the data row of a malformed quote in the export dialect", () => {
  const text = 'a,b\n1,2\n"x "y" z",3\n';
  assert.deepEqual(parseCsv(text, "x.csv").problems.map((p) => [p.row, p.column]), [[2, ""]]);
  const apostrophe = parseCsv('a,b\n1,2\n"x \'"y\'" z",3\n', "x.csv", { escapeChar: "'" });
  assert.deepEqual(apostrophe.problems, []);
  assert.equal(apostrophe.records[1]!["a"], 'x "y" z');
});
