/**
 * Calliope 0.6 `constraints/milp.py` and the MILP variables of `variables.py`: integer `units`
 * and `operating_units`, binary `purchased` and `prod_con_switch`, with the unit capacity and
 * commitment, production and consumption bounds per operating unit (in place of the
 * capacity-based ones of dispatch.py and conversion_plus.py), purchase bounds on capacity,
 * systemwide unit bounds and the bigM rows of asynchronous production and consumption. The
 * purchase costs are added to cost_investment in costs.ts.
 */
import { at, type ResolvedLocTech } from "../model/preprocess/resolved_model.ts";
import type { BuildContext } from "./build_context.ts";
import { conCarriers, ltc, prodCarriers, stepName } from "./build_context.ts";

const INF = Infinity;

/** Whether `lt` is in Calliope's `loc_techs_milp` (its dispatch is bounded per operating unit). */
export function hasUnits(lt: ResolvedLocTech): boolean {
  return lt.milp?.units !== undefined;
}

/** Whether `lt`'s energy_cap is bounded by units or purchase rather than energy_capacity. */
export function capacityByMilp(lt: ResolvedLocTech): boolean {
  return lt.milp?.units !== undefined || lt.milp?.purchase === true;
}

/** Adds the integer and binary columns and records them in the index. */
export function addMilpVariables(ctx: BuildContext): void {
  const { model, b, index, T } = ctx;
  for (const lt of model.locTechs) {
    const m = lt.milp;
    if (m === undefined) continue;
    if (m.units !== undefined) {
      index.units.set(lt.id, b.addIntegerColumn(`units[${lt.id}]`, 0, INF));
      const base = b.numCols;
      for (let t = 0; t < T; t++) {
        b.addIntegerColumn(stepName(ctx, "operating_units", lt.id, t), 0, INF);
      }
      index.operatingUnits.set(lt.id, base);
    }
    if (m.purchase) index.purchased.set(lt.id, b.addIntegerColumn(`purchased[${lt.id}]`, 0, 1));
    if (m.asynchronous && (lt.sets.store || lt.type === "transmission")) {
      const base = b.numCols;
      for (let t = 0; t < T; t++) {
        b.addIntegerColumn(stepName(ctx, "prod_con_switch", lt.id, t), 0, 1);
      }
      index.prodConSwitch.set(lt.id, base);
    }
  }
}

/** Adds every MILP row. */
export function addMilp(ctx: BuildContext): void {
  for (const lt of ctx.model.locTechs) {
    if (lt.milp === undefined) continue;
    if (lt.milp.units !== undefined) addUnits(ctx, lt);
    if (lt.milp.purchase) addPurchase(ctx, lt);
    if (ctx.index.prodConSwitch.has(lt.id)) addAsynchronous(ctx, lt);
  }
  addUnitsSystemwide(ctx);
}

function addUnits(ctx: BuildContext, lt: ResolvedLocTech): void {
  const { model, b, index, T } = ctx;
  const m = lt.milp!;
  const u = m.units!;
  const units = index.units.get(lt.id)!;
  const op = index.operatingUnits.get(lt.id)!;
  const perUnit = m.energyCapPerUnit ?? 0;
  const dt = model.resolution;
  const c = lt.constraints;
  for (let t = 0; t < T; t++) {
    b.addRow(stepName(ctx, "unit_commitment_milp", lt.id, t), -INF, 0, [op + t, units], [1, -1]);
  }
  // Calliope's get_capacity_constraint on units.
  const name = `unit_capacity_milp[${lt.id}]`;
  if (u.equals !== undefined) b.addRow(name, u.equals, u.equals, [units], [1]);
  else if (!(u.min === 0 && u.max === INF)) b.addRow(name, u.min, u.max, [units], [1]);

  const minUse = c.energy_cap_min_use;
  if (lt.type === "conversion_plus") {
    // The primary output tier together, as carrier_production_max_conversion_plus.
    const outs = lt.carriers.out
      .map((carrier) => index.carrierProd.get(ltc(lt, carrier)))
      .filter((x): x is number => x !== undefined);
    for (let t = 0; t < T; t++) {
      b.beginRow(stepName(ctx, "carrier_production_max_conversion_plus_milp", lt.id, t), -INF, 0);
      for (const base of outs) b.term(base + t, 1);
      b.term(op + t, -dt[t]! * perUnit);
      if (minUse) {
        b.beginRow(stepName(ctx, "carrier_production_min_conversion_plus_milp", lt.id, t), 0, INF);
        for (const base of outs) b.term(base + t, 1);
        b.term(op + t, -dt[t]! * perUnit * minUse);
      }
    }
  } else {
    for (const carrier of prodCarriers(lt)) {
      const key = ltc(lt, carrier);
      const prod = index.carrierProd.get(key)!;
      for (let t = 0; t < T; t++) {
        b.addRow(
          stepName(ctx, "carrier_production_max_milp", key, t),
          -INF,
          0,
          [prod + t, op + t],
          [
            1,
            -dt[t]! * perUnit * at(c.parasitic_eff, t),
          ],
        );
        if (minUse) {
          b.addRow(
            stepName(ctx, "carrier_production_min_milp", key, t),
            0,
            INF,
            [prod + t, op + t],
            [
              1,
              -dt[t]! * perUnit * minUse,
            ],
          );
        }
      }
    }
  }
  if (lt.type === "demand" || lt.type === "storage" || lt.type === "transmission") {
    for (const carrier of conCarriers(lt)) {
      const key = ltc(lt, carrier);
      const con = index.carrierCon.get(key)!;
      for (let t = 0; t < T; t++) {
        b.addRow(stepName(ctx, "carrier_consumption_max_milp", key, t), 0, INF, [con + t, op + t], [
          1,
          dt[t]! * perUnit,
        ]);
      }
    }
  }
  if (m.energyCapPerUnit !== undefined) {
    b.addRow(`energy_capacity_units_milp[${lt.id}]`, 0, 0, [index.energyCap.get(lt.id)!, units], [
      1,
      -m.energyCapPerUnit,
    ]);
  }
  const scap = index.storageCap.get(lt.id);
  if (scap !== undefined && m.storageCapPerUnit !== undefined) {
    b.addRow(`storage_capacity_units_milp[${lt.id}]`, 0, 0, [scap, units], [
      1,
      -m.storageCapPerUnit,
    ]);
  }
}

