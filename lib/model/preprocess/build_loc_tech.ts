/**
 * One loc::tech from its merged settings to what the LP builder reads: defaults applied,
 * quantities and series resolved on the model's timeline, costs with their depreciation, and
 * Calliope's set memberships decided from the keys set.
 */
import type { Technology } from "../model_config.ts";
import type {
  CarrierTier,
  LocTechSets,
  ResolvedConstraints,
  ResolvedCosts,
  ResolvedLocTech,
  Series,
} from "./resolved_model.ts";
import type { TechCarriers } from "./carriers.ts";
import type { RawSettings } from "./loc_tech_settings.ts";
import { toNumber } from "./quantity.ts";
import { DEFAULT_CONSTRAINTS } from "./tech_defaults.ts";
import { isSeriesReference } from "./series_reference.ts";
import type { Timeline } from "./timeline.ts";

type Defaults = typeof DEFAULT_CONSTRAINTS;
/** Constraint keys whose default is a number, and those whose default is a boolean. */
type NumberDefault = {
  [K in keyof Defaults]: Defaults[K] extends number ? K : never;
}[keyof Defaults];
type FlagDefault = {
  [K in keyof Defaults]: Defaults[K] extends boolean ? K : never;
}[keyof Defaults];

/** A loc::tech before defaults and time series. */
export interface RawLocTech {
  readonly id: string;
  readonly location: string;
  readonly locationIndex: number;
  readonly tech: Technology;
  readonly techIndex: number;
  readonly carriers: TechCarriers;
  readonly remote?: string;
  readonly remoteIndex?: number;
  readonly distance?: number;
  /** energy_eff_per_distance^distance, applied once energy_eff is known. */
  readonly effScale: number;
  readonly settings: RawSettings;
}

