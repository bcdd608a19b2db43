/**
 * Technology instance -> PyPSA component parameters. PyPSA works in MW and currency per MW
 * (`capital_cost` per MW and year, `marginal_cost` per MWh), the catalogue in kW and MWh, so capex
 * and fixed O&M are scaled by 1000. Missing catalogue figures stay null and are listed; nothing
 * is filled in.
 *
 * A StorageUnit takes no single `efficiency` but `efficiency_store` and `efficiency_dispatch`
 * (PyPSA `pypsa/data/component_attrs/storage_units.csv`); the catalogue's round trip is split
 * evenly, each √(round trip), as PyPSA-Eur does (`add_electricity.py`, `prepare_sector_network`).
 *
 * Fuel: a Generator burning a priced fuel gets `marginal_cost` = variable O&M + fuel price /
 * efficiency (PyPSA-Eur `add_electricity.py`: `marginal_cost = VOM + fuel / efficiency`), its
 * `carrier` is the fuel, and the fuel's CO2 intensity per MWh of fuel is the Carrier's
 * `co2_emissions` (`component_attrs/carriers.csv`; PyPSA divides it by the generator's
 * efficiency). A Link's `marginal_cost` is per MWh at bus0 (`component_attrs/links.csv`), so a
 * Link whose input is the fuel adds the fuel price itself. `fuel: false` leaves fuel out.
 *
 * Capacity basis: a Link's `p_nom` is the power at bus0, its input (`component_attrs/links.csv`);
 * a Link instance costed per kW of output is converted to per kW of input (× efficiency).
 */
