/**
 * Technology instance -> Calliope 0.6 technology definition (`techs.<id>`: essentials,
 * constraints, costs per cost class). Calliope works in kW and kWh, the catalogue in MW and MWh.
 * A figure the catalogue does not give is left out, so Calliope applies its own default, and the
 * report names it. Every key is one Calliope 0.6 knows (`calliope_keys.ts`).
 *
 * Fuel: a supply or conversion technology burning a priced fuel gets `costs.monetary.om_con`,
 * Calliope's cost per unit of resource (supply) or carrier_in (conversion) consumed
 * (`calliope/config/defaults.yaml`, `default_cost.om_con`; the national-scale example's `ccgt`
 * is a supply with `om_con` as its fuel cost per kWh), = fuel price per kWh of fuel; a supply's
 * resource is the fuel, its `energy_eff` the plant efficiency. Its CO2 goes in the cost class
 * `co2` as `om_con` in tCO2 per kWh of fuel. `fuel: false` leaves both out.
 *
 * Capacity basis: Calliope's `energy_cap` of a conversion is its carrier_out capacity; an
 * instance costed per kW of input is converted to per kW of output (÷ efficiency).
 *
 * Distance: Calliope 0.6 measures a link in metres (Vincenty from lat/lon, or the link's own
 * `distance`) and has no distance unit setting (`run.distance_unit` is Calliope 0.7), so every
 * per-distance value is per metre: the catalogue's USD/kW/km ÷ 1000.
 *
 * Resource: a variable renewable (supply_plus) gets `resource: file=<profile_key>.csv` with
 * `resource_unit: energy_per_cap`, the catalogue's profile per location (Calliope reads the
 * column named after the location); without them Calliope's default resource is unlimited.
 * With a capacity-factor profile, output per kW already, `energy_eff` is 1.
 */
import type {
  CalliopeConfig,
  CalliopeReport,
  CalliopeTech,
  CalliopeTechs,
} from "./calliope_answer.ts";
import {
  CALLIOPE_ALLOWED,
  type CalliopeConstraintKey,
  type CalliopeCostKey,
  type CalliopeParent,
} from "./calliope_keys.ts";
import { isReservedKey, RESERVED_KEY_MESSAGE, setOwn } from "./own_keys.ts";
import { COST_CLASS } from "./calliope_overrides.ts";
import { type CapacityConversion, fuelLink, fuelPriceSource } from "./fuel_link.ts";
import type { FuelRecord } from "./fuel_schema.ts";
import { type AdapterOptionalFields, pickInstance } from "./pick_instance.ts";
import { DOMAINS, type Instance, type Technology } from "./technology_schema.ts";
import { DISPASET_SERIES } from "../profiles/dispaset_series.ts";

/** The instance figures the adapter reads. */
export type CalliopeInstanceInput =
  & Pick<
    Instance,
    | "typical_capacity_mw"
    | "capex_usd_per_kw"
    | "opex_fixed_usd_per_kw_yr"
    | "opex_var_usd_per_mwh"
    | "efficiency_percent"
    | "lifetime_years"
    | "ramping_rate_percent_per_min"
  >
  & AdapterOptionalFields;

/** The technology fields the adapter reads; a served `Technology` fits. */
export type CalliopeTechnologyInput =
  & Pick<Technology, "technology_id" | "technology_name" | "domain" | "carrier">
  & Partial<Pick<Technology, "carrier_in" | "tags" | "profile_key">>
  & { instances: readonly CalliopeInstanceInput[] };

/** Unit of each constraint key the adapter serves. */
const CONSTRAINT_UNITS: Partial<Record<CalliopeConstraintKey, string>> = {
  energy_eff: "1 (per unit; for storage applied on charge and on discharge)",
  energy_cap_max: "kW",
  energy_ramping: "1/h (fraction of energy_cap per hour, as Calliope reads it)",
  lifetime: "a",
  storage_loss: "1/h (share of stored energy lost per hour)",
  energy_cap_per_storage_cap_max: "1/h (kW per kWh)",
  resource_unit: "- (a word: energy_per_cap means resource is in kWh per kW of energy_cap)",
  energy_eff_per_distance:
    "1/m (efficiency per metre of link, applied as energy_eff_per_distance^distance in metres)",
};

