import assert from "node:assert/strict";
import { readFrontendSeries, seriesIdOf } from "../../../lib/model/frontend/frontend_series.ts";

const rows = [
  { time: "2005-01-01 00:00:00", demand: -25284.48 },
  { time: "2005-01-01 01:00:00", demand: -24387.44 },
];

Deno.test("seriesIdOf() is the file name without folder and .csv", () => {
  assert.equal(seriesIdOf({ fileName: "demand-1.csv", name: "x" }), "demand-1");
  assert.equal(seriesIdOf({ file: "templates/pv/PV.CSV" }), "PV");
  assert.equal(seriesIdOf({ name: "wind" }), "wind");
  assert.equal(seriesIdOf({}), undefined);
});

Deno.test("readFrontendSeries() reads row objects with the time column", () => {
  const r = readFrontendSeries([{
    id: "ts1",
    fileName: "demand-1.csv",
    data: rows,
    dateColumn: "time",
  }]);
  assert.deepEqual(r.problems, []);
  assert.deepEqual(r.series, [{
    id: "demand-1",
    timestamps: ["2005-01-01 00:00:00", "2005-01-01 01:00:00"],
    columns: { demand: [-25284.48, -24387.44] },
  }]);
});

Deno.test("readFrontendSeries() finds the date column without dateColumn", () => {
  const data = [{ stamp: "2005-01-01 00:00:00", a: "1.5", b: 2 }];
  const r = readFrontendSeries([{ fileName: "x.csv", data }]);
  assert.deepEqual(r.series[0], {
    id: "x",
    timestamps: ["2005-01-01 00:00:00"],
    columns: { a: [1.5], b: [2] },
  });
});

Deno.test("readFrontendSeries() reads array rows in columns order", () => {
  const r = readFrontendSeries([{
    fileName: "pv.csv",
    columns: ["time", "loc_a"],
    dateColumn: "time",
    data: [["2005-01-01 00:00:00", 0.1], ["2005-01-01 01:00:00", 0.2]],
  }]);
  assert.deepEqual(r.series[0]?.columns, { loc_a: [0.1, 0.2] });
});

Deno.test("readFrontendSeries() offers a lower-cased alias of a column only without a clash", () => {
  const data = [{ time: "2005-01-01 00:00:00", "Region 1": 1, Demand: 2, demand: 3 }];
  const r = readFrontendSeries([{ fileName: "d.csv", data }]);
  assert.deepEqual(r.series[0]?.columns, {
    "Region 1": [1],
    Demand: [2],
    demand: [3],
    region_1: [1],
  });
});

Deno.test("readFrontendSeries() skips template entries without dates, with a note", () => {
  const r = readFrontendSeries([
    { fileName: "demand", file: "templates/demand/", data: [1, 2, 3] },
    { fileName: "empty.csv", data: [] },
  ]);
  assert.deepEqual(r.series, []);
  assert.deepEqual(r.problems, []);
  assert.equal(r.notes.length, 2);
  assert.match(r.notes[0]!, /timeSeries\[0\].*without dates/);
});

Deno.test("readFrontendSeries() reports a value that is not a number by its path", () => {
  const r = readFrontendSeries([{
    fileName: "d.csv",
    data: [{ time: "2005-01-01 00:00:00", demand: "abc" }],
  }]);
  assert.deepEqual(r.problems, [{ path: "timeSeries[0].data[0].demand", message: "not a number" }]);
});

Deno.test("readFrontendSeries() keeps the first of two entries with one id", () => {
  const r = readFrontendSeries([
    { fileName: "d.csv", data: rows },
    { fileName: "d.csv", data: [{ time: "2006-01-01 00:00:00", demand: 1 }] },
  ]);
  assert.equal(r.series.length, 1);
  assert.equal(r.series[0]?.timestamps[0], "2005-01-01 00:00:00");
  assert.match(r.notes[0]!, /second series "d"/);
});
