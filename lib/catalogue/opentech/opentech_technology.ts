/**
 * The members OpenTech-DB's own frontend reads on a technology, beside the spec's: its list item
 * (`id`, `name`, `category`, `n_instances`), its detail (`input_carriers`, `output_carriers`) and
 * its instance, whose figures are objects `{ value, unit, source }` (`capex_per_kw`, ...).
 *
 * None of these names is one of the spec's, so one answer serves both clients: the spec's flat
 * fields stay as they are and these are added beside them. They restate the served figures in
 * the frontend's units (efficiency as a fraction, CO2 in t/MWh, capacity in kW); a figure the
 * source lacks is null here too, never a default.
 */
import { z } from "zod";
import {
  type Instance,
  INSTANCE_NUMBER_FIELDS,
  SPEC_INSTANCE_NUMBER_FIELDS,
  type Technology,
} from "../schema/technology_schema.ts";

/** A figure as the frontend reads it. */
export const opentechFigureSchema = z.object({
  value: z.number(),
  unit: z.string(),
  source: z.string().nullable().describe("The instance's reference source"),
}).describe("A figure in OpenTech-DB's form");

/** A figure as the frontend reads it. */
export type OpentechFigure = z.infer<typeof opentechFigureSchema>;

const figure = (what: string) => opentechFigureSchema.nullable().describe(what);

/** An instance's members for the frontend. */
export const opentechInstanceShape = {
  id: z.string().describe("OpenTech-DB frontend: the instance id (= `instance_id`)"),
  label: z.string().describe("OpenTech-DB frontend: the display name (= `instance_name`)"),
  manufacturer: z.null().describe("OpenTech-DB frontend: not recorded"),
  reference_year: z.number().int().nullable().describe("OpenTech-DB frontend: `year`"),
  life_cycle_stage: z.string().nullable().describe("OpenTech-DB frontend: `lifecycle_stage`"),
  capex_per_kw: figure("USD/kW (`capex_usd_per_kw`)"),
  opex_fixed_per_kw_yr: figure("USD/kW/yr (`opex_fixed_usd_per_kw_yr`)"),
  opex_variable_per_mwh: figure("USD/MWh (`opex_var_usd_per_mwh`)"),
  economic_lifetime_yr: figure("years (`lifetime_years`)"),
  discount_rate: figure("not recorded: null"),
  electrical_efficiency: figure(
    "fraction (`efficiency_percent` / 100) unless the technology's carrier is heat",
  ),
  thermal_efficiency: figure("fraction (`efficiency_percent` / 100) when the carrier is heat"),
  capacity_kw: figure("kW (`typical_capacity_mw` × 1000)"),
  co2_emission_factor: figure(
    "tCO2/MWh (`co2_emission_factor_operational_g_per_kwh` / 1000)",
  ),
  ramp_up_rate: figure("%/min (`ramping_rate_percent_per_min`)"),
  ramp_down_rate: figure("%/min (`ramping_rate_percent_per_min`)"),
  capex_per_kwh: figure("USD/kWh (`capex_usd_per_kwh`)"),
  extra: z.record(z.string(), z.number()).describe(
    "OpenTech-DB frontend: the other figures the instance has (per kWh, per km, per tCO2/h)",
  ),
};

/** An instance's members for the frontend. */
export type OpentechInstanceMembers = z.infer<z.ZodObject<typeof opentechInstanceShape>>;

/** A technology's detail members for the frontend (besides its instances). */
export const opentechTechnologyShape = {
  id: z.string().describe("OpenTech-DB frontend: the technology id (= `technology_id`)"),
  name: z.string().describe("OpenTech-DB frontend: `technology_name`"),
  category: z.string().describe("OpenTech-DB frontend: `domain`"),
  input_carriers: z.array(z.string()).describe("OpenTech-DB frontend: `carrier_in`"),
  output_carriers: z.array(z.string()).describe(
    "OpenTech-DB frontend: `carrier_out`; when not stated `[carrier]`, or none when `carrier` " +
      "is one it consumes",
  ),
};

/** A technology's detail members for the frontend. */
export type OpentechTechnologyMembers = z.infer<z.ZodObject<typeof opentechTechnologyShape>>;

/** A list item's members for the frontend. */
export const opentechSummaryShape = {
  id: opentechTechnologyShape.id,
  name: opentechTechnologyShape.name,
  category: opentechTechnologyShape.category,
  n_instances: z.number().int().describe("OpenTech-DB frontend: `instance_count`"),
};

