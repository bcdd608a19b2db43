/**
 * The one way the adapters pick a technology's instance by its index, and the instance figures
 * both adapters read when an instance has them (storage per kWh, lines per km, fuel and basis).
 */
import type { Instance } from "../schema/technology_schema.ts";

/** Figures both adapters use where an instance has them; absent in older callers' inputs. */
export type AdapterOptionalFields = Partial<
  Pick<
    Instance,
    | "capex_usd_per_kwh"
    | "opex_fixed_usd_per_kwh_yr"
    | "capex_usd_per_kw_km"
    | "opex_fixed_usd_per_kw_km_yr"
    | "year"
    | "fuel"
    | "capacity_basis"
    | "capacity_unit"
  >
>;

/** A technology has no instance at the index asked for (the server answers 404). */
export class NoSuchInstanceError extends RangeError {
  override name = "NoSuchInstanceError";
}

/**
 * The instance at `index` (0-based) of a technology; throws NoSuchInstanceError when the index
 * is not a non-negative integer below the number of instances.
 */
export function pickInstance<T>(
  technology: { readonly technology_id: string; readonly instances: readonly T[] },
  index: number,
): T {
  const { technology_id, instances } = technology;
  const instance = Number.isInteger(index) && index >= 0 ? instances[index] : undefined;
  if (instance === undefined) {
    throw new NoSuchInstanceError(
      `Technology "${technology_id}" has no instance ${index} (it has ${instances.length})`,
    );
  }
  return instance;
}
