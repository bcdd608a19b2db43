/**
 * Technology instance -> PyPSA component parameters. PyPSA works in MW and currency per MW
 * (`capital_cost` per MW and year, `marginal_cost` per MWh), the catalogue in kW and MWh, so capex
 * and fixed O&M are scaled by 1000. Missing catalogue figures stay null and are listed; nothing
 * is filled in.
 *
 * A StorageUnit takes no single `efficiency` but `efficiency_store` and `efficiency_dispatch`
 * (PyPSA `pypsa/data/component_attrs/storage_units.csv`); the catalogue's round trip is split
 * evenly, each √(round trip), as PyPSA-Eur does (`add_electricity.py`, `prepare_sector_network`).
 */
import { z } from "zod";
import { capitalRecoveryFactor } from "./annuity.ts";
import { pickInstance } from "./pick_instance.ts";
import type { Domain, Instance, Technology } from "./technology_schema.ts";

/** The instance figures the adapter reads. */
export type PyPSAInstanceInput =
  & Pick<
    Instance,
    | "instance_id"
    | "capex_usd_per_kw"
    | "opex_fixed_usd_per_kw_yr"
    | "opex_var_usd_per_mwh"
    | "efficiency_percent"
    | "lifetime_years"
    | "co2_emission_factor_operational_g_per_kwh"
  >
  & Partial<
    Pick<Instance, "capex_usd_per_kwh" | "opex_fixed_usd_per_kwh_yr" | "capex_usd_per_kw_km">
  >;

/** The technology fields the adapter reads; a served `Technology` fits. */
export type PyPSATechnologyInput = Pick<Technology, "technology_id" | "domain" | "carrier"> & {
  instances: readonly PyPSAInstanceInput[];
};

/** PyPSA component a catalogue domain maps to. */
export const pypsaComponentTypeSchema = z.enum(["Generator", "StorageUnit", "Link"]).describe(
  "generation: Generator; storage: StorageUnit; transmission and conversion: Link",
);

/** PyPSA component a catalogue domain maps to. */
export type PyPSAComponentType = z.infer<typeof pypsaComponentTypeSchema>;

/**
 * PyPSA attributes of one instance; null where the catalogue has no figure. A Generator or Link
 * has `efficiency`; a StorageUnit has `efficiency_store`, `efficiency_dispatch`, `standing_loss`
 * and `max_hours` instead.
 */
export const pypsaAttributesSchema = z.object({
  carrier: z.string(),
  efficiency: z.number().nullable().optional().describe(
    "Generator, Link: efficiency_percent / 100; per unit",
  ),
  efficiency_store: z.number().nullable().optional().describe(
    "StorageUnit: √(round trip efficiency_percent / 100); per unit",
  ),
  efficiency_dispatch: z.number().nullable().optional().describe(
    "StorageUnit: √(round trip efficiency_percent / 100); per unit",
  ),
  standing_loss: z.number().nullable().optional().describe(
    "StorageUnit: self-discharge per hour, per unit; null, the catalogue has no figure",
  ),
  max_hours: z.number().nullable().optional().describe(
    "StorageUnit: energy / power at full output, h; null unless given (`maxHours`)",
  ),
  capital_cost: z.number().nullable().describe(
    "USD/MW/a: capex × 1000 × CRF(discount rate, lifetime) + fixed O&M × 1000; a StorageUnit " +
      "adds max_hours × (capex per kWh × 1000 × CRF + fixed O&M per kWh × 1000) when max_hours " +
      "is known",
  ),
  marginal_cost: z.number().nullable().describe("opex_var_usd_per_mwh; USD/MWh"),
  co2_emissions: z.number().nullable().describe("g/kWh / 1000; tCO2/MWh"),
  lifetime: z.number().nullable().describe("lifetime_years; a"),
});

/** PyPSA attributes of one instance. */
export type PyPSAAttributes = z.infer<typeof pypsaAttributesSchema>;

