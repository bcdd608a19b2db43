import assert from "node:assert/strict";
import { createContext, stepName } from "../../lib/lp/build_context.ts";
import { nameArray } from "../../lib/lp/lp_name_list.ts";
import { locTech, model } from "./_model.ts";

Deno.test("stepName() writes family[key,timestamp] whatever order families and keys come in", () => {
  const ctx = createContext(
    model([locTech({ location: "r1", tech: "ccgt", type: "supply", carrier: "power" })], {
      steps: 3,
    }),
  );
  const ts = ctx.ts;
  const codes = [
    stepName(ctx, "carrier_prod", "r1::ccgt::power", 0),
    stepName(ctx, "carrier_con", "r1::ccgt::power", 1),
    stepName(ctx, "carrier_prod", "r1::ccgt::power", 2),
    stepName(ctx, "carrier_prod", "r2::ccgt::power", 2),
    stepName(ctx, "carrier_prod", "r1::ccgt::power", 1),
  ];
  for (const code of codes) ctx.b.addColumn(code, 0, 1);
  ctx.b.addColumn("energy_cap[r1::ccgt]", 0, Infinity);
  const { colNames } = ctx.b.build();
  assert.deepEqual(nameArray(colNames), [
    `carrier_prod[r1::ccgt::power,${ts[0]}]`,
    `carrier_con[r1::ccgt::power,${ts[1]}]`,
    `carrier_prod[r1::ccgt::power,${ts[2]}]`,
    `carrier_prod[r2::ccgt::power,${ts[2]}]`,
    `carrier_prod[r1::ccgt::power,${ts[1]}]`,
    "energy_cap[r1::ccgt]",
  ]);
  // Made on demand: each read gives the name, nothing outside the list.
  assert.equal(colNames.length, 6);
  assert.equal(colNames.at(3), `carrier_prod[r2::ccgt::power,${ts[2]}]`);
  assert.equal(colNames.at(6), undefined);
  assert.equal(colNames.at(-1), undefined);
});
