/**
 * One catalogue instance from its source rows, following the recipe: money in USD (EUR × the
 * pinned USD/EUR rate; per MW and per MWh figures / 1000), fixed O&M = FOM % × capex, efficiency
 * by the variant's rule, operational CO2 = fuel intensity / efficiency × 1000 (net of capture),
 * every number rounded to 6 significant digits. Every rule a row breaks is reported, with where.
 */
import { type Instance, INSTANCE_NUMBER_FIELDS } from "../schema/technology_schema.ts";
import {
  BASIS_FIELDS,
  type CapacityBasis,
  CATALOGUE_DIGITS,
  fixedOpexFromFom,
  operationalCo2GPerKwh,
  parseEnergyCostUnit,
  parseInvestmentUnit,
  roundSignificant,
  toUsd,
} from "../schema/units.ts";
import type { CostRow, CostTable } from "./cost_table.ts";
import type {
  CapacityBasisRule,
  Co2Rule,
  FuelLink,
  RecipeTechnology,
  RecipeVariant,
} from "./recipe_schema.ts";

/** Source texts that mark a row as a placeholder rather than a figure. */
const PLACEHOLDER_SOURCE = /\bTODO\b|\bno source\b|\bmade up\b/i;

/** What a derivation needs besides the recipe: the rate, the year's table, and where errors go. */
export interface Derivation {
  readonly fx: number;
  readonly table: CostTable;
  /** Where, for messages: `onshore_wind/turbine/2030`. */
  readonly where: string;
  readonly errors: string[];
}

type Money = { capex: number; opex: number | null; components: string[] };

/**
 * The carrier a power-unit qualifier names (`EUR/kW_e` -> electricity, `EUR/MW_CH4` -> methane);
 * undefined for a bare `EUR/kW` or a qualifier that names no carrier.
 */
const QUALIFIER_CARRIERS: Readonly<Record<string, string>> = {
  e: "electricity",
  el: "electricity",
  H2: "hydrogen",
  CH4: "methane",
  th: "heat",
  MeOH: "liquid_fuels",
};

/** The carrier named by a power unit's qualifier (`_e, 2020` -> electricity), if any. */
export function qualifierCarrier(qualifier: string): string | undefined {
  const q = qualifier.replace(/^_/, "").split(/[,\s]/)[0] ?? "";
  return QUALIFIER_CARRIERS[q];
}

