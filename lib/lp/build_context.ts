/**
 * State shared by the constraint families while one LP is built: the model, the builder, the
 * index being filled and Calliope's set lookups (which carriers a loc_tech produces or consumes,
 * its primary carrier, the remote end of a link).
 */
import type { ResolvedLocTech, ResolvedModel } from "../model/preprocess/resolved_model.ts";
import type { CostExpression, LpIndex } from "./lp_index.ts";
import { LpBuilder } from "./lp_builder.ts";
import type { LpName } from "./lp_name_list.ts";

/** An LpIndex whose maps are still being filled. */
export interface MutableLpIndex extends LpIndex {
  size: { variables: number; constraints: number; nonzeros: number };
  readonly energyCap: Map<string, number>;
  readonly storageCap: Map<string, number>;
  readonly resourceCap: Map<string, number>;
  readonly resourceArea: Map<string, number>;
  readonly carrierProd: Map<string, number>;
  readonly carrierCon: Map<string, number>;
  readonly carrierExport: Map<string, number>;
  readonly storage: Map<string, number>;
  readonly resourceCon: Map<string, number>;
  readonly units: Map<string, number>;
  readonly purchased: Map<string, number>;
  readonly operatingUnits: Map<string, number>;
  readonly demandShareDecision: Map<string, number>;
  readonly storageInterCluster: Map<string, number>;
  readonly prodConSwitch: Map<string, number>;
  readonly unmetDemand: Map<string, number>;
  readonly unusedSupply: Map<string, number>;
  readonly systemBalance: Map<string, number>;
  readonly costs: Map<string, Map<string, CostExpression>>;
}

/** Everything a constraint family needs. */
export interface BuildContext {
  readonly model: ResolvedModel;
  readonly b: LpBuilder;
  readonly index: MutableLpIndex;
  /** Number of timesteps. */
  readonly T: number;
  /** Timestamps as written in names. */
  readonly ts: readonly string[];
  /** W: the modelled fraction of a year, Σ Δτ·w_τ / 8760. */
  readonly W: number;
  /** loc_tech id -> loc_tech. */
  readonly byId: ReadonlyMap<string, ResolvedLocTech>;
}

/** A fresh context for `model`. */
export function createContext(model: ResolvedModel): BuildContext {
  const T = model.timestamps.length;
  let hours = 0;
  for (let t = 0; t < T; t++) hours += model.resolution[t]! * model.weights[t]!;
  return {
    model,
    b: new LpBuilder(model.timestamps),
    index: {
      numTimesteps: T,
      size: { variables: 0, constraints: 0, nonzeros: 0 },
      energyCap: new Map(),
      storageCap: new Map(),
      resourceCap: new Map(),
      resourceArea: new Map(),
      carrierProd: new Map(),
      carrierCon: new Map(),
      carrierExport: new Map(),
      storage: new Map(),
      resourceCon: new Map(),
      units: new Map(),
      purchased: new Map(),
      operatingUnits: new Map(),
      demandShareDecision: new Map(),
      storageInterCluster: new Map(),
      prodConSwitch: new Map(),
      unmetDemand: new Map(),
      unusedSupply: new Map(),
      systemBalance: new Map(),
      costs: new Map(),
    },
    T,
    ts: model.timestamps,
    W: hours / 8760,
    byId: new Map(model.locTechs.map((lt) => [lt.id, lt])),
  };
}

/**
 * `family[key,timestamp]`, the name of a time-indexed column or row, as the builder's code for it:
 * a big model has millions, made only when read (lp_name_list.ts).
 */
export function stepName(ctx: BuildContext, family: string, key: string, t: number): LpName {
  return ctx.b.stepName(family, key, t);
}

function unique(list: readonly string[]): string[] {
  return [...new Set(list)];
}

/** Carriers of `loc_tech_carriers_prod` for this loc_tech (energy_prod × out tiers). */
export function prodCarriers(lt: ResolvedLocTech): string[] {
  if (!lt.constraints.energy_prod) return [];
  return unique([...lt.carriers.out, ...lt.carriers.out_2, ...lt.carriers.out_3]);
}

/** Carriers of `loc_tech_carriers_con` for this loc_tech (energy_con × in tiers). */
export function conCarriers(lt: ResolvedLocTech): string[] {
  if (!lt.constraints.energy_con) return [];
  return unique([...lt.carriers.in, ...lt.carriers.in_2, ...lt.carriers.in_3]);
}

/** Calliope's `lookup_loc_techs`: the loc_tech's own carrier (demand: what it consumes). */
export function primaryCarrier(lt: ResolvedLocTech): string | undefined {
  if (lt.type === "demand") return lt.carriers.in[0] ?? lt.carriers.out[0];
  return lt.primary_carrier_out ?? lt.carriers.out[0];
}

/** The primary input carrier (conversion_plus `primary_carrier_in`, else the first input). */
export function primaryCarrierIn(lt: ResolvedLocTech): string | undefined {
  return lt.primary_carrier_in ?? lt.carriers.in[0];
}

/** `loc::tech::carrier`. */
export function ltc(lt: ResolvedLocTech, carrier: string): string {
  return `${lt.id}::${carrier}`;
}

/** The other end of a link (`remote::tech:loc`), if it is in the model. */
export function remoteEnd(ctx: BuildContext, lt: ResolvedLocTech): ResolvedLocTech | undefined {
  if (lt.remote === undefined) return undefined;
  return ctx.byId.get(`${lt.remote}::${lt.tech}:${lt.location}`);
}
