/**
 * Calliope 0.6 `constraints/dispatch.py`: production and consumption limited by capacity,
 * resource use by resource capacity, storage by storage capacity, and ramping.
 */
import { addInterClusterStorage, interCluster } from "./cluster_storage.ts";
import { at } from "../model/preprocess/resolved_model.ts";
import type { BuildContext } from "./build_context.ts";
import { hasUnits } from "./milp.ts";
import { conCarriers, ltc, prodCarriers, stepName } from "./build_context.ts";

const INF = Infinity;

/** Adds every dispatch family. */
export function addDispatch(ctx: BuildContext): void {
  const { model, b, index, T } = ctx;
  const dt = model.resolution;
  for (const lt of model.locTechs) {
    const c = lt.constraints;
    const cap = index.energyCap.get(lt.id)!;
    // With integer units, production and consumption are bounded per operating unit (milp.ts).
    const units = hasUnits(lt);
    if (lt.type !== "conversion_plus" && !units) {
      for (const carrier of prodCarriers(lt)) {
        const key = ltc(lt, carrier);
        const prod = index.carrierProd.get(key)!;
        for (let t = 0; t < T; t++) {
          // energy_cap is gross for supply_plus: parasitic losses come out of it.
          b.addRow(
            stepName(ctx, "carrier_production_max", key, t),
            -INF,
            0,
            [prod + t, cap],
            [1, -dt[t]! * at(c.parasitic_eff, t)],
          );
        }
        if (c.energy_cap_min_use !== undefined && c.energy_cap_min_use !== 0) {
          for (let t = 0; t < T; t++) {
            b.addRow(
              stepName(ctx, "carrier_production_min", key, t),
              0,
              INF,
              [prod + t, cap],
              [1, -dt[t]! * c.energy_cap_min_use],
            );
          }
        }
      }
    }
    if (
      !units && (lt.type === "demand" || lt.type === "storage" || lt.type === "transmission")
    ) {
      for (const carrier of conCarriers(lt)) {
        const key = ltc(lt, carrier);
        const con = index.carrierCon.get(key)!;
        for (let t = 0; t < T; t++) {
          b.addRow(
            stepName(ctx, "carrier_consumption_max", key, t),
            0,
            INF,
            [con + t, cap],
            [1, dt[t]!],
          );
        }
      }
    }
    if (lt.type === "supply_plus") {
      const rc = index.resourceCon.get(lt.id)!;
      const rcap = index.resourceCap.get(lt.id)!;
      for (let t = 0; t < T; t++) {
        b.addRow(stepName(ctx, "resource_max", lt.id, t), -INF, 0, [rc + t, rcap], [1, -dt[t]!]);
      }
    }
    if (lt.sets.store) {
      const s = index.storage.get(lt.id)!;
      const scap = index.storageCap.get(lt.id)!;
      if (interCluster(ctx)) addInterClusterStorage(ctx, lt);
      else {
        for (let t = 0; t < T; t++) {
          b.addRow(stepName(ctx, "storage_max", lt.id, t), -INF, 0, [s + t, scap], [1, -1]);
        }
      }
      const depth = c.storage_discharge_depth;
      if (depth) {
        for (let t = 0; t < T; t++) {
          b.addRow(
            stepName(ctx, "storage_discharge_depth", lt.id, t),
            0,
            INF,
            [s + t, scap],
            [1, -depth],
          );
        }
      }
    }
    if (lt.sets.ramping && c.energy_ramping !== undefined) addRamping(ctx, lt.id);
  }
}

/**
 * ramping_up/ramping_down: the change of (prod + con)/Δτ between consecutive steps is within
 * ±energy_ramping·energy_cap; no wrap-around at the first step.
 */
function addRamping(ctx: BuildContext, id: string): void {
  const { model, b, index, T } = ctx;
  const lt = ctx.byId.get(id)!;
  const rate = lt.constraints.energy_ramping!;
  const cap = index.energyCap.get(id)!;
  const dt = model.resolution;
  for (const carrier of prodCarriers(lt)) {
    const key = ltc(lt, carrier);
    const prod = index.carrierProd.get(key)!;
    const con = index.carrierCon.get(key);
    for (let t = 1; t < T; t++) {
      const r = at(rate, t);
      const cols = [prod + t, prod + t - 1, cap];
      const now = 1 / dt[t]!;
      const before = -1 / dt[t - 1]!;
      const vals = [now, before, 0];
      if (con !== undefined) {
        cols.push(con + t, con + t - 1);
        vals.push(now, before);
      }
      vals[2] = -r;
      b.addRow(stepName(ctx, "ramping_up", key, t), -INF, 0, cols, vals);
      vals[2] = r;
      b.addRow(stepName(ctx, "ramping_down", key, t), 0, INF, cols, vals);
    }
  }
}