/** The instance of `variant` of `tech` for `year`; problems go to `d.errors`. */
export function deriveInstance(
  d: Derivation,
  tech: RecipeTechnology,
  variant: RecipeVariant,
  year: number,
  lifecycle_stage: Instance["lifecycle_stage"],
  instance_id: string,
): Instance {
  const fail = (message: string) => d.errors.push(`${d.where}: ${message}`);
  const excluded = new Map(
    (variant.exclude ?? []).map((e) => [`${e.component}|${e.parameter}`, e.reason]),
  );
  const used: CostRow[] = [];
  const notes: string[] = [];
  const get = (component: string, parameter: string): CostRow | undefined =>
    excluded.has(`${component}|${parameter}`) ? undefined : d.table.get(component)?.get(parameter);
  const need = (component: string, parameter: string): CostRow | undefined => {
    const r = get(component, parameter);
    if (!r) fail(`no ${parameter} row for "${component}"`);
    else used.push(r);
    return r;
  };

  for (const c of variant.components) {
    if (!d.table.has(c)) fail(`no source rows for "${c}"`);
  }
  for (const [k, reason] of excluded) {
    const [component, parameter] = k.split("|");
    notes.push(`${component} ${parameter} not used: ${reason}`);
  }

  const money = new Map<CapacityBasis, Money>();
  const powerUnits: PowerUnit[] = [];
  const variable: number[] = [];
  const lifetimes = new Set<number>();
  for (const c of variant.components) {
    const investment = get(c, "investment");
    const fom = get(c, "FOM");
    if (investment) {
      used.push(investment);
      const override = variant.investment_basis?.find((o) => o.component === c);
      const parsed = parseInvestmentUnit(investment.unit);
      const unit = override
        ? {
          currency: investment.unit.startsWith("USD") ? "USD" as const : "EUR" as const,
          basis: override.basis,
          scale: 1,
        }
        : parsed;
      if (override) notes.push(`${c} investment: ${override.reason}`);
      if (!unit) {
        fail(`${c} investment unit "${investment.unit}" is not a known cost unit`);
        continue;
      }
      if (parsed && unit.basis === "kw" && !override) {
        powerUnits.push({ component: c, unit: investment.unit, qualifier: parsed.qualifier });
      }
      if (unit.currency === "USD") {
        notes.push(
          `${c} investment is in USD in the source; used without exchange-rate conversion.`,
        );
      }
      const capex = toUsd(investment.value * unit.scale, unit.currency, d.fx);
      let opex: number | null = null;
      if (fom) {
        used.push(fom);
        if (fom.unit === "%") {
          notes.push(
            `${c} FOM unit is "%" in the source; read as %/year of investment like every FOM row.`,
          );
        } else if (fom.unit !== "%/year") fail(`${c} FOM unit "${fom.unit}" is not %/year`);
        opex = fixedOpexFromFom(fom.value, capex);
      }
      const slot = money.get(unit.basis);
      if (!slot) money.set(unit.basis, { capex, opex, components: [c] });
      else if ([...slot.components, c].every((x) => variant.sum?.includes(x))) {
        slot.capex += capex;
        slot.opex = slot.opex === null || opex === null ? null : slot.opex + opex;
        slot.components.push(c);
      } else {
        fail(
          `${slot.components.join(", ")} and ${c} both give investment per ${unit.basis}; ` +
            `add them to "sum" or split the variant`,
        );
      }
    } else if (fom) {
      notes.push(`${c}: the source gives FOM but no investment, so fixed O&M has no money value.`);
    }
    const vom = get(c, "VOM");
    if (vom) {
      used.push(vom);
      const unit = parseEnergyCostUnit(vom.unit);
      if (!unit) fail(`${c} VOM unit "${vom.unit}" is not per MWh`);
      else {
        variable.push(toUsd(vom.value, unit.currency, d.fx));
        if (unit.currency === "USD") {
          notes.push(`${c} VOM is in USD in the source; used unconverted.`);
        }
        if (!["", "_e", "el", "_el"].includes(unit.qualifier)) {
          notes.push(`Variable O&M is per MWh${unit.qualifier} (source unit ${vom.unit}).`);
        }
      }
    }
    const life = get(c, "lifetime");
    if (life) {
      used.push(life);
      if (life.unit !== "years") fail(`${c} lifetime unit "${life.unit}" is not years`);
      lifetimes.add(life.value);
    }
  }
  if (variable.length > 1) fail("more than one component has a VOM row");
  if (lifetimes.size > 1) {
    fail(`components disagree on lifetime (${[...lifetimes].join(", ")} years); split the variant`);
  }
  if (money.size === 0) notes.push("The source has no investment row for this instance.");

  const efficiency = deriveEfficiency(variant, need, notes, fail);
  const co2 = deriveCo2(variant.co2 ?? tech.co2, efficiency, d.table, variant, need, notes, fail);
  const capacity_basis = deriveCapacityBasis(
    tech,
    variant.capacity_basis ?? tech.capacity_basis,
    powerUnits,
    [...money.keys()],
    notes,
    fail,
  );
  const fuel = linkFuel(variant.fuel ?? tech.fuel, notes);
  notes.push(...variant.notes ?? [], ...tech.notes ?? []);
  for (const r of used) {
    if (PLACEHOLDER_SOURCE.test(r.source)) {
      fail(`row ${r.technology} / ${r.parameter} has the placeholder source "${r.source}"`);
    }
  }

  const numbers: Record<string, number | null> = Object.fromEntries(
    INSTANCE_NUMBER_FIELDS.map((f) => [f, null]),
  );
  for (const [basis, m] of money) {
    numbers[BASIS_FIELDS[basis].capex] = m.capex;
    numbers[BASIS_FIELDS[basis].opex_fixed] = m.opex;
  }
  numbers.opex_var_usd_per_mwh = variable[0] ?? null;
  numbers.efficiency_percent = efficiency === null ? null : efficiency * 100;
  numbers.lifetime_years = lifetimes.size === 1 ? [...lifetimes][0] as number : null;
  numbers.co2_emission_factor_operational_g_per_kwh = co2;
  const round = (f: typeof INSTANCE_NUMBER_FIELDS[number]) => {
    const v = numbers[f];
    return v === null || v === undefined ? null : roundSignificant(v, CATALOGUE_DIGITS);
  };
  const sources = [...new Set(used.map((r) => r.source).filter((s) => s !== ""))];
  return {
    instance_id,
    instance_name: `${variant.name}, ${year}${
      lifecycle_stage === "projection" ? " projection" : ""
    }`,
    year,
    lifecycle_stage,
    capacity_basis,
    capacity_unit: variant.capacity_unit,
    fuel,
    typical_capacity_mw: null,
    capex_usd_per_kw: round("capex_usd_per_kw"),
    opex_fixed_usd_per_kw_yr: round("opex_fixed_usd_per_kw_yr"),
    opex_var_usd_per_mwh: round("opex_var_usd_per_mwh"),
    efficiency_percent: round("efficiency_percent"),
    lifetime_years: round("lifetime_years"),
    co2_emission_factor_operational_g_per_kwh: round("co2_emission_factor_operational_g_per_kwh"),
    ramping_rate_percent_per_min: null,
    capex_usd_per_kwh: round("capex_usd_per_kwh"),
    opex_fixed_usd_per_kwh_yr: round("opex_fixed_usd_per_kwh_yr"),
    capex_usd_per_kw_km: round("capex_usd_per_kw_km"),
    opex_fixed_usd_per_kw_km_yr: round("opex_fixed_usd_per_kw_km_yr"),
    capex_usd_per_t_co2_per_h: round("capex_usd_per_t_co2_per_h"),
    opex_fixed_usd_per_t_co2_per_h_yr: round("opex_fixed_usd_per_t_co2_per_h_yr"),
    capex_usd_per_t_co2_per_h_km: round("capex_usd_per_t_co2_per_h_km"),
    opex_fixed_usd_per_t_co2_per_h_km_yr: round("opex_fixed_usd_per_t_co2_per_h_km_yr"),
    reference_source: sources.length ? sources.join(" | ") : null,
    source_technologies: [...new Set(used.map((r) => r.technology))],
    notes,
  };
}

