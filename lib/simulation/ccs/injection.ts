/**
 * Transport and injection into the store: what arrives (the released CO2 times the storage
 * efficiency) is injected up to the injection rate and the room left; the reservoir pressure
 * follows a linear fill model.
 *
 * Source: research notes section 2.5 ("Injection"): `inj = min(released·η_storage,
 * injection_rate_tph, capacity_left)`, and the simpler linear fill model
 * `p = p_min + (M/M_cap)·(p_max − p_min)`, clipped; the rest is vented.
 */

/** Storage site data. */
export interface StorageSite {
  /** Capacity of the store, t CO2. */
  readonly capacityT: number;
  /** Largest injection rate, t/h. */
  readonly maxInjectionTph: number;
  /** Share of the delivered CO2 that stays stored, 0–1. */
  readonly storageEfficiency: number;
  /** Reservoir pressure when empty and when full, bar. */
  readonly minPressureBar: number;
  readonly maxPressureBar: number;
}

/**
 * Injection rate, t/h, over a step of `dtH` hours with `storedT` already in the store: never
 * above `releasedTph·η_storage`, the injection rate, or the room left divided by the step.
 */
export function injectionTph(
  releasedTph: number,
  storedT: number,
  dtH: number,
  site: StorageSite,
): number {
  const room = Math.max(0, site.capacityT - storedT);
  const roomRate = dtH > 0 ? room / dtH : 0;
  return Math.max(
    0,
    Math.min(releasedTph * site.storageEfficiency, site.maxInjectionTph, roomRate),
  );
}

/** Reservoir pressure, bar, at `storedT` by the linear fill model, clipped to [p_min, p_max]. */
export function reservoirPressureBar(storedT: number, site: StorageSite): number {
  const fill = Math.min(1, Math.max(0, storedT / site.capacityT));
  return site.minPressureBar + fill * (site.maxPressureBar - site.minPressureBar);
}