export function buildLocTech(
  lt: RawLocTech,
  depreciations: Readonly<Record<string, number>>,
  timeline: Timeline,
): ResolvedLocTech {
  const s = lt.settings;
  const c = s.constraints;
  const where = (key: string) => s.constraintPaths[key] ?? `technologies[${lt.techIndex}]`;
  // A key nobody set takes `techs.default_tech`'s value (`DEFAULT_CONSTRAINTS`).
  const num = (key: NumberDefault): number => {
    const fallback: number = DEFAULT_CONSTRAINTS[key];
    return c[key] === undefined ? fallback : toNumber(c[key]) ?? fallback;
  };
  const opt = (key: string): number | undefined =>
    c[key] === undefined ? undefined : toNumber(c[key]);
  const seriesOf = (key: string): Series =>
    timeline.value(c[key], key === "resource" ? "resource" : "other", lt.location, where(key));
  const series = (key: NumberDefault): Series =>
    c[key] === undefined ? DEFAULT_CONSTRAINTS[key] : seriesOf(key);
  const flag = (key: FlagDefault): boolean =>
    typeof c[key] === "boolean" ? c[key] as boolean : DEFAULT_CONSTRAINTS[key];

  let energyEff = series("energy_eff");
  if (lt.effScale !== 1) {
    energyEff = typeof energyEff === "number"
      ? energyEff * lt.effScale
      : energyEff.map((v) => v * lt.effScale);
  }
  let perStorageMax = opt("energy_cap_per_storage_cap_max");
  const chargeRate = opt("charge_rate");
  // charge_rate is the deprecated spelling of the same bound; both apply, so the tighter wins.
  if (chargeRate !== undefined) perStorageMax = Math.min(perStorageMax ?? Infinity, chargeRate);
  const ratios: Partial<Record<CarrierTier, Record<string, number>>> = {};
  for (const [tier, values] of Object.entries((c.carrier_ratios ?? {}) as Record<string, object>)) {
    ratios[tier.replace(/^carrier_/, "") as CarrierTier] = { ...values } as Record<string, number>;
  }
  const optional: Partial<Record<keyof ResolvedConstraints, unknown>> = {
    energy_cap_equals: opt("energy_cap_equals"),
    energy_cap_min_use: opt("energy_cap_min_use"),
    energy_cap_equals_systemwide: opt("energy_cap_equals_systemwide"),
    energy_cap_max_systemwide: opt("energy_cap_max_systemwide"),
    energy_cap_per_storage_cap_min: opt("energy_cap_per_storage_cap_min"),
    energy_cap_per_storage_cap_max: perStorageMax,
    energy_cap_per_storage_cap_equals: opt("energy_cap_per_storage_cap_equals"),
    storage_cap_equals: opt("storage_cap_equals"),
    storage_initial: opt("storage_initial"),
    storage_discharge_depth: opt("storage_discharge_depth"),
    resource_cap_equals: opt("resource_cap_equals"),
    resource_area_equals: opt("resource_area_equals"),
    resource_area_per_energy_cap: opt("resource_area_per_energy_cap"),
    energy_ramping: c.energy_ramping === undefined ? undefined : seriesOf("energy_ramping"),
    export_carrier: typeof c.export_carrier === "string" ? c.export_carrier : undefined,
    lifetime: opt("lifetime"),
  };
  const constraints = {
    energy_prod: flag("energy_prod"),
    energy_con: flag("energy_con"),
    energy_eff: energyEff,
    parasitic_eff: series("parasitic_eff"),
    resource_eff: series("resource_eff"),
    resource: series("resource"),
    resource_scale: num("resource_scale"),
    resource_unit: (c.resource_unit ?? DEFAULT_CONSTRAINTS.resource_unit) as ResolvedConstraints[
      "resource_unit"
    ],
    force_resource: flag("force_resource"),
    resource_min_use: num("resource_min_use"),
    energy_cap_min: num("energy_cap_min"),
    energy_cap_max: num("energy_cap_max"),
    energy_cap_scale: num("energy_cap_scale"),
    storage_cap_min: num("storage_cap_min"),
    storage_cap_max: num("storage_cap_max"),
    storage_loss: series("storage_loss"),
    resource_cap_min: num("resource_cap_min"),
    resource_cap_max: num("resource_cap_max"),
    resource_cap_equals_energy_cap: flag("resource_cap_equals_energy_cap"),
    resource_area_min: num("resource_area_min"),
    resource_area_max: num("resource_area_max"),
    export_cap: num("export_cap"),
    carrier_ratios: ratios,
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
  } as ResolvedConstraints;

  const costs: Record<string, ResolvedCosts> = {};
  for (const [cls, values] of Object.entries(s.costs)) {
    const paths = s.costPaths[cls] ?? {};
    const cost = (key: string): number => toNumber(values[key]) ?? 0;
    const costSeries = (key: string): Series =>
      values[key] === undefined
        ? 0
        : timeline.value(values[key], "other", lt.location, paths[key] ?? "");
    costs[cls] = {
      energy_cap: cost("energy_cap"),
      storage_cap: cost("storage_cap"),
      resource_cap: cost("resource_cap"),
      resource_area: cost("resource_area"),
      om_annual: cost("om_annual"),
      om_annual_investment_fraction: cost("om_annual_investment_fraction"),
      om_prod: costSeries("om_prod"),
      om_con: costSeries("om_con"),
      export: costSeries("export"),
      depreciation: depreciations[cls] ?? 1,
    };
  }

  return {
    id: lt.id,
    location: lt.location,
    tech: lt.tech.name,
    type: lt.tech.type,
    ...(lt.remote === undefined ? {} : { remote: lt.remote }),
    ...(lt.distance === undefined ? {} : { distance: lt.distance }),
    carriers: lt.carriers.tiers,
    ...(lt.carriers.primary_carrier_out === undefined
      ? {}
      : { primary_carrier_out: lt.carriers.primary_carrier_out }),
    ...(lt.carriers.primary_carrier_in === undefined
      ? {}
      : { primary_carrier_in: lt.carriers.primary_carrier_in }),
    constraints,
    costs,
    sets: locTechSets(lt, constraints),
  };
}

/** Set memberships decided from the keys set (`preprocess/sets.py`). */
function locTechSets(lt: RawLocTech, constraints: ResolvedConstraints): LocTechSets {
  const keys = Object.keys(lt.settings.constraints);
  const costKeys = Object.values(lt.settings.costs).flatMap((c) => Object.keys(c));
  const transmission = lt.tech.type === "transmission";
  const resource = lt.settings.constraints.resource;
  const resourceValue = toNumber(resource);
  const finite = !transmission && resource !== undefined &&
    (isSeriesReference(resource) ||
      (resourceValue !== undefined && resourceValue !== 0 && Number.isFinite(resourceValue)));
  return {
    area: !transmission &&
      ([...keys, ...costKeys].some((k) => k.includes("resource_area")) ||
        constraints.resource_unit === "energy_per_area"),
    store: lt.tech.type === "storage" ||
      (lt.tech.type === "supply_plus" && keys.some((k) => k.includes("storage_"))),
    finiteResource: finite,
    ramping: !transmission && keys.includes("energy_ramping"),
    export: !transmission && keys.includes("export_carrier"),
    investmentCost: costKeys.some((k) =>
      k.includes("_cap") || k.includes("purchase") || k.includes("_area") ||
      k.includes("om_annual")
    ),
    omCost: costKeys.some((k) =>
      (k.includes("om_") || (k.includes("export") && !transmission)) && !k.includes("om_annual")
    ),
  };
}