/** Efficiency as a fraction, or null, following the variant's rule. */
function deriveEfficiency(
  variant: RecipeVariant,
  need: (component: string, parameter: string) => CostRow | undefined,
  notes: string[],
  fail: (message: string) => void,
): number | null {
  const rule = variant.efficiency;
  const fraction = (r: CostRow | undefined): number | undefined => {
    if (!r) return undefined;
    if (!/^(per unit|p\.u\.)/.test(r.unit)) fail(`${r.technology} efficiency unit "${r.unit}"`);
    return r.value;
  };
  switch (rule.from) {
    case "none":
      notes.push(`Efficiency: ${rule.reason}`);
      return null;
    case "row": {
      notes.push(`Efficiency: ${rule.basis}.`);
      return fraction(need(rule.component, "efficiency")) ?? null;
    }
    case "inverse": {
      const r = need(rule.component, rule.parameter);
      notes.push(
        `Efficiency: ${rule.basis}; derived as 1 / ${rule.parameter} (${r?.unit ?? "?"}).`,
      );
      return r && r.value > 0 ? 1 / r.value : null;
    }
    case "square": {
      const r = need(rule.component, "efficiency");
      // Only where the source says its figure is the square root of the round trip.
      if (r && !r.description.includes("^0.5")) {
        fail(`${r.technology} efficiency is not marked as a square root ("^0.5") in the source`);
      }
      notes.push(
        `Efficiency: ${rule.basis}; derived as (one-way efficiency of ${rule.component})², the ` +
          "source giving its one-way figure as (round trip)^0.5.",
      );
      const e = fraction(r);
      return e === undefined ? null : e * e;
    }
    case "product": {
      notes.push(
        `Efficiency: ${rule.basis}; derived as the product of the efficiency rows of ` +
          `${rule.components.join(" and ")}.`,
      );
      let e = 1;
      for (const c of rule.components) {
        const f = fraction(need(c, "efficiency"));
        if (f === undefined) return null;
        e *= f;
      }
      return e;
    }
  }
}

