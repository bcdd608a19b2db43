/**
 * Calliope 0.6 `constraints/export.py`: exported energy comes out of production (and is
 * subtracted in the system balance, see energy_balance.ts), limited by export_cap when set.
 * The export cost term is in costs.ts.
 */
import type { BuildContext } from "./build_context.ts";
import { stepName } from "./build_context.ts";

const INF = Infinity;

/** Adds export_balance and export_max rows. */
export function addExport(ctx: BuildContext): void {
  const { model, b, index, T } = ctx;
  for (const lt of model.locTechs) {
    const carrier = lt.constraints.export_carrier;
    if (carrier === undefined) continue;
    const key = `${lt.id}::${carrier}`;
    const exp = index.carrierExport.get(key);
    const prod = index.carrierProd.get(key);
    if (exp === undefined || prod === undefined) continue;
    const cap = lt.constraints.export_cap;
    for (let t = 0; t < T; t++) {
      b.addRow(stepName(ctx, "export_balance", key, t), 0, INF, [prod + t, exp + t], [1, -1]);
      if (Number.isFinite(cap)) {
        b.addRow(stepName(ctx, "export_max", key, t), -INF, cap, [exp + t], [1]);
      }
    }
  }
}
