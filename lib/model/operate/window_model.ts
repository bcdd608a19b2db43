/**
 * The model of one operate solve: timesteps `start..end` (half-open) of the whole-period model,
 * every per-timestep series cut to them, and each store's `storage_initial` (a fraction of its
 * storage_cap) set to what the previous window left.
 */
import type { ResolvedLocTech, ResolvedModel } from "../preprocess/resolved_model.ts";

/** `model` cut to timesteps start..end, with `storageInitial` by loc::tech id applied. */
export function windowModel(
  model: ResolvedModel,
  start: number,
  end: number,
  storageInitial: ReadonlyMap<string, number> = new Map(),
): ResolvedModel {
  const T = model.timestamps.length;
  const cut = <V>(record: V): V => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(record as Record<string, unknown>)) {
      out[k] = Array.isArray(v) && v.length === T ? v.slice(start, end) : v;
    }
    return out as V;
  };
  const locTechs = model.locTechs.map((lt): ResolvedLocTech => {
    const initial = storageInitial.get(lt.id);
    const constraints = cut(lt.constraints);
    const costs: Record<string, ResolvedLocTech["costs"][string]> = {};
    for (const [cls, c] of Object.entries(lt.costs)) costs[cls] = cut(c);
    return {
      ...lt,
      constraints: initial === undefined
        ? constraints
        : { ...constraints, storage_initial: initial },
      costs,
    };
  });
  return {
    ...model,
    timestamps: model.timestamps.slice(start, end),
    resolution: model.resolution.slice(start, end),
    weights: model.weights.slice(start, end),
    locTechs,
  };
}
