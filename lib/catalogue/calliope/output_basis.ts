/**
 * Capacity basis: Calliope's `energy_cap` of a conversion is its carrier_out capacity; an
 * instance costed per kW of input is converted to per kW of output (÷ efficiency).
 */
import { type CalliopeDraft, given } from "./calliope_draft.ts";
import type { CalliopeInstanceInput } from "./calliope_input.ts";
import type { CapacityConversion } from "../adapters/fuel_link.ts";

/** The per-capacity figures on Calliope's basis, and how they were moved there. */
export interface OutputBasisCosts {
  /** USD/kW. */
  capex: number | null | undefined;
  /** USD/kW/a. */
  fom: number | null | undefined;
  /** USD/MWh. */
  vom: number | null | undefined;
  /** null when the instance's basis is Calliope's already. */
  conversion: CapacityConversion | null;
}

/**
 * Capex, fixed and variable O&M per kW of Calliope's `energy_cap`. A conversion costed per kW of
 * input without an efficiency has none: they are null and the draft's notes say why.
 */
export function outputBasisCosts(
  { parent, notes }: CalliopeDraft,
  instance: Pick<
    CalliopeInstanceInput,
    | "capex_usd_per_kw"
    | "opex_fixed_usd_per_kw_yr"
    | "opex_var_usd_per_mwh"
    | "efficiency_percent"
    | "capacity_basis"
    | "capacity_unit"
  >,
): OutputBasisCosts {
  const asGiven: OutputBasisCosts = {
    capex: instance.capex_usd_per_kw,
    fom: instance.opex_fixed_usd_per_kw_yr,
    vom: instance.opex_var_usd_per_mwh,
    conversion: null,
  };
  if (parent !== "conversion" || instance.capacity_basis !== "input") return asGiven;
  const eff = instance.efficiency_percent;
  if (!(given(eff) && eff > 0)) {
    notes.push(
      "energy_cap, om_annual and om_prod left out: the instance is costed per kW of input, " +
        "Calliope's energy_cap is the output, and converting needs efficiency_percent",
    );
    return { capex: null, fom: null, vom: null, conversion: null };
  }
  const efficiency = eff / 100;
  const factor = 1 / efficiency;
  const conversion: CapacityConversion = {
    from: "input",
    to: "output",
    factor,
    efficiency,
    converted: {},
  };
  const convert = (field: string, value: number | null | undefined): number | null => {
    if (!given(value)) return null;
    const after = value * factor;
    conversion.converted[field] = { before: value, after };
    return after;
  };
  const costs: OutputBasisCosts = {
    capex: convert("capex_usd_per_kw", asGiven.capex),
    fom: convert("opex_fixed_usd_per_kw_yr", asGiven.fom),
    vom: convert("opex_var_usd_per_mwh", asGiven.vom),
    conversion,
  };
  notes.push(
    `Capacity basis: the catalogue costs this instance per kW of input ` +
      `(${instance.capacity_unit ?? "input"}); Calliope's energy_cap of a conversion is its ` +
      `output (carrier_out), so capex, fixed and variable O&M are ÷ efficiency ${efficiency} ` +
      "per kW of output (conversion)",
  );
  return costs;
}
