import assert from "node:assert/strict";
import {
  findSeries,
  isSeriesReference,
  parseSeriesReference,
} from "../../../lib/model/preprocess/series_reference.ts";

Deno.test("parseSeriesReference() reads both spellings", () => {
  assert.deepEqual(parseSeriesReference("file=demand.csv:r1"), {
    text: "file=demand.csv:r1",
    file: "demand.csv",
    column: "r1",
  });
  assert.deepEqual(parseSeriesReference("file=demand.csv"), {
    text: "file=demand.csv",
    file: "demand.csv",
  });
  assert.deepEqual(parseSeriesReference("ts:pv:col:with:colons"), {
    text: "ts:pv:col:with:colons",
    file: "pv",
    column: "col:with:colons",
  });
  assert.equal(parseSeriesReference("ts:pv"), undefined);
  assert.equal(parseSeriesReference("file=:x"), undefined);
  assert.equal(parseSeriesReference("file=a.csv:"), undefined);
  assert.ok(isSeriesReference("file=a.csv"));
  assert.ok(!isSeriesReference("inf"));
  assert.ok(!isSeriesReference(3));
});

Deno.test("findSeries() matches the id with or without .csv", () => {
  const series = [
    { id: "demand", timestamps: ["2005-01-01"], columns: {} },
    { id: "pv.csv", timestamps: ["2005-01-01"], columns: {} },
  ];
  assert.equal(findSeries(series, "demand.csv")?.index, 0);
  assert.equal(findSeries(series, "demand")?.index, 0);
  assert.equal(findSeries(series, "pv.csv")?.index, 1);
  assert.equal(findSeries(series, "pv")?.index, 1);
  assert.equal(findSeries(series, "wind.csv"), undefined);
});
