import assert from "node:assert/strict";
import { parseCostTable } from "../../../lib/catalogue/build/cost_table.ts";

Deno.test("parseCostTable() refuses duplicate and non-numeric rows", () => {
  const header = "technology,parameter,value,unit,source,further description,currency_year\n";
  assert.throws(
    () =>
      parseCostTable(header + "a,FOM,1,%/year,,,\na,FOM,2,%/year,,,\nb,FOM,x,%/year,,,\n", "t.csv"),
    /t\.csv:2: second row for a \/ FOM\nt\.csv:3: needs technology, parameter and a numeric value/,
  );
});
