/**
 * A storage's own terms: the energy capacity cost (storage_cap) the catalogue gives, and the
 * self-discharge and energy-to-power ratio it does not (both left to Calliope's defaults).
 */
import { type CalliopeDraft, given } from "./calliope_draft.ts";
import type { CalliopeInstanceInput } from "./calliope_input.ts";

/** Sets storage_cap, leaves out storage_loss and energy_cap_per_storage_cap_max, with notes. */
export function setStorageTerms(
  draft: CalliopeDraft,
  instance: Pick<CalliopeInstanceInput, "capex_usd_per_kwh" | "opex_fixed_usd_per_kwh_yr">,
): void {
  draft.setConstraint("storage_loss", null);
  draft.setConstraint("energy_cap_per_storage_cap_max", null);
  draft.setCost("storage_cap", instance.capex_usd_per_kwh);
  const fomKwh = instance.opex_fixed_usd_per_kwh_yr;
  if (given(fomKwh)) {
    draft.notes.push(
      `Fixed O&M of ${fomKwh} USD/kWh/a (opex_fixed_usd_per_kwh_yr) is not in the costs: ` +
        "Calliope 0.6 has no fixed O&M per storage_cap; add it to storage_cap as its present " +
        "value, fixed O&M / depreciation_rate",
    );
  }
  draft.notes.push(
    "storage_loss and energy_cap_per_storage_cap_max left out: the catalogue has no " +
      "self-discharge and no energy-to-power ratio",
  );
}
