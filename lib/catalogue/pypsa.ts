/**
 * Technology instance -> PyPSA component parameters. PyPSA works in MW and currency per MW
 * (`capital_cost` per MW and year, `marginal_cost` per MWh), the catalogue in kW and MWh, so capex
 * and fixed O&M are scaled by 1000. Missing catalogue figures stay null and are listed; nothing
 * is filled in.
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
  & Partial<Pick<Instance, "capex_usd_per_kwh" | "capex_usd_per_kw_km">>;

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

/** PyPSA attributes of one instance; null where the catalogue has no figure. */
export const pypsaAttributesSchema = z.object({
  carrier: z.string(),
  efficiency: z.number().nullable().describe("efficiency_percent / 100; per unit"),
  capital_cost: z.number().nullable().describe(
    "USD/MW/a: capex × 1000 × CRF(discount rate, lifetime) + fixed O&M × 1000",
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
  /** The two parts of `capital_cost`, USD/MW/a, and the capital recovery factor used. */
  capital_cost_parts: z.object({
    crf: z.number().nullable(),
    annuitised_capex: z.number().nullable(),
    fixed_om: z.number().nullable(),
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
 * `capital_cost` holds all fixed yearly costs per MW. Throws NoSuchInstanceError (a RangeError)
 * for a missing instance and RangeError for a negative discount rate.
 */
export function toPyPSA(
  technology: PyPSATechnologyInput,
  { instanceIndex = 0, discountRate = 0.07 }: PyPSAOptions = {},
): PyPSAResult {
  if (!Number.isFinite(discountRate) || discountRate < 0) {
    throw new RangeError(`discount_rate must be a finite number >= 0, got ${discountRate}`);
  }
  const instance = pickInstance(technology, instanceIndex);
  const capex = instance.capex_usd_per_kw;
  const fom = instance.opex_fixed_usd_per_kw_yr;
  const lifetime = instance.lifetime_years;
  const missing = (
    [
      "capex_usd_per_kw",
      "opex_fixed_usd_per_kw_yr",
      "opex_var_usd_per_mwh",
      "efficiency_percent",
      "lifetime_years",
      "co2_emission_factor_operational_g_per_kwh",
    ] as const
  ).filter((field) => !given(instance[field]));

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
  const componentType = COMPONENT_BY_DOMAIN[technology.domain];
  if (componentType === "StorageUnit") {
    notes.push(
      "efficiency is the catalogue's round-trip figure; a PyPSA StorageUnit takes " +
        "efficiency_store and efficiency_dispatch (their product is the round trip)",
    );
    if (given(instance.capex_usd_per_kwh)) {
      notes.push(
        "capital_cost covers power capacity only; the energy capacity costs " +
          `${instance.capex_usd_per_kwh} USD/kWh (capex_usd_per_kwh) on top`,
      );
    }
  }
  if (!given(capex) && given(instance.capex_usd_per_kw_km)) {
    notes.push(
      `capex is given per kW and km (${instance.capex_usd_per_kw_km} USD/kW/km): a Link's ` +
        "capital_cost needs its length",
    );
  }

  return {
    technology_id: technology.technology_id,
    instance_index: instanceIndex,
    instance_id: instance.instance_id,
    component_type: componentType,
    discount_rate: discountRate,
    parameters: {
      carrier: technology.carrier,
      efficiency: given(instance.efficiency_percent) ? instance.efficiency_percent / 100 : null,
      capital_cost: annuitised === null ? null : annuitised + (fixedOm ?? 0),
      marginal_cost: instance.opex_var_usd_per_mwh ?? null,
      co2_emissions: given(instance.co2_emission_factor_operational_g_per_kwh)
        ? instance.co2_emission_factor_operational_g_per_kwh / 1000
        : null,
      lifetime: lifetime ?? null,
    },
    capital_cost_parts: { crf, annuitised_capex: annuitised, fixed_om: fixedOm },
    units: UNITS,
    missing,
    notes,
  };
}