/** A list item's members for the frontend. */
export type OpentechSummaryMembers = z.infer<z.ZodObject<typeof opentechSummaryShape>>;

/**
 * Figures of other capacity bases (per kWh of O&M, per km, per tCO2/h), passed on in `extra` under
 * their own names when known; `capex_usd_per_kwh` has a member of its own.
 */
const EXTRA_FIELDS = INSTANCE_NUMBER_FIELDS.filter((field) =>
  !(SPEC_INSTANCE_NUMBER_FIELDS as readonly string[]).includes(field) &&
  field !== "capex_usd_per_kwh"
);

/** The members of a technology with `carrier` and the instance's figures for the frontend. */
export function opentechInstance(
  instance: Instance,
  carrier: string,
): OpentechInstanceMembers {
  const source = instance.reference_source;
  const of = (value: number | null, unit: string): OpentechFigure | null =>
    value === null ? null : { value, unit, source };
  const efficiency = instance.efficiency_percent === null
    ? null
    : of(instance.efficiency_percent / 100, "fraction");
  const heat = carrier === "heat";
  const extra: Record<string, number> = {};
  for (const field of EXTRA_FIELDS) {
    const value = instance[field];
    if (value !== null && value !== undefined) extra[field] = value;
  }
  const ramp = of(instance.ramping_rate_percent_per_min, "%/min");
  return {
    id: instance.instance_id,
    label: instance.instance_name,
    manufacturer: null,
    reference_year: instance.year ?? null,
    life_cycle_stage: instance.lifecycle_stage ?? null,
    capex_per_kw: of(instance.capex_usd_per_kw, "USD/kW"),
    opex_fixed_per_kw_yr: of(instance.opex_fixed_usd_per_kw_yr, "USD/kW/yr"),
    opex_variable_per_mwh: of(instance.opex_var_usd_per_mwh, "USD/MWh"),
    economic_lifetime_yr: of(instance.lifetime_years, "years"),
    discount_rate: null,
    electrical_efficiency: heat ? null : efficiency,
    thermal_efficiency: heat ? efficiency : null,
    capacity_kw: instance.typical_capacity_mw === null
      ? null
      : of(instance.typical_capacity_mw * 1000, "kW"),
    co2_emission_factor: instance.co2_emission_factor_operational_g_per_kwh === null
      ? null
      : of(instance.co2_emission_factor_operational_g_per_kwh / 1000, "tCO2/MWh"),
    ramp_up_rate: ramp,
    ramp_down_rate: ramp,
    capex_per_kwh: of(instance.capex_usd_per_kwh ?? null, "USD/kWh"),
    extra,
  };
}

/** A technology's detail members for the frontend. */
export function opentechTechnology(
  t:
    & Pick<Technology, "technology_id" | "technology_name" | "domain" | "carrier">
    & Partial<Pick<Technology, "carrier_in" | "carrier_out">>,
): OpentechTechnologyMembers {
  return {
    id: t.technology_id,
    name: t.technology_name,
    category: t.domain,
    input_carriers: t.carrier_in ?? [],
    // Not stated: the main carrier, unless that is what it consumes (a submitted conversion).
    output_carriers: t.carrier_out ?? (t.carrier_in?.includes(t.carrier) ? [] : [t.carrier]),
  };
}

/** A list item's members for the frontend. */
export function opentechSummary(
  t: Pick<Technology, "technology_id" | "technology_name" | "domain"> & {
    instance_count: number;
  },
): OpentechSummaryMembers {
  return {
    id: t.technology_id,
    name: t.technology_name,
    category: t.domain,
    n_instances: t.instance_count,
  };
}

/** A technology with its instances, each with the frontend's members beside the spec's. */
export function withOpentechMembers<T extends Technology>(
  t: T,
): T & OpentechTechnologyMembers & {
  instances: (T["instances"][number] & OpentechInstanceMembers)[];
} {
  return {
    ...t,
    ...opentechTechnology(t),
    instances: t.instances.map((i) => ({ ...i, ...opentechInstance(i, t.carrier) })),
  };
}

/** A list item with the frontend's members beside the spec's. */
export function withOpentechSummary<
  T extends Pick<Technology, "technology_id" | "technology_name" | "domain"> & {
    instance_count: number;
  },
>(t: T): T & OpentechSummaryMembers {
  return { ...t, ...opentechSummary(t) };
}