/** The network-model adapter's answer. */
export const pypsaResultSchema = z.object({
  technology_id: z.string(),
  instance_index: z.number().int(),
  instance_id: z.string(),
  component_type: pypsaComponentTypeSchema,
  discount_rate: z.number(),
  parameters: pypsaAttributesSchema,
  /** The parts of `capital_cost` and the capital recovery factor used. */
  capital_cost_parts: z.object({
    crf: z.number().nullable(),
    annuitised_capex: z.number().nullable().describe("Power part, USD/MW/a"),
    fixed_om: z.number().nullable().describe("Power part, USD/MW/a"),
    energy_annuitised_capex: z.number().nullable().optional().describe(
      "StorageUnit energy part: capex_usd_per_kwh × 1000 × CRF, USD/MWh/a",
    ),
    energy_fixed_om: z.number().nullable().optional().describe(
      "StorageUnit energy part: opex_fixed_usd_per_kwh_yr × 1000, USD/MWh/a",
    ),
  }),
  units: z.record(z.string(), z.string()),
  missing: z.array(z.string()).describe(
    "Catalogue fields not given: what is built on them is null",
  ),
  notes: z.array(z.string()),
});

/** The network-model adapter's answer. */
export type PyPSAResult = z.infer<typeof pypsaResultSchema>;

/** Options of `toPyPSA`. */
export interface PyPSAOptions {
  instanceIndex?: number;
  /** Discount rate as a fraction (default 0.07). */
  discountRate?: number;
  /**
   * StorageUnit `max_hours` (h of full output the store holds), chosen by the caller: the
   * catalogue gives no energy-to-power ratio. With it `capital_cost` includes the energy part.
   */
  maxHours?: number;
}

const COMPONENT_BY_DOMAIN: Record<Domain, PyPSAComponentType> = {
  generation: "Generator",
  storage: "StorageUnit",
  transmission: "Link",
  conversion: "Link",
};

const UNITS: Record<keyof PyPSAAttributes, string> = {
  carrier: "name of the PyPSA carrier",
  efficiency: "per unit (MWh out / MWh in)",
  efficiency_store: "per unit (MWh stored / MWh taken in)",
  efficiency_dispatch: "per unit (MWh given out / MWh taken from store)",
  standing_loss: "per unit per hour (share of the state of charge lost)",
  max_hours: "h (energy capacity / power capacity)",
  capital_cost: "USD/MW/a (annuitised capex + fixed O&M)",
  marginal_cost: "USD/MWh",
  co2_emissions: "tCO2/MWh",
  lifetime: "a",
};

const KW_PER_MW = 1000;

function given(value: number | null | undefined): value is number {
  return value !== null && value !== undefined;
}

/**
 * PyPSA parameters of one technology instance. capital_cost (USD/MW/a) = capex (USD/kW) × 1000 ×
 * CRF(discount rate, lifetime) + fixed O&M (USD/kW/a) × 1000, PyPSA's convention that
 * `capital_cost` holds all fixed yearly costs per MW. A StorageUnit (PyPSA
 * `component_attrs/storage_units.csv`): efficiency_store = efficiency_dispatch = √(round trip);
 * capital_cost per MW of power adds max_hours × (capex per kWh × 1000 × CRF + fixed O&M per kWh ×
 * 1000) when `maxHours` is given, else the energy part is served in `capital_cost_parts` per MWh.
 * Throws NoSuchInstanceError (a RangeError) for a missing instance and RangeError for a negative
 * discount rate or a max_hours not > 0.
 */
