import assert from "node:assert/strict";
import { readStock } from "../../../lib/heat/calculation/stock.ts";

Deno.test("readStock() reads codes, numeric overrides and surfaces JSON", () => {
  const { items, problems } = readStock([
    { code: "DE.N.SFH.05.Gen.ReEx.001.002", theta_i: "21", n_Storey: "", surfaces: "" },
    {
      code: "DE.N.SFH.05.Gen.ReEx.001.001",
      theta_i: "",
      n_Storey: "3",
      surfaces: '[{"id":"w","type":"wall","area":150,"u_value":0.3}]',
    },
  ]);
  assert.deepEqual(problems, []);
  assert.deepEqual(items, [
    { row: 1, code: "DE.N.SFH.05.Gen.ReEx.001.002", overrides: { theta_i: 21 } },
    {
      row: 2,
      code: "DE.N.SFH.05.Gen.ReEx.001.001",
      overrides: { n_Storey: 3, surfaces: [{ id: "w", type: "wall", area: 150, u_value: 0.3 }] },
    },
  ]);
});

Deno.test("readStock() names the row and column of every problem at once", () => {
  const { items, problems } = readStock([
    { code: "", theta_i: "20" },
    { code: "DE.N.SFH.05.Gen.ReEx.001.002", theta_i: "warm", A_ref: "-5" },
    { code: "DE.N.SFH.05.Gen.ReEx.001.002", surfaces: "[{" },
    { code: "DE.N.SFH.05.Gen.ReEx.001.002", theta_e: "3" },
    {
      code: "DE.N.SFH.05.Gen.ReEx.001.002",
      surfaces: '[{"id":"w","type":"chimney","area":1,"u_value":1}]',
    },
  ]);
  assert.deepEqual(items, []);
  assert.deepEqual(
    problems.map((p) => `${p.row}:${p.column}`),
    ["1:code", "2:theta_i", "2:A_ref", "3:surfaces", "4:theta_e", "5:surfaces.0.type"],
  );
});

Deno.test("readStock() refuses overrides and surfaces outside their bounds, naming the range", () => {
  const { items, problems } = readStock([
    { code: "DE.N.SFH.05.Gen.ReEx.001.002", theta_i: "1e308" },
    { code: "DE.N.SFH.05.Gen.ReEx.001.002", A_ref: "5e-324", HeatingDays: "222.44" },
    {
      code: "DE.N.SFH.05.Gen.ReEx.001.002",
      surfaces: '[{"id":"w","type":"window","area":2,"u_value":1.1,"azimuth":400}]',
    },
  ]);
  assert.deepEqual(items, []);
  assert.deepEqual(problems, [
    { row: 1, column: "theta_i", message: "must be between 10 and 30 deg C" },
    { row: 2, column: "A_ref", message: "must be between 1 and 1000000 m2" },
    { row: 3, column: "surfaces.0.azimuth", message: "must be between 0 and 360 deg" },
  ]);
});