import { z } from "zod";
import { capitalRecoveryFactor } from "./annuity.ts";
import { type CapacityConversion, fuelLink, fuelPriceSource } from "./fuel_link.ts";
import type { FuelRecord } from "../schema/fuel_schema.ts";
import { type AdapterOptionalFields, pickInstance } from "./pick_instance.ts";
import type { Domain, Instance, Technology } from "../schema/technology_schema.ts";

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
  & AdapterOptionalFields;

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
  marginal_cost: z.number().nullable().describe(
    "USD/MWh: variable O&M, plus fuel price / efficiency for a Generator burning a priced fuel " +
      "(a Link: per MWh at bus0, plus the fuel price when its input is the fuel)",
  ),
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
  length_km: z.number().nullable().describe(
    "Length (km) a Link costed per kW and km is priced for; null when not given or not needed",
  ),
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
  /** The parts of `marginal_cost`. */
  marginal_cost_parts: z.object({
    variable_om: z.number().nullable().describe("USD/MWh on the component's basis"),
    fuel: z.number().nullable().describe(
      "USD/MWh: Generator fuel price / efficiency; Link with fuel input: fuel price; null when " +
        "no fuel cost is added",
    ),
  }),
  carriers: z.record(
    z.string(),
    z.object({
      co2_emissions: z.number().nullable().describe(
        "PyPSA Carrier attribute, tCO2 per MWh of fuel (MWh_th); null when the source has none",
      ),
    }),
  ).describe("PyPSA Carriers the component needs (the fuel of a fuelled Generator)"),
  fuel: z.object({
    fuel_id: z.string(),
    year: z.number().int(),
    price_usd_per_mwh_th: z.number().nullable(),
    co2_intensity_t_per_mwh_th: z.number().nullable(),
  }).nullable().describe("The fuel record applied; null when none is"),
  co2_t_per_mwh_out: z.number().nullable().describe(
    "The catalogue's operational CO2 per MWh of output (g/kWh / 1000), for reference: not a " +
      "PyPSA attribute (PyPSA books CO2 through the Carrier's co2_emissions per MWh of fuel)",
  ),
  capacity_conversion: z.object({
    from: z.enum(["input", "output"]),
    to: z.enum(["input", "output"]),
    factor: z.number(),
    efficiency: z.number(),
    converted: z.record(z.string(), z.object({ before: z.number(), after: z.number() })),
  }).nullable().describe(
    "How per-capacity figures were moved to PyPSA's basis (a Link per MW at bus0, its input): " +
      "after = before × factor; null when the instance's basis is PyPSA's already",
  ),
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
  /** Fuel records (the catalogue's `fuels`); without them no fuel cost is added. */
  fuels?: readonly FuelRecord[];
  /**
   * Length of a line, cable or pipeline in km: a Link costed per kW and km needs it for its
   * capital_cost (null without it).
   */
  lengthKm?: number;
  /** Whether to add the fuel price and the fuel Carrier (default true). */
  fuel?: boolean;
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
  { instanceIndex = 0, discountRate = 0.07, maxHours, fuels, fuel = true, lengthKm }: PyPSAOptions =
    {},
): PyPSAResult {
  if (!Number.isFinite(discountRate) || discountRate < 0) {
    throw new RangeError(`discount_rate must be a finite number >= 0, got ${discountRate}`);
  }
  if (maxHours !== undefined && !(Number.isFinite(maxHours) && maxHours > 0)) {
    throw new RangeError(`max_hours must be a finite number > 0, got ${maxHours}`);
  }
  if (lengthKm !== undefined && !(Number.isFinite(lengthKm) && lengthKm > 0)) {
    throw new RangeError(`length_km must be a finite number > 0, got ${lengthKm}`);
  }
  const instance = pickInstance(technology, instanceIndex);
  const componentType = COMPONENT_BY_DOMAIN[technology.domain];
  const isStorage = componentType === "StorageUnit";
  const lifetime = instance.lifetime_years;
  const eff = instance.efficiency_percent;
  const notes: string[] = [];
  // A Link is sized and costed per MW at bus0, its input: output-based figures × efficiency.
  let capex = instance.capex_usd_per_kw;
  let fom = instance.opex_fixed_usd_per_kw_yr;
  let vom = instance.opex_var_usd_per_mwh;
  let conversion: CapacityConversion | null = null;
  if (componentType === "Link" && instance.capacity_basis === "output") {
    if (given(eff) && eff > 0) {
      const factor = eff / 100;
      conversion = { from: "output", to: "input", factor, efficiency: factor, converted: {} };
      const convert = (field: string, value: number | null | undefined): number | null => {
        if (!given(value)) return null;
        const after = value * factor;
        conversion!.converted[field] = { before: value, after };
        return after;
      };
      capex = convert("capex_usd_per_kw", capex);
      fom = convert("opex_fixed_usd_per_kw_yr", fom);
      vom = convert("opex_var_usd_per_mwh", vom);
      notes.push(
        `Capacity basis: the catalogue costs this instance per kW of output ` +
          `(${instance.capacity_unit ?? "output"}); a PyPSA Link's p_nom is the power at bus0 ` +
          `(its input), so capex, fixed and variable O&M are × efficiency ${factor} per kW of ` +
          "input (capacity_conversion)",
      );
    } else {
      capex = null;
      fom = null;
      vom = null;
      notes.push(
        "capital_cost and marginal_cost are null: the instance is costed per kW of output and " +
          "a PyPSA Link per MW of input; converting needs efficiency_percent",
      );
    }
  }
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
  // A line costed per kW and km: capex and fixed O&M per kW of the whole link = per-kW part
  // (converter pair, if any) + per-kW·km part × length.
  const capexKm = instance.capex_usd_per_kw_km;
  const fomKm = instance.opex_fixed_usd_per_kw_km_yr;
  let perKm = false;
  if (componentType === "Link" && given(capexKm)) {
    perKm = true;
    if (lengthKm === undefined) {
      notes.push(
        `capital_cost is null: capex is given per kW and km (${capexKm} USD/kW/km` +
          (given(capex) ? `, plus ${capex} USD/kW per link` : "") +
          "); give the length (?length_km=) for the Link's capital_cost per MW",
      );
      capex = null;
      fom = null;
    } else {
      const before = { capex, fom };
      capex = (capex ?? 0) + capexKm * lengthKm;
      fom = given(fomKm) || given(fom) ? (fom ?? 0) + (fomKm ?? 0) * lengthKm : null;
      notes.push(
        `Length ${lengthKm} km: capex = ${before.capex ?? 0} USD/kW + ${capexKm} USD/kW/km × ` +
          `${lengthKm} km = ${capex} USD/kW; fixed O&M = ${before.fom ?? 0} + ${fomKm ?? 0} × ` +
          `${lengthKm} = ${fom ?? "not given"} USD/kW/a`,
      );
    }
  }
  const annuitised = given(capex) && crf !== null ? capex * KW_PER_MW * crf : null;
  const fixedOm = given(fom) ? fom * KW_PER_MW : null;
  if (perKm && lengthKm === undefined) {
    // Said above.
  } else if (annuitised === null) {
    notes.push("capital_cost is null: annualising needs both capex_usd_per_kw and lifetime_years");
  } else if (fixedOm === null) {
    notes.push("capital_cost excludes fixed O&M: opex_fixed_usd_per_kw_yr is not given");
  }
  if (given(lifetime) && lifetime <= 0) notes.push(`lifetime_years ${lifetime} is not > 0`);
  let capitalCost = annuitised === null ? null : annuitised + (fixedOm ?? 0);

  // The efficiency attributes of the component type; the rest follow below.
  const own: Omit<
    PyPSAAttributes,
    "carrier" | "capital_cost" | "marginal_cost" | "lifetime"
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
  // Fuel: the record of the instance's fuel and year.
  let carrier = technology.carrier;
  let fuelCost: number | null = null;
  const carriers: PyPSAResult["carriers"] = {};
  let fuelApplied: PyPSAResult["fuel"] = null;
  const link = fuel ? fuelLink(instance, fuels) : { kind: "none" as const };
  if (!fuel && instance.fuel !== null && instance.fuel !== undefined) {
    notes.push(
      `fuel=false: marginal_cost is variable O&M only and no ${instance.fuel} Carrier is given; ` +
        "price the fuel and book its CO2 in your network",
    );
  } else if (link.kind === "unknown") {
    notes.push(`No fuel cost added for ${link.fuel}: ${link.reason}`);
  } else if (link.kind === "record" && componentType !== "StorageUnit") {
    const record = link.record;
    const price = record.price_usd_per_mwh_th;
    const co2 = record.co2_intensity_t_per_mwh_th;
    fuelApplied = {
      fuel_id: record.fuel_id,
      year: record.year,
      price_usd_per_mwh_th: price,
      co2_intensity_t_per_mwh_th: co2,
    };
    const where = `fuel ${record.fuel_id} ${record.year}`;
    if (price === null) {
      notes.push(
        `marginal_cost is variable O&M only: the ${where} record has no price (` +
          `${record.notes.join("; ") || "the source gives none"})`,
      );
    } else if (componentType === "Generator") {
      if (given(eff) && eff > 0) {
        fuelCost = price / (eff / 100);
        notes.push(
          `marginal_cost adds fuel: ${price} USD/MWh_th (${where}, ${fuelPriceSource(record)}) / ` +
            `efficiency ${eff / 100} = ${fuelCost} USD/MWh, as PyPSA-Eur's add_electricity.py ` +
            "does (VOM + fuel / efficiency); ?fuel=false leaves it out",
        );
      } else {
        notes.push(
          `marginal_cost is variable O&M only: no efficiency to spread the ${where} price`,
        );
      }
    } else {
      fuelCost = price;
      notes.push(
        `marginal_cost adds fuel: ${price} USD/MWh_th (${where}, ${fuelPriceSource(record)}) per ` +
          "MWh at bus0, the fuel input (PyPSA: a Link's marginal_cost is per MWh of p0); " +
          "?fuel=false leaves it out if your network prices the fuel at its supply",
      );
    }
    if (componentType === "Generator") {
      carrier = record.fuel_id;
      carriers[record.fuel_id] = { co2_emissions: co2 };
      notes.push(
        co2 === null
          ? `carrier ${record.fuel_id}: the source has no CO2 intensity for it, so ` +
            `carriers.${record.fuel_id}.co2_emissions is null (PyPSA's default is 0)`
          : `carrier ${record.fuel_id} with co2_emissions ${co2} tCO2/MWh_th (${where}): ` +
            "PyPSA divides a Carrier's co2_emissions by the generator's efficiency; add the " +
            "Carrier to the network",
      );
    } else if (co2 !== null) {
      notes.push(
        `CO2: PyPSA books a Carrier's co2_emissions for generators only; to book this Link's ` +
          `CO2 give it a bus2 (CO2 atmosphere) with efficiency2 = ${co2} tCO2 per MWh of ` +
          `${record.fuel_id} at bus0 (${where})`,
      );
    }
  }
  const co2Out = instance.co2_emission_factor_operational_g_per_kwh;
  if (componentType === "Generator" && given(co2Out) && co2Out > 0 && fuelApplied === null) {
    notes.push(
      `Operational CO2 ${co2Out / 1000} tCO2/MWh of output (co2_t_per_mwh_out) is not a ` +
        "Generator attribute: PyPSA books CO2 on the Carrier per MWh of fuel",
    );
  }
  const variableOm = vom ?? null;
  const marginalCost = variableOm === null && fuelCost === null
    ? null
    : (variableOm ?? 0) + (fuelCost ?? 0);
  if (variableOm === null && fuelCost !== null) {
    notes.push("marginal_cost is the fuel cost alone: opex_var_usd_per_mwh is not given");
  }

  const parameters: PyPSAAttributes = {
    carrier,
    ...own,
    capital_cost: capitalCost,
    marginal_cost: marginalCost,
    lifetime: lifetime ?? null,
  };

  const units: Record<string, string> = {};
  for (const key of Object.keys(parameters) as (keyof PyPSAAttributes)[]) units[key] = UNITS[key];
  for (const id of Object.keys(carriers)) {
    units[`carriers.${id}.co2_emissions`] = "tCO2/MWh_th (per MWh of fuel)";
  }

  return {
    technology_id: technology.technology_id,
    instance_index: instanceIndex,
    instance_id: instance.instance_id,
    component_type: componentType,
    discount_rate: discountRate,
    length_km: perKm ? lengthKm ?? null : null,
    parameters,
    capital_cost_parts: parts,
    marginal_cost_parts: { variable_om: variableOm, fuel: fuelCost },
    carriers,
    fuel: fuelApplied,
    co2_t_per_mwh_out: given(co2Out) ? co2Out / 1000 : null,
    capacity_conversion: conversion,
    units,
    missing,
    notes,
  };
}