export function toPyPSA(
  technology: PyPSATechnologyInput,
  { instanceIndex = 0, discountRate = 0.07, maxHours }: PyPSAOptions = {},
): PyPSAResult {
  if (!Number.isFinite(discountRate) || discountRate < 0) {
    throw new RangeError(`discount_rate must be a finite number >= 0, got ${discountRate}`);
  }
  if (maxHours !== undefined && !(Number.isFinite(maxHours) && maxHours > 0)) {
    throw new RangeError(`max_hours must be a finite number > 0, got ${maxHours}`);
  }
  const instance = pickInstance(technology, instanceIndex);
  const componentType = COMPONENT_BY_DOMAIN[technology.domain];
  const isStorage = componentType === "StorageUnit";
  const capex = instance.capex_usd_per_kw;
  const fom = instance.opex_fixed_usd_per_kw_yr;
  const lifetime = instance.lifetime_years;
  const eff = instance.efficiency_percent;
  const missing: string[] = (
    [
      "capex_usd_per_kw",
      "opex_fixed_usd_per_kw_yr",
      "opex_var_usd_per_mwh",
      "efficiency_percent",
      "lifetime_years",
      "co2_emission_factor_operational_g_per_kwh",
    ] as const
  ).filter((field) => !given(instance[field]));
  if (isStorage) {
    for (const field of ["capex_usd_per_kwh", "opex_fixed_usd_per_kwh_yr"] as const) {
      if (!given(instance[field])) missing.push(field);
    }
  }

  const crf = given(lifetime) && lifetime > 0
    ? capitalRecoveryFactor(discountRate, lifetime)
    : null;
  const annuitised = given(capex) && crf !== null ? capex * KW_PER_MW * crf : null;
  const fixedOm = given(fom) ? fom * KW_PER_MW : null;
  const notes: string[] = [];
  if (annuitised === null) {
    notes.push("capital_cost is null: annualising needs both capex_usd_per_kw and lifetime_years");
  } else if (fixedOm === null) {
    notes.push("capital_cost excludes fixed O&M: opex_fixed_usd_per_kw_yr is not given");
  }
  if (given(lifetime) && lifetime <= 0) notes.push(`lifetime_years ${lifetime} is not > 0`);
  let capitalCost = annuitised === null ? null : annuitised + (fixedOm ?? 0);

  // The efficiency attributes of the component type; the rest follow below.
  const own: Omit<
    PyPSAAttributes,
    "carrier" | "capital_cost" | "marginal_cost" | "co2_emissions" | "lifetime"
  > = {};
  const parts: PyPSAResult["capital_cost_parts"] = {
    crf,
    annuitised_capex: annuitised,
    fixed_om: fixedOm,
  };
  if (isStorage) {
    const oneWay = given(eff) ? Math.sqrt(eff / 100) : null;
    own.efficiency_store = oneWay;
    own.efficiency_dispatch = oneWay;
    own.standing_loss = null;
    own.max_hours = maxHours ?? null;
    if (given(eff)) {
      notes.push(
        `efficiency_store = efficiency_dispatch = √(round trip ${eff / 100}) = ${oneWay}: the ` +
          "catalogue gives the round trip only",
      );
    }
    notes.push("standing_loss is null: the catalogue has no self-discharge figure");
    const capexKwh = instance.capex_usd_per_kwh;
    const fomKwh = instance.opex_fixed_usd_per_kwh_yr;
    const energyAnnuitised = given(capexKwh) && crf !== null ? capexKwh * KW_PER_MW * crf : null;
    const energyFixedOm = given(fomKwh) ? fomKwh * KW_PER_MW : null;
    parts.energy_annuitised_capex = energyAnnuitised;
    parts.energy_fixed_om = energyFixedOm;
    const energyPart = energyAnnuitised === null && energyFixedOm === null
      ? null
      : (energyAnnuitised ?? 0) + (energyFixedOm ?? 0);
    if (energyPart !== null) {
      if (maxHours === undefined) {
        notes.push(
          "max_hours is null: the catalogue gives no energy-to-power ratio; capital_cost " +
            `covers power only, add max_hours × ${energyPart} USD/MWh/a for the energy part ` +
            "(capital_cost_parts.energy_annuitised_capex + energy_fixed_om)",
        );
      } else if (capitalCost !== null) {
        capitalCost += maxHours * energyPart;
      }
      if (given(capexKwh) && energyAnnuitised === null) {
        notes.push("energy capex is not annualised: lifetime_years is not given");
      }
    } else {
      notes.push(
        "max_hours is null: the catalogue gives no energy-to-power ratio; no per-kWh cost is " +
          "given, so capital_cost is per kW of plant as the source gives it",
      );
    }
  } else {
    own.efficiency = given(eff) ? eff / 100 : null;
  }
  if (!given(capex) && given(instance.capex_usd_per_kw_km)) {
    notes.push(
      `capex is given per kW and km (${instance.capex_usd_per_kw_km} USD/kW/km): a Link's ` +
        "capital_cost needs its length",
    );
  }
  const parameters: PyPSAAttributes = {
    carrier: technology.carrier,
    ...own,
    capital_cost: capitalCost,
    marginal_cost: instance.opex_var_usd_per_mwh ?? null,
    co2_emissions: given(instance.co2_emission_factor_operational_g_per_kwh)
      ? instance.co2_emission_factor_operational_g_per_kwh / 1000
      : null,
    lifetime: lifetime ?? null,
  };

  const units: Record<string, string> = {};
  for (const key of Object.keys(parameters) as (keyof PyPSAAttributes)[]) units[key] = UNITS[key];

  return {
    technology_id: technology.technology_id,
    instance_index: instanceIndex,
    instance_id: instance.instance_id,
    component_type: componentType,
    discount_rate: discountRate,
    parameters,
    capital_cost_parts: parts,
    units,
    missing,
    notes,
  };
}
