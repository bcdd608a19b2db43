/**
 * Calliope 0.6 `constraints/conversion.py`: a conversion technology's output equals its input
 * times energy_eff (carrier_prod = −energy_eff·carrier_con). Its variable cost is in costs.ts.
 */
import { at } from "../model/preprocess/resolved_model.ts";
import type { BuildContext } from "./build_context.ts";
import { ltc, stepName } from "./build_context.ts";

/** Adds balance_conversion for every conversion loc_tech. */
export function addConversion(ctx: BuildContext): void {
  const { model, b, index, T } = ctx;
  for (const lt of model.locTechs) {
    if (lt.type !== "conversion") continue;
    const cout = lt.carriers.out[0];
    const cin = lt.carriers.in[0];
    if (cout === undefined || cin === undefined) continue;
    const prod = index.carrierProd.get(ltc(lt, cout));
    const con = index.carrierCon.get(ltc(lt, cin));
    if (prod === undefined || con === undefined) continue;
    for (let t = 0; t < T; t++) {
      b.addRow(stepName(ctx, "balance_conversion", lt.id, t), 0, 0, [prod + t, con + t], [
        1,
        at(lt.constraints.energy_eff, t),
      ]);
    }
  }
}
