/**
 * Calliope 0.6 `constraints/energy_balance.py`: the system balance per location, carrier and
 * timestep, resource availability of supply, demand and supply_plus, storage balances (with
 * cyclic storage) and transmission balances (loss applied once, at the receiving end).
 */
import { at, type ResolvedLocTech } from "../model/preprocess/resolved_model.ts";
import type { BuildContext } from "./build_context.ts";
import { ltc, primaryCarrier, remoteEnd, stepName } from "./build_context.ts";
import type { LpName } from "./lp_name_list.ts";
import { locCarriers } from "./variables.ts";
import { clusteredPrevious, type DayBounds, dayBounds, interCluster } from "./cluster_storage.ts";

const INF = Infinity;

/** The available (or required) resource A = resource·scale·{area | energy_cap | 1}. */
interface Available {
  /** resource·scale at this timestep (the coefficient of `col`, or A itself). */
  readonly value: number;
  /** resource_area or energy_cap column, for the per-area and per-capacity units. */
  readonly col?: number;
}

function available(ctx: BuildContext, lt: ResolvedLocTech, t: number): Available {
  const c = lt.constraints;
  const value = at(c.resource, t) * c.resource_scale;
  if (c.resource_unit === "energy_per_area") {
    const col = ctx.index.resourceArea.get(lt.id);
    if (col === undefined) throw new TypeError(`${lt.id}: energy_per_area without resource_area`);
    return { value, col };
  }
  if (c.resource_unit === "energy_per_cap") return { value, col: ctx.index.energyCap.get(lt.id)! };
  return { value };
}

/** A row name such as `system_balance[region1::power,2005-01-01T00:00:00]`. */
function name(family: string, key: string, ctx: BuildContext, t: number): LpName {
  return stepName(ctx, family, key, t);
}

/** Row bounds of `expr (sense) rhs`. */
function senseBounds(sense: "=" | "<=" | ">=", rhs: number): [number, number] {
  if (sense === "=") return [rhs, rhs];
  if (sense === "<=") return [-INF, rhs];
  return [rhs, INF];
}

/** system_balance: Σ prod + Σ con − Σ export (+ unmet + unused) = 0 per loc::carrier, τ. */
function systemBalance(ctx: BuildContext): void {
  const { b, index, T, model } = ctx;
  const prod = new Map<string, number[]>();
  const con = new Map<string, number[]>();
  const exp = new Map<string, number[]>();
  const push = (m: Map<string, number[]>, k: string, v: number) => {
    const l = m.get(k);
    if (l) l.push(v);
    else m.set(k, [v]);
  };
  for (const lt of model.locTechs) {
    for (const tier of [lt.carriers.out, lt.carriers.out_2, lt.carriers.out_3]) {
      for (const c of tier) {
        const base = index.carrierProd.get(ltc(lt, c));
        if (base !== undefined && !(prod.get(`${lt.location}::${c}`) ?? []).includes(base)) {
          push(prod, `${lt.location}::${c}`, base);
        }
      }
    }
    for (const tier of [lt.carriers.in, lt.carriers.in_2, lt.carriers.in_3]) {
      for (const c of tier) {
        const base = index.carrierCon.get(ltc(lt, c));
        if (base !== undefined && !(con.get(`${lt.location}::${c}`) ?? []).includes(base)) {
          push(con, `${lt.location}::${c}`, base);
        }
      }
    }
    const ec = lt.constraints.export_carrier;
    if (ec !== undefined) {
      const base = index.carrierExport.get(ltc(lt, ec));
      if (base !== undefined) push(exp, `${lt.location}::${ec}`, base);
    }
  }
  for (const lc of locCarriers(ctx)) {
    const p = prod.get(lc) ?? [];
    const c = con.get(lc) ?? [];
    const e = exp.get(lc) ?? [];
    const unmet = index.unmetDemand.get(lc);
    const unused = index.unusedSupply.get(lc);
    index.systemBalance.set(lc, b.numRows);
    for (let t = 0; t < T; t++) {
      b.beginRow(name("system_balance", lc, ctx, t), 0, 0);
      for (const base of p) b.term(base + t, 1);
      for (const base of c) b.term(base + t, 1);
      for (const base of e) b.term(base + t, -1);
      if (unmet !== undefined) b.term(unmet + t, 1);
      if (unused !== undefined) b.term(unused + t, 1);
    }
  }
}