/** Capacity bounds scaled by the binary `purchased`: nothing unless bought. */
function addPurchase(ctx: BuildContext, lt: ResolvedLocTech): void {
  const { b, index } = ctx;
  const c = lt.constraints;
  const p = index.purchased.get(lt.id)!;
  const cap = index.energyCap.get(lt.id)!;
  const scale = c.energy_cap_scale;
  if (c.energy_cap_equals !== undefined) {
    b.addRow(`energy_capacity_max_purchase_milp[${lt.id}]`, 0, 0, [cap, p], [
      1,
      -c.energy_cap_equals * scale,
    ]);
  } else {
    if (Number.isFinite(c.energy_cap_max)) {
      b.addRow(`energy_capacity_max_purchase_milp[${lt.id}]`, -INF, 0, [cap, p], [
        1,
        -c.energy_cap_max * scale,
      ]);
    }
    if (c.energy_cap_min) {
      b.addRow(`energy_capacity_min_purchase_milp[${lt.id}]`, 0, INF, [cap, p], [
        1,
        -c.energy_cap_min * scale,
      ]);
    }
  }
  const scap = index.storageCap.get(lt.id);
  if (scap === undefined) return;
  if (c.storage_cap_equals !== undefined) {
    b.addRow(`storage_capacity_max_purchase_milp[${lt.id}]`, 0, 0, [scap, p], [
      1,
      -c.storage_cap_equals,
    ]);
  } else {
    if (c.storage_cap_max && Number.isFinite(c.storage_cap_max)) {
      b.addRow(`storage_capacity_max_purchase_milp[${lt.id}]`, -INF, 0, [scap, p], [
        1,
        -c.storage_cap_max,
      ]);
    }
    if (c.storage_cap_min) {
      b.addRow(`storage_capacity_min_purchase_milp[${lt.id}]`, 0, INF, [scap, p], [
        1,
        -c.storage_cap_min,
      ]);
    }
  }
}

/** prod ≤ bigM·switch and −con ≤ bigM·(1 − switch): one direction per timestep. */
function addAsynchronous(ctx: BuildContext, lt: ResolvedLocTech): void {
  const { model, b, index, T } = ctx;
  const s = index.prodConSwitch.get(lt.id)!;
  const bigM = model.bigM;
  // Storage and transmission have one carrier (Calliope's lookup_loc_techs).
  const carrier = prodCarriers(lt)[0] ?? conCarriers(lt)[0];
  if (carrier === undefined) return;
  const prod = index.carrierProd.get(ltc(lt, carrier));
  const con = index.carrierCon.get(ltc(lt, carrier));
  for (let t = 0; t < T; t++) {
    if (con !== undefined) {
      b.addRow(stepName(ctx, "asynchronous_con_milp", lt.id, t), -INF, bigM, [con + t, s + t], [
        -1,
        bigM,
      ]);
    }
    if (prod !== undefined) {
      b.addRow(stepName(ctx, "asynchronous_prod_milp", lt.id, t), -INF, 0, [prod + t, s + t], [
        1,
        -bigM,
      ]);
    }
  }
}

/** Σ units + purchased of a technology ≤ max (= equals); a link's two ends against twice it. */
function addUnitsSystemwide(ctx: BuildContext): void {
  const { model, b, index } = ctx;
  const byTech = new Map<string, ResolvedLocTech[]>();
  for (const lt of model.locTechs) {
    const list = byTech.get(lt.tech);
    if (list) list.push(lt);
    else byTech.set(lt.tech, [lt]);
  }
  for (const [tech, lts] of byTech) {
    const m = lts[0]!.milp;
    const max = m?.unitsMaxSystemwide;
    const equals = m?.unitsEqualsSystemwide;
    if (equals === undefined && (max === undefined || max === INF)) continue;
    const mult = lts[0]!.type === "transmission" ? 2 : 1;
    const cols: number[] = [];
    for (const lt of lts) {
      const u = index.units.get(lt.id);
      if (u !== undefined) cols.push(u);
      const p = index.purchased.get(lt.id);
      if (p !== undefined) cols.push(p);
    }
    const ones = cols.map(() => 1);
    const name = `unit_capacity_systemwide_milp[${tech}]`;
    if (equals !== undefined) b.addRow(name, equals * mult, equals * mult, cols, ones);
    else b.addRow(name, -INF, max! * mult, cols, ones);
  }
}