/** Unit of each cost key the adapter serves. */
const COST_UNITS: Partial<Record<CalliopeCostKey, string>> = {
  interest_rate: "1 (fraction per year)",
  energy_cap: "USD/kW",
  om_annual: "USD/kW/a",
  om_prod: "USD/kWh",
  om_con: "USD/kWh (per kWh of fuel consumed)",
  energy_cap_per_distance:
    "USD/kW/m (per metre of link: Calliope 0.6 link distances are in metres)",
  storage_cap: "USD/kWh",
};

/** The cost class of the fuel's CO2. */
export const CALLIOPE_CO2_CLASS = "co2";

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

/** Metres per kilometre: Calliope 0.6 link distances are in metres, the catalogue's in km. */
const M_PER_KM = 1000;

/** A per-km figure per metre, without the float noise of the division (15 digits). */
function perMetre(perKm: number): number {
  return Number((perKm / M_PER_KM).toPrecision(15));
}

/** Calliope's resource unit of a profile per kW of capacity. */
const ENERGY_PER_CAP = "energy_per_cap";

/** Tags that mark a variable renewable (besides a `profile_key`). */
const VARIABLE_TAGS = new Set(["variable", "variable_renewable", "vre"]);

function given(value: number | null | undefined): value is number {
  return value !== null && value !== undefined;
}

/** Whether a technology is a variable renewable: it has a profile, or a `variable` tag. */
export function isVariableRenewable(
  technology: Pick<CalliopeTechnologyInput, "profile_key" | "tags">,
): boolean {
  return Boolean(technology.profile_key) ||
    (technology.tags ?? []).some((tag) => VARIABLE_TAGS.has(tag.toLowerCase()));
}

/** Calliope parent of a technology: supply, supply_plus (variable renewables), storage, ... */
export function calliopeParent(
  technology: Pick<CalliopeTechnologyInput, "domain" | "profile_key" | "tags">,
): CalliopeParent {
  switch (technology.domain) {
    case "generation":
      return isVariableRenewable(technology) ? "supply_plus" : "supply";
    case "storage":
      return "storage";
    case "transmission":
      return "transmission";
    case "conversion":
      return "conversion";
  }
}

/**
 * A stable plotting colour `#rrggbb` for a technology id: FNV-1a hash -> hue, with saturation and
 * lightness kept in a readable band.
 */
export function technologyColor(technologyId: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(technologyId)) {
    hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  }
  const h = hash % 360;
  const s = 0.55 + ((hash >>> 9) % 20) / 100;
  const l = 0.4 + ((hash >>> 17) % 15) / 100;
  // HSL -> RGB (CSS Color 4, "Converting HSL Colors to sRGB").
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const value = l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255).toString(16).padStart(2, "0");
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

/** The resource a supply_plus gets: its profile as a per-location series, per kW of capacity. */
interface ResourceOf {
  /** `file=<series>.csv`: the column named after the location. */
  readonly reference: string;
  readonly series: string;
  /** Whether the series is a capacity factor (output per kW): then energy_eff is 1. */
  readonly capacityFactor: boolean;
  /** The catalogue's built-in series of this profile key, if it is one. */
  readonly known: (typeof DISPASET_SERIES)[number] | undefined;
  readonly unit: string;
  readonly note: string;
}

/**
 * The resource of a variable renewable: its `profile_key` series (the catalogue's profiles are
 * `<ISO2>_<profile_key>_<year>`), or, without one, a series named after the technology that the
 * model must supply.
 */