/** balance_supply: carrier_prod/energy_eff ≤ A (= A when forced; ≥ min_use·A too). */
function balanceSupply(ctx: BuildContext, lt: ResolvedLocTech): void {
  const { b, index, T } = ctx;
  const c = lt.constraints;
  const carrier = primaryCarrier(lt);
  if (carrier === undefined) return;
  const prod = index.carrierProd.get(ltc(lt, carrier));
  if (prod === undefined) return;
  for (let t = 0; t < T; t++) {
    const eff = at(c.energy_eff, t);
    const rowName = name("balance_supply", lt.id, ctx, t);
    if (eff === 0) {
      b.addRow(rowName, 0, 0, [prod + t], [1]);
      continue;
    }
    const a = available(ctx, lt, t);
    if (!Number.isFinite(a.value)) continue;
    const minUse = c.resource_min_use;
    if (a.col === undefined) {
      const [lo, hi] = c.force_resource
        ? [a.value, a.value]
        : minUse
        ? [minUse * a.value, a.value]
        : [-INF, a.value];
      b.addRow(rowName, lo, hi, [prod + t], [1 / eff]);
    } else {
      const [lo, hi] = c.force_resource ? [0, 0] : [-INF, 0];
      b.addRow(rowName, lo, hi, [prod + t, a.col], [1 / eff, -a.value]);
      if (!c.force_resource && minUse) {
        b.addRow(
          name("balance_supply_min_use", lt.id, ctx, t),
          0,
          INF,
          [prod + t, a.col],
          [1 / eff, -minUse * a.value],
        );
      }
    }
  }
}

/** balance_demand: carrier_con·energy_eff = A (≥ A when not forced); demand A is negative. */
function balanceDemand(ctx: BuildContext, lt: ResolvedLocTech): void {
  const { b, index, T } = ctx;
  const c = lt.constraints;
  const carrier = primaryCarrier(lt);
  if (carrier === undefined) return;
  const con = index.carrierCon.get(ltc(lt, carrier));
  if (con === undefined) return;
  const sense = c.force_resource ? "=" : ">=";
  for (let t = 0; t < T; t++) {
    const eff = at(c.energy_eff, t);
    const a = available(ctx, lt, t);
    if (!Number.isFinite(a.value)) continue;
    const rowName = name("balance_demand", lt.id, ctx, t);
    if (a.col === undefined) {
      const [lo, hi] = senseBounds(sense, a.value);
      b.addRow(rowName, lo, hi, [con + t], [eff]);
    } else {
      const [lo, hi] = senseBounds(sense, 0);
      b.addRow(rowName, lo, hi, [con + t, a.col], [eff, -a.value]);
    }
  }
}

/** resource_availability_supply_plus: resource_con ≤ A (= A when forced). */
function resourceAvailabilitySupplyPlus(ctx: BuildContext, lt: ResolvedLocTech): void {
  const { b, index, T } = ctx;
  const rc = index.resourceCon.get(lt.id)!;
  const sense = lt.constraints.force_resource ? "=" : "<=";
  for (let t = 0; t < T; t++) {
    const a = available(ctx, lt, t);
    if (!Number.isFinite(a.value)) continue;
    const rowName = name("resource_availability_supply_plus", lt.id, ctx, t);
    if (a.col === undefined) {
      const [lo, hi] = senseBounds(sense, a.value);
      b.addRow(rowName, lo, hi, [rc + t], [1]);
    } else {
      const [lo, hi] = senseBounds(sense, 0);
      b.addRow(rowName, lo, hi, [rc + t, a.col], [1, -a.value]);
    }
  }
}

/**
 * Adds −S_prev to the open row: (1−loss)^{Δ_{τ−1}}·storage_{τ−1}, wrapping to the last step
 * when storage is cyclic, else storage_initial·storage_cap at the first step. Clustered, a day
 * follows its own last step, or starts at 0 with storage between days (cluster_storage.ts).
 */
function minusPrevious(
  ctx: BuildContext,
  lt: ResolvedLocTech,
  t: number,
  bounds: DayBounds | undefined,
): void {
  const { b, index, T, model } = ctx;
  if (t === 0 && !model.cyclicStorage) {
    b.term(index.storageCap.get(lt.id)!, -(lt.constraints.storage_initial ?? 0));
    return;
  }
  const clustered = bounds === undefined ? undefined : clusteredPrevious(ctx, bounds, t);
  if (clustered === "zero") return;
  const prev = clustered ?? (t === 0 ? T - 1 : t - 1);
  const loss = at(lt.constraints.storage_loss, prev);
  b.term(index.storage.get(lt.id)! + prev, -Math.pow(1 - loss, model.resolution[prev]!));
}

