/**
 * Distance: Calliope 0.6 transmission takes energy_cap_per_distance (cost per kW and unit of
 * distance) and energy_eff_per_distance (calliope/config/defaults.yaml). It measures a link in
 * metres (Vincenty from lat/lon, or the link's own `distance`) and has no distance unit setting
 * (`run.distance_unit` is Calliope 0.7), so every per-distance value is per metre: the
 * catalogue's USD/kW/km ÷ 1000.
 */
import { type CalliopeDraft, given } from "./calliope_draft.ts";
import type { CalliopeInstanceInput } from "./calliope_input.ts";

/** Metres per kilometre: Calliope 0.6 link distances are in metres, the catalogue's in km. */
const M_PER_KM = 1000;

/** A per-km figure per metre, without the float noise of the division (15 digits). */
function perMetre(perKm: number): number {
  return Number((perKm / M_PER_KM).toPrecision(15));
}

/** Sets a transmission's per-distance cost and notes what Calliope 0.6 cannot take per distance. */
export function setPerDistanceCosts(
  draft: CalliopeDraft,
  instance: Pick<CalliopeInstanceInput, "capex_usd_per_kw_km" | "opex_fixed_usd_per_kw_km_yr">,
): void {
  const { costs, notes } = draft;
  const capexKm = instance.capex_usd_per_kw_km;
  if (given(capexKm)) {
    costs.energy_cap_per_distance = perMetre(capexKm);
    notes.push(
      `energy_cap_per_distance = ${capexKm} USD/kW/km / 1000 = ${perMetre(capexKm)} USD/kW ` +
        "per metre: Calliope 0.6 measures links in metres (from the locations' coordinates, " +
        "or links.<a,b>.techs.<id>.distance, which must then be in metres too)",
    );
    const fomKm = instance.opex_fixed_usd_per_kw_km_yr;
    if (given(fomKm)) {
      notes.push(
        `Fixed O&M of ${fomKm} USD/kW/km/a (${perMetre(fomKm)} USD/kW/m/a) is not in the ` +
          "costs: Calliope 0.6 has no fixed O&M per distance; add its present value to " +
          "energy_cap_per_distance if wanted",
      );
    }
  }
  draft.setConstraint("energy_eff_per_distance", null);
  notes.push("energy_eff_per_distance left out: the catalogue has no loss per distance");
}