function resourceOf(technology: Pick<CalliopeTechnologyInput, "technology_id" | "profile_key">) {
  const key = technology.profile_key ?? null;
  const series = key ?? technology.technology_id;
  const known = key === null ? undefined : DISPASET_SERIES.find((s) => s.key === key);
  const capacityFactor = known?.type === "capacity_factor";
  const perCap = "kWh per kW of energy_cap in each time step (resource_unit energy_per_cap)";
  const unit = capacityFactor
    ? `${perCap}: a capacity factor, 0 to 1 at hourly steps`
    : known !== undefined
    ? `${perCap}: ${known.label}, ${known.unit}`
    : perCap;
  const where = `resource = file=${series}.csv with resource_unit ${ENERGY_PER_CAP}: one column ` +
    "per location (Calliope reads the column named after the location), in kWh per kW of " +
    "energy_cap in each time step; ";
  const note = key === null
    ? `${where}the catalogue ships no profile for this technology: supply ${series}.csv, or ` +
      "set constraints.resource to a file=ID.csv:column of your own (without a resource " +
      "Calliope's supply_plus output is unlimited)"
    : `${where}the catalogue's profiles of this key are <ISO2>_${key}_<year> ` +
      `(GET /api/v1/timeseries/<id>/data${known === undefined ? "" : `, e.g. DE_${key}_2016`}` +
      `): put one per location in ${series}.csv, or set constraints.resource to a ` +
      "file=ID.csv:column of your own";
  return {
    reference: `file=${series}.csv`,
    series,
    capacityFactor,
    known,
    unit,
    note,
  } satisfies ResourceOf;
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
  if (!COST_CLASS.test(costClass)) {
    throw new RangeError(`cost_class must be a word of letters, digits and _, got "${costClass}"`);
  }
  if (isReservedKey(costClass)) {
    throw new RangeError(`cost_class "${costClass}": ${RESERVED_KEY_MESSAGE}`);
  }
  if (!Number.isFinite(interestRate) || interestRate < 0) {
    throw new RangeError(`interest_rate must be a finite number >= 0, got ${interestRate}`);
  }
  const instance = pickInstance(technology, instanceIndex);
  const parent = calliopeParent(technology);
  const allowed = CALLIOPE_ALLOWED[parent];
  const omitted: string[] = [];
  const notes: string[] = [];

  const constraints: CalliopeTech["constraints"] = {};
  const costs: Partial<Record<CalliopeCostKey, number>> = { interest_rate: interestRate };
  const setConstraint = (key: CalliopeConstraintKey, value: number | null | undefined) => {
    if (!allowed.constraints.includes(key)) {
      if (given(value)) notes.push(`constraints.${key} left out: Calliope 0.6 ${parent} has none`);
    } else if (given(value)) (constraints as Record<string, number>)[key] = value;
    else omitted.push(`constraints.${key}`);
  };
  const setCost = (key: CalliopeCostKey, value: number | null | undefined) => {
    if (given(value)) costs[key] = value;
    else omitted.push(`costs.${costClass}.${key}`);
  };

  // Calliope's energy_cap of a conversion is its output (carrier_out): per-input figures ÷
  // efficiency.
  let capex = instance.capex_usd_per_kw;
  let fom = instance.opex_fixed_usd_per_kw_yr;
  let vom = instance.opex_var_usd_per_mwh;
  let conversion: CapacityConversion | null = null;
  const effValue = instance.efficiency_percent;
  if (parent === "conversion" && instance.capacity_basis === "input") {
    if (given(effValue) && effValue > 0) {
      const efficiency = effValue / 100;
      const factor = 1 / efficiency;
      const done: CapacityConversion = {
        from: "input",
        to: "output",
        factor,
        efficiency,
        converted: {},
      };
      const convert = (field: string, value: number | null | undefined): number | null => {
        if (!given(value)) return null;
        const after = value * factor;
        done.converted[field] = { before: value, after };
        return after;
      };
      capex = convert("capex_usd_per_kw", capex);
      fom = convert("opex_fixed_usd_per_kw_yr", fom);
      vom = convert("opex_var_usd_per_mwh", vom);
      conversion = done;
      notes.push(
        `Capacity basis: the catalogue costs this instance per kW of input ` +
          `(${instance.capacity_unit ?? "input"}); Calliope's energy_cap of a conversion is its ` +
          `output (carrier_out), so capex, fixed and variable O&M are ÷ efficiency ${efficiency} ` +
          "per kW of output (conversion)",
      );
    } else {
      capex = null;
      fom = null;
      vom = null;
      notes.push(
        "energy_cap, om_annual and om_prod left out: the instance is costed per kW of input, " +
          "Calliope's energy_cap is the output, and converting needs efficiency_percent",
      );
    }
  }

  const eff = instance.efficiency_percent;
  const cap = instance.typical_capacity_mw;
  const ramp = instance.ramping_rate_percent_per_min;
  const opexVar = vom;
  // Calliope 0.6 applies energy_eff on charge and on discharge of storage
  // (calliope/config/defaults.yaml; backend/pyomo/constraints/energy_balance.py): one way is
  // √(round trip).
  const isStorage = parent === "storage";
  const resource = parent === "supply_plus" ? resourceOf(technology) : null;
  if (resource?.capacityFactor) {
    // A capacity factor is output per kW: the plant's losses are in it already.
    constraints.energy_eff = 1;
    if (given(eff) && eff !== 100) {
      notes.push(
        `energy_eff = 1, not the catalogue's ${eff / 100}: the resource is a capacity factor ` +
          "(electricity out per kW of capacity), which includes the plant's losses; " +
          `${eff} % on top would cut the output by ${100 - eff} %`,
      );
    }
  } else {
    setConstraint(
      "energy_eff",
      given(eff) ? (isStorage ? Math.sqrt(eff / 100) : eff / 100) : null,
    );
  }
  setConstraint("energy_cap_max", given(cap) ? cap * 1000 : null);
  setConstraint("energy_ramping", given(ramp) ? ramp / 100 : null);
  setConstraint("lifetime", instance.lifetime_years);
  setCost("energy_cap", capex);
  setCost("om_annual", fom);
  setCost("om_prod", given(opexVar) ? opexVar / 1000 : null);

  if (parent === "transmission") {
    // Calliope 0.6 transmission: energy_cap_per_distance (cost per kW and unit of distance) and
    // energy_eff_per_distance (calliope/config/defaults.yaml); the distance is the link's.
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
    setConstraint("energy_eff_per_distance", null);
    notes.push("energy_eff_per_distance left out: the catalogue has no loss per distance");
  }

  // Fuel: om_con per kWh of fuel consumed (the resource of a supply, carrier_in of a conversion).
  const co2Costs: Partial<Record<CalliopeCostKey, number>> = {};
  const link = fuel ? fuelLink(instance, fuels) : { kind: "none" as const };
  if (!fuel && instance.fuel !== null && instance.fuel !== undefined) {
    notes.push(
      `fuel=false: no om_con and no ${CALLIOPE_CO2_CLASS} cost class for ${instance.fuel}; ` +
        "price the fuel and book its CO2 in your model",
    );
  } else if (link.kind === "unknown") {
    notes.push(`No om_con for ${link.fuel}: ${link.reason}`);
  } else if (link.kind === "record") {
    const record = link.record;
    const where = `fuel ${record.fuel_id} ${record.year}`;
    const consumed = parent === "conversion"
      ? `carrier_in (${technology.carrier_in?.[0] ?? record.fuel_id})`
      : "resource (the fuel; energy_eff is the plant efficiency)";
    if (!allowed.costs.includes("om_con")) {
      notes.push(`om_con left out: Calliope 0.6 ${parent} has none (${where})`);
    } else {
      const price = record.price_usd_per_mwh_th;
      if (price === null) {
        notes.push(
          `om_con left out: the ${where} record has no price (` +
            `${record.notes.join("; ") || "the source gives none"})`,
        );
      } else {
        costs.om_con = price / 1000;
        notes.push(
          `om_con = ${price} USD/MWh_th (${where}, ${fuelPriceSource(record)}) / 1000 = ` +
            `${price / 1000} USD per kWh of ${consumed} consumed; ?fuel=false leaves it out`,
        );
      }
      const co2 = record.co2_intensity_t_per_mwh_th;
      if (co2 === null) {
        notes.push(`No ${CALLIOPE_CO2_CLASS} cost class: the ${where} record has no CO2 intensity`);
      } else if (costClass === CALLIOPE_CO2_CLASS) {
        notes.push(
          `The fuel's CO2 (${co2} tCO2/MWh_th) is not served: the cost class asked for is ` +
            `${CALLIOPE_CO2_CLASS} itself`,
        );
      } else {
        co2Costs.om_con = co2 / 1000;
        notes.push(
          `costs.${CALLIOPE_CO2_CLASS}.om_con = ${co2} tCO2/MWh_th (${where}) / 1000 = ` +
            `${co2 / 1000} tCO2 per kWh of fuel consumed: an emissions cost class; weight it ` +
            "in the objective or cap it with a group constraint",
        );
      }
    }
  }
  if (isStorage) {
    // The catalogue has no self-discharge and no energy-to-power ratio: both left to Calliope.
    setConstraint("storage_loss", null);
    setConstraint("energy_cap_per_storage_cap_max", null);
    setCost("storage_cap", instance.capex_usd_per_kwh);
    const fomKwh = instance.opex_fixed_usd_per_kwh_yr;
    if (given(fomKwh)) {
      notes.push(
        `Fixed O&M of ${fomKwh} USD/kWh/a (opex_fixed_usd_per_kwh_yr) is not in the costs: ` +
          "Calliope 0.6 has no fixed O&M per storage_cap; add it to storage_cap as its present " +
          "value, fixed O&M / depreciation_rate",
      );
    }
    notes.push(
      "storage_loss and energy_cap_per_storage_cap_max left out: the catalogue has no " +
        "self-discharge and no energy-to-power ratio",
    );
  }

  if (given(ramp) && "energy_ramping" in constraints) {
    notes.push(
      "energy_ramping = ramping %/min / 100 as the catalogue defines it; Calliope 0.6 reads it " +
        "as a fraction of capacity per hour",
    );
  }
  if (isStorage && given(eff)) {
    notes.push(
      `energy_eff = √(round trip ${eff / 100}): Calliope 0.6 applies energy_eff on charge and ` +
        "on discharge; the catalogue gives the round trip only",
    );
  }
  if (!given(instance.lifetime_years) && given(instance.capex_usd_per_kw)) {
    notes.push("Calliope needs constraints.lifetime to annualise costs.energy_cap: set it");
  }
  if (resource !== null) {
    constraints.resource = resource.reference;
    constraints.resource_unit = ENERGY_PER_CAP;
    notes.push(resource.note);
    if (!resource.capacityFactor && resource.known === undefined && given(eff)) {
      notes.push(
        `energy_eff = ${eff / 100} multiplies the resource: if ${resource.series}.csv holds ` +
          "capacity factors (output per kW), set energy_eff to 1",
      );
    }
  }

  const essentials: CalliopeTech["essentials"] = {
    name: technology.technology_name,
    color: technologyColor(technology.technology_id),
    carrier_out: technology.carrier,
    parent,
  };
  if (parent === "storage" || parent === "transmission") {
    // Storage and transmission take in and give out the same carrier.
    essentials.carrier_in = technology.carrier;
  } else if (parent === "conversion") {
    const inputs = technology.carrier_in ?? [];
    if (inputs[0] !== undefined) essentials.carrier_in = inputs[0];
    else {
      omitted.push("essentials.carrier_in");
      notes.push("A Calliope conversion needs essentials.carrier_in; the catalogue does not say");
    }
    if (inputs.length > 1) {
      notes.push(
        `carrier_in ${inputs.slice(1).join(", ")} left out: a Calliope conversion has one ` +
          "input carrier (conversion_plus takes several)",
      );
    }
  }
  if (omitted.length > 0) {
    notes.push("Left-out keys take Calliope's defaults (calliope/config/defaults.yaml)");
  }

  const units: Record<string, string> = {};
  for (const key of Object.keys(constraints) as CalliopeConstraintKey[]) {
    units[`constraints.${key}`] = key === "resource" && resource !== null
      ? resource.unit
      : CONSTRAINT_UNITS[key] ?? "";
  }
  for (const key of Object.keys(costs) as CalliopeCostKey[]) {
    units[`costs.${costClass}.${key}`] = COST_UNITS[key] ?? "";
  }
  if (co2Costs.om_con !== undefined) {
    units[`costs.${CALLIOPE_CO2_CLASS}.om_con`] = "tCO2/kWh (per kWh of fuel consumed)";
  }
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