/** balance_supply_plus: resource_con·resource_eff = prod/η, or into storage when it stores. */
function balanceSupplyPlus(ctx: BuildContext, lt: ResolvedLocTech): void {
  const { b, index, T } = ctx;
  const c = lt.constraints;
  const carrier = primaryCarrier(lt);
  const prod = carrier === undefined ? undefined : index.carrierProd.get(ltc(lt, carrier));
  const rc = index.resourceCon.get(lt.id)!;
  const store = index.storage.get(lt.id);
  const bounds = clusterBounds(ctx);
  for (let t = 0; t < T; t++) {
    const eta = at(c.energy_eff, t) * at(c.parasitic_eff, t);
    const reff = at(c.resource_eff, t);
    b.beginRow(name("balance_supply_plus", lt.id, ctx, t), 0, 0);
    if (store === undefined) {
      b.term(rc + t, reff);
      if (eta !== 0 && prod !== undefined) b.term(prod + t, -1 / eta);
    } else {
      b.term(store + t, 1);
      minusPrevious(ctx, lt, t, bounds);
      b.term(rc + t, -reff);
      if (eta !== 0 && prod !== undefined) b.term(prod + t, 1 / eta);
    }
  }
}

/** balance_storage: storage_τ = S_prev − carrier_prod/eff − carrier_con·eff. */
function balanceStorage(ctx: BuildContext, lt: ResolvedLocTech): void {
  const { b, index, T } = ctx;
  const c = lt.constraints;
  const carrier = primaryCarrier(lt);
  if (carrier === undefined) return;
  const prod = index.carrierProd.get(ltc(lt, carrier));
  const con = index.carrierCon.get(ltc(lt, carrier));
  const store = index.storage.get(lt.id)!;
  const bounds = clusterBounds(ctx);
  for (let t = 0; t < T; t++) {
    const eff = at(c.energy_eff, t);
    b.beginRow(name("balance_storage", lt.id, ctx, t), 0, 0);
    b.term(store + t, 1);
    minusPrevious(ctx, lt, t, bounds);
    if (eff !== 0 && prod !== undefined) b.term(prod + t, 1 / eff);
    if (con !== undefined) b.term(con + t, eff);
  }
}

/** storage_initial (cyclic storage with storage_initial set): last level decayed = initial. */
function storageInitial(ctx: BuildContext, lt: ResolvedLocTech): void {
  const { b, index, T, model } = ctx;
  const initial = lt.constraints.storage_initial;
  // With storage between clustered days the carried level holds it (cluster_storage.ts).
  if (!model.cyclicStorage || initial === undefined || T === 0 || interCluster(ctx)) return;
  const last = T - 1;
  const decay = Math.pow(1 - at(lt.constraints.storage_loss, last), model.resolution[last]!);
  b.addRow(
    `storage_initial[${lt.id}]`,
    0,
    0,
    [index.storage.get(lt.id)! + last, index.storageCap.get(lt.id)!],
    [decay, -initial],
  );
}

/** balance_transmission: prod(l1::T:l2) = −energy_eff·con(l2::T:l1), per carrier. */
function balanceTransmission(ctx: BuildContext, lt: ResolvedLocTech): void {
  const { b, index, T } = ctx;
  if (!lt.constraints.energy_prod) return;
  const remote = remoteEnd(ctx, lt);
  const carrier = primaryCarrier(lt);
  if (remote === undefined || carrier === undefined) return;
  const prod = index.carrierProd.get(ltc(lt, carrier));
  const con = index.carrierCon.get(ltc(remote, carrier));
  if (prod === undefined || con === undefined) return;
  for (let t = 0; t < T; t++) {
    b.addRow(
      name("balance_transmission", lt.id, ctx, t),
      0,
      0,
      [prod + t, con + t],
      [1, at(lt.constraints.energy_eff, t)],
    );
  }
}

/** The day bounds of a clustered timeline (undefined when not clustered). */
function clusterBounds(ctx: BuildContext): DayBounds | undefined {
  return ctx.model.clusters === undefined ? undefined : dayBounds(ctx.model.timestamps);
}

/** Adds every energy-balance family. */
export function addEnergyBalance(ctx: BuildContext): void {
  systemBalance(ctx);
  for (const lt of ctx.model.locTechs) {
    const finite = lt.sets.finiteResource;
    switch (lt.type) {
      case "supply":
        if (finite) balanceSupply(ctx, lt);
        break;
      case "demand":
        if (finite) balanceDemand(ctx, lt);
        break;
      case "supply_plus":
        if (finite) resourceAvailabilitySupplyPlus(ctx, lt);
        balanceSupplyPlus(ctx, lt);
        break;
      case "storage":
        balanceStorage(ctx, lt);
        break;
      case "transmission":
        balanceTransmission(ctx, lt);
        break;
      default:
        break;
    }
    if (lt.sets.store) storageInitial(ctx, lt);
  }
}