/** Operational CO2 in g/kWh, or null, following the rule. */
function deriveCo2(
  rule: Co2Rule | undefined,
  efficiency: number | null,
  table: CostTable,
  variant: RecipeVariant,
  need: (component: string, parameter: string) => CostRow | undefined,
  notes: string[],
  fail: (message: string) => void,
): number | null {
  if (!rule) {
    fail(`variant ${variant.key} has no co2 rule`);
    return null;
  }
  if (rule.from === "zero") {
    notes.push(rule.reason);
    return 0;
  }
  if (rule.from === "none") {
    notes.push(rule.reason);
    return null;
  }
  const intensity = table.has(rule.fuel) ? need(rule.fuel, "CO2 intensity") : undefined;
  if (!intensity) fail(`fuel "${rule.fuel}" has no CO2 intensity row`);
  else if (intensity.unit !== "tCO2/MWh_th") {
    fail(`${rule.fuel} CO2 intensity unit "${intensity.unit}"`);
  }
  const capture = rule.capture_rate
    ? need(rule.capture_rate.component, rule.capture_rate.parameter)
    : undefined;
  if (efficiency === null) fail("operational CO2 from a fuel needs an efficiency");
  if (!intensity || efficiency === null || (rule.capture_rate && !capture)) return null;
  notes.push(
    `Operational CO2 = ${rule.fuel} CO2 intensity (tCO2/MWh_th) / efficiency × 1000` +
      (capture ? ` × (1 - capture rate of ${capture.technology})` : "") + ", per kWh of output.",
  );
  return operationalCo2GPerKwh(intensity.value, efficiency, capture?.value ?? 0);
}

/** A per-kW investment unit of a component, for the capacity basis. */
interface PowerUnit {
  readonly component: string;
  readonly unit: string;
  readonly qualifier: string;
}

/**
 * `input` or `output`: read from the investment unit where its qualifier names a carrier that is
 * on one side of the technology only (`EUR/kW_e` of an electrolyser: electricity in -> input; of a
 * power plant: electricity out -> output); else the recipe's declaration. A declaration that
 * disagrees with an explicit unit, or a basis that is neither explicit nor declared, is an error.
 * A technology with no input carrier is output based. An instance costed per kWh only has no
 * power capacity: null.
 */
function deriveCapacityBasis(
  tech: RecipeTechnology,
  declared: CapacityBasisRule | undefined,
  powerUnits: readonly PowerUnit[],
  bases: readonly CapacityBasis[],
  notes: string[],
  fail: (message: string) => void,
): Instance["capacity_basis"] {
  const explicit = new Map<string, "input" | "output">();
  for (const u of powerUnits) {
    const carrier = qualifierCarrier(u.qualifier);
    if (carrier === undefined) continue;
    const isIn = tech.carrier_in.includes(carrier);
    const isOut = tech.carrier_out.includes(carrier);
    if (isIn !== isOut) explicit.set(`${u.component} (${u.unit})`, isIn ? "input" : "output");
  }
  const sides = new Set(explicit.values());
  if (sides.size > 1) {
    fail(`investment units disagree on the capacity basis: ${[...explicit.keys()].join(", ")}`);
    return null;
  }
  const [side] = sides;
  if (side !== undefined) {
    if (declared && declared.side !== side) {
      fail(`capacity basis declared ${declared.side} but the unit says ${side}`);
    }
    const [from] = explicit.keys();
    notes.push(
      `Capacity basis: ${side}, from the investment unit of ${from}: its carrier is the ` +
        `technology's ${side}.`,
    );
    return side;
  }
  const powered = bases.some((b) => b !== "kwh");
  const energyOnly = bases.length > 0 && !powered;
  if (tech.carrier_in.length === 0 && !energyOnly) {
    if (declared && declared.side !== "output") {
      fail(`capacity basis declared ${declared.side} but the technology has no input carrier`);
    }
    notes.push("Capacity basis: output, the technology has no input carrier.");
    return "output";
  }
  if (declared) {
    if (energyOnly) {
      notes.push("Capacity basis: null, the instance is costed per kWh stored only.");
      return null;
    }
    notes.push(`Capacity basis: ${declared.side ?? "null"}, declared: ${declared.reason}`);
    return declared.side;
  }
  if (!powered) {
    notes.push(
      bases.length
        ? "Capacity basis: null, the instance is costed per kWh stored only."
        : "Capacity basis: null, the source has no investment for this instance.",
    );
    return null;
  }
  fail(
    `the investment unit (${powerUnits.map((u) => u.unit).join(", ") || bases.join(", ")}) ` +
      "does not say input or output; declare capacity_basis in the recipe",
  );
  return null;
}

/** The fuel id of a link, or null (with the reason in the notes). */
function linkFuel(link: FuelLink | undefined, notes: string[]): string | null {
  if (!link) return null;
  if (link.fuel_id === null) {
    notes.push(`Fuel: none linked. ${link.reason}`);
    return null;
  }
  notes.push(
    `Fuel: ${link.fuel_id} (price and CO2 intensity in the catalogue's fuel record of the same ` +
      "year).",
  );
  return link.fuel_id;
}
