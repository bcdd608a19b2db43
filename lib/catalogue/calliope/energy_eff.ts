/**
 * `constraints.energy_eff` from the catalogue's efficiency_percent: ÷ 100; for storage
 * √(round trip / 100), as Calliope 0.6 applies energy_eff on charge and on discharge
 * (calliope/config/defaults.yaml; backend/pyomo/constraints/energy_balance.py); 1 with a
 * capacity-factor resource, which is output per kW of capacity already.
 */
import { type CalliopeDraft, given } from "./calliope_draft.ts";

/** Sets energy_eff from `eff` (efficiency_percent, for storage the round trip). */
export function setEnergyEff(
  draft: CalliopeDraft,
  eff: number | null | undefined,
  capacityFactor: boolean,
): void {
  if (capacityFactor) {
    // A capacity factor is output per kW: the plant's losses are in it already.
    draft.constraints.energy_eff = 1;
    if (given(eff) && eff !== 100) {
      draft.notes.push(
        `energy_eff = 1, not the catalogue's ${eff / 100}: the resource is a capacity factor ` +
          "(electricity out per kW of capacity), which includes the plant's losses; " +
          `${eff} % on top would cut the output by ${100 - eff} %`,
      );
    }
  } else {
    draft.setConstraint(
      "energy_eff",
      given(eff) ? (draft.parent === "storage" ? Math.sqrt(eff / 100) : eff / 100) : null,
    );
  }
}

/** Notes a storage's one-way energy_eff, when the catalogue gives its round trip. */
export function noteStorageEnergyEff(
  { parent, notes }: CalliopeDraft,
  eff: number | null | undefined,
): void {
  if (parent === "storage" && given(eff)) {
    notes.push(
      `energy_eff = √(round trip ${eff / 100}): Calliope 0.6 applies energy_eff on charge and ` +
        "on discharge; the catalogue gives the round trip only",
    );
  }
}
