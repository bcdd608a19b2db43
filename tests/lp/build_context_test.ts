import assert from "node:assert/strict";
import { createContext, stepName } from "../../lib/lp/build_context.ts";
import { locTech, model } from "./_model.ts";

Deno.test("stepName() writes family[key,timestamp] whatever order families and keys come in", () => {
  const ctx = createContext(
    model([locTech({ location: "r1", tech: "ccgt", type: "supply", carrier: "power" })], {
      steps: 3,
    }),
  );
  const ts = ctx.ts;
  const names = [
    stepName(ctx, "carrier_prod", "r1::ccgt::power", 0),
    stepName(ctx, "carrier_con", "r1::ccgt::power", 1),
    stepName(ctx, "carrier_prod", "r1::ccgt::power", 2),
    stepName(ctx, "carrier_prod", "r2::ccgt::power", 2),
    stepName(ctx, "carrier_prod", "r1::ccgt::power", 1),
  ];
  assert.deepEqual(names, [
    `carrier_prod[r1::ccgt::power,${ts[0]}]`,
    `carrier_con[r1::ccgt::power,${ts[1]}]`,
    `carrier_prod[r1::ccgt::power,${ts[2]}]`,
    `carrier_prod[r2::ccgt::power,${ts[2]}]`,
    `carrier_prod[r1::ccgt::power,${ts[1]}]`,
  ]);
});
