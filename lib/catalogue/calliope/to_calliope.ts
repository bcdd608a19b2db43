/**
 * Technology instance -> Calliope 0.6 technology definition (`techs.<id>`: essentials,
 * constraints, costs per cost class). Calliope works in kW and kWh, the catalogue in MW and MWh.
 * A figure the catalogue does not give is left out, so Calliope applies its own default, and the
 * report names it. Every key is one Calliope 0.6 knows (`calliope_keys.ts`). The rules of each
 * kind of figure are files of their own: capacity basis (`output_basis.ts`), efficiency
 * (`energy_eff.ts`), a variable renewable's resource (`supply_plus_resource.ts`), per-distance
 * costs (`per_distance_costs.ts`), fuel and CO2 (`fuel_costs.ts`), storage (`storage_terms.ts`).
 */
import type {
  CalliopeConfig,
  CalliopeReport,
  CalliopeTech,
  CalliopeTechs,
} from "./calliope_answer.ts";
import { calliopeDraft, given } from "./calliope_draft.ts";
import { calliopeEssentials, calliopeParent } from "./calliope_essentials.ts";
import type { CalliopeTechnologyInput } from "./calliope_input.ts";
import { calliopeUnits } from "./calliope_units.ts";
import { checkCostClass } from "./cost_class.ts";
import { noteStorageEnergyEff, setEnergyEff } from "./energy_eff.ts";
import { CALLIOPE_CO2_CLASS, setFuelCosts } from "./fuel_costs.ts";
import { outputBasisCosts } from "./output_basis.ts";
import { setPerDistanceCosts } from "./per_distance_costs.ts";
import { setStorageTerms } from "./storage_terms.ts";
import { setSupplyPlusResource, supplyPlusResource } from "./supply_plus_resource.ts";
import { setOwn } from "../adapters/own_keys.ts";
import type { FuelRecord } from "../schema/fuel_schema.ts";
import { pickInstance } from "../adapters/pick_instance.ts";
import { DOMAINS } from "../schema/technology_schema.ts";

/** Options of `toCalliope`. */
export interface CalliopeOptions {
  instanceIndex?: number;
  /** Cost class the costs go under (default `monetary`). */
  costClass?: string;
  /** `interest_rate` of the cost class, fraction (default 0.07). */
  interestRate?: number;
  /** Fuel records (the catalogue's `fuels`); without them no om_con is set. */
  fuels?: readonly FuelRecord[];
  /** Whether to set the fuel's om_con and CO2 cost class (default true). */
  fuel?: boolean;
}

/**
 * Calliope 0.6 definition of one instance, with the keys left out, notes and units. Relations:
 * energy_eff = efficiency_percent / 100, for storage √(round trip / 100) (Calliope applies it on
 * charge and on discharge); energy_cap_max = typical_capacity_mw × 1000 (kW);
 * energy_ramping = ramping %/min / 100; lifetime = lifetime_years; energy_cap = capex (USD/kW);
 * om_annual = fixed O&M (USD/kW/a); om_prod = variable O&M / 1000 (USD/kWh); storage_cap =
 * capex_usd_per_kwh for storage. Throws NoSuchInstanceError (a RangeError) for a missing
 * instance and RangeError for a bad cost class or interest rate.
 */
export function toCalliopeReport(
  technology: CalliopeTechnologyInput,
  {
    instanceIndex = 0,
    costClass = "monetary",
    interestRate = 0.07,
    fuels,
    fuel = true,
  }: CalliopeOptions = {},
): CalliopeReport {
  checkCostClass(costClass);
  if (!Number.isFinite(interestRate) || interestRate < 0) {
    throw new RangeError(`interest_rate must be a finite number >= 0, got ${interestRate}`);
  }
  const instance = pickInstance(technology, instanceIndex);
  const parent = calliopeParent(technology);
  const draft = calliopeDraft(parent, costClass, interestRate);
  const { constraints, costs, co2Costs, omitted, notes } = draft;

  const { capex, fom, vom, conversion } = outputBasisCosts(draft, instance);
  const eff = instance.efficiency_percent;
  const cap = instance.typical_capacity_mw;
  const ramp = instance.ramping_rate_percent_per_min;
  const resource = parent === "supply_plus" ? supplyPlusResource(technology) : null;
  setEnergyEff(draft, eff, resource?.capacityFactor ?? false);
  draft.setConstraint("energy_cap_max", given(cap) ? cap * 1000 : null);
  draft.setConstraint("energy_ramping", given(ramp) ? ramp / 100 : null);
  draft.setConstraint("lifetime", instance.lifetime_years);
  draft.setCost("energy_cap", capex);
  draft.setCost("om_annual", fom);
  draft.setCost("om_prod", given(vom) ? vom / 1000 : null);
  if (parent === "transmission") setPerDistanceCosts(draft, instance);
  setFuelCosts(draft, technology, instance, { fuels, fuel });
  if (parent === "storage") setStorageTerms(draft, instance);

  if (given(ramp) && "energy_ramping" in constraints) {
    notes.push(
      "energy_ramping = ramping %/min / 100 as the catalogue defines it; Calliope 0.6 reads it " +
        "as a fraction of capacity per hour",
    );
  }
  noteStorageEnergyEff(draft, eff);
  if (!given(instance.lifetime_years) && given(instance.capex_usd_per_kw)) {
    notes.push("Calliope needs constraints.lifetime to annualise costs.energy_cap: set it");
  }
  if (resource !== null) setSupplyPlusResource(draft, resource, eff);

  const essentials = calliopeEssentials(technology, draft);
  if (omitted.length > 0) {
    notes.push("Left-out keys take Calliope's defaults (calliope/config/defaults.yaml)");
  }
  const units = calliopeUnits(draft, resource?.unit);
  const costClasses: CalliopeTech["costs"] = { [costClass]: costs };
  if (Object.keys(co2Costs).length > 0) costClasses[CALLIOPE_CO2_CLASS] = co2Costs;

  return {
    config: {
      [technology.technology_id]: { essentials, constraints, costs: costClasses },
    },
    omitted,
    notes,
    units,
    conversion,
  };
}

/** Calliope 0.6 definition of one technology instance: `{<technology_id>: {...}}`. */
export function toCalliope(
  technology: CalliopeTechnologyInput,
  options: CalliopeOptions = {},
): CalliopeConfig {
  return toCalliopeReport(technology, options).config;
}

/**
 * All technologies (first instance each), optionally of one domain, as a Calliope `techs` block.
 * Throws RangeError for an unknown category.
 */
export function toCalliopeTechs(
  technologies: readonly CalliopeTechnologyInput[],
  category?: string,
  { fuels, fuel = true }: Pick<CalliopeOptions, "fuels" | "fuel"> = {},
): CalliopeTechs {
  if (category !== undefined && !(DOMAINS as readonly string[]).includes(category)) {
    throw new RangeError(`category must be one of ${DOMAINS.join(", ")}, got "${category}"`);
  }
  const techs: CalliopeConfig = {};
  for (const technology of technologies) {
    if (category === undefined || technology.domain === category) {
      const config = toCalliope(technology, { ...(fuels ? { fuels } : {}), fuel });
      for (const [id, tech] of Object.entries(config)) setOwn(techs, id, tech);
    }
  }
  return { techs };
}
