/**
 * Builds small ResolvedModels for LP tests: defaults of Calliope's `defaults.yaml` and its
 * built-in groups filled in, set memberships derived from the keys given, as the resolver does.
 */
import type { TechType } from "../../lib/model/model_config.ts";
import type {
  CarrierTiers,
  LocTechSets,
  ResolvedConstraints,
  ResolvedCosts,
  ResolvedLocTech,
  ResolvedModel,
} from "../../lib/model/preprocess/resolved_model.ts";

/** What a test states about one loc_tech. */
export interface LocTechSpec {
  location: string;
  tech: string;
  type: TechType;
  /** Shortcut: carrier in and out (supply: out; demand: in). */
  carrier?: string;
  carriers?: Partial<CarrierTiers>;
  primary_carrier_out?: string;
  primary_carrier_in?: string;
  remote?: string;
  constraints?: Partial<ResolvedConstraints>;
  costs?: Record<string, Partial<ResolvedCosts>>;
  sets?: Partial<LocTechSets>;
}

const GROUP: Record<TechType, Partial<ResolvedConstraints>> = {
  supply: { energy_prod: true, energy_con: false, resource: Infinity },
  supply_plus: { energy_prod: true, energy_con: false, resource: Infinity },
  demand: { energy_prod: false, energy_con: true, force_resource: true },
  storage: { energy_prod: true, energy_con: true },
  transmission: { energy_prod: true, energy_con: true },
  conversion: { energy_prod: true, energy_con: true },
  conversion_plus: { energy_prod: true, energy_con: true },
};

/** Constraints with Calliope's defaults. */
export function constraints(
  type: TechType,
  over: Partial<ResolvedConstraints> = {},
): ResolvedConstraints {
  return {
    energy_prod: false,
    energy_con: false,
    energy_eff: 1,
    parasitic_eff: 1,
    resource_eff: 1,
    resource: 0,
    resource_scale: 1,
    resource_unit: "energy",
    force_resource: false,
    resource_min_use: 0,
    energy_cap_min: 0,
    energy_cap_max: Infinity,
    energy_cap_scale: 1,
    storage_cap_min: 0,
    storage_cap_max: Infinity,
    storage_loss: 0,
    resource_cap_min: 0,
    resource_cap_max: Infinity,
    resource_cap_equals_energy_cap: false,
    resource_area_min: 0,
    resource_area_max: Infinity,
    export_cap: Infinity,
    carrier_ratios: {},
    ...GROUP[type],
    ...over,
  };
}

/** Costs of one class with zeros filled in (depreciation 1 unless given). */
export function costs(over: Partial<ResolvedCosts> = {}): ResolvedCosts {
  return {
    energy_cap: 0,
    storage_cap: 0,
    resource_cap: 0,
    resource_area: 0,
    om_annual: 0,
    om_annual_investment_fraction: 0,
    om_prod: 0,
    om_con: 0,
    export: 0,
    depreciation: 1,
    ...over,
  };
}

function isSet(v: unknown): boolean {
  if (Array.isArray(v)) return v.some((x) => x !== 0);
  return v !== undefined && v !== 0;
}

/** One loc_tech with defaults and derived sets. */
export function locTech(spec: LocTechSpec): ResolvedLocTech {
  const c = constraints(spec.type, spec.constraints);
  const carrier = spec.carrier ?? "power";
  const tiers: CarrierTiers = {
    in: spec.type === "supply" || spec.type === "supply_plus" ? ["resource"] : [carrier],
    in_2: [],
    in_3: [],
    out: spec.type === "demand" ? ["resource"] : [carrier],
    out_2: [],
    out_3: [],
    ...spec.carriers,
  };
  const costEntries = Object.entries(spec.costs ?? {}).map(([k, v]) => [k, costs(v)] as const);
  const given = { ...spec.constraints };
  const costKeys = Object.values(spec.costs ?? {}).flatMap((v) =>
    Object.entries(v).filter(([, x]) => isSet(x)).map(([k]) => k)
  );
  const resource = c.resource;
  const sets: LocTechSets = {
    area: Object.keys(given).some((k) => k.includes("resource_area")) ||
      costKeys.includes("resource_area") || c.resource_unit === "energy_per_area",
    store: spec.type === "storage" ||
      (spec.type === "supply_plus" && Object.keys(given).some((k) => k.startsWith("storage_"))),
    finiteResource: typeof resource === "number"
      ? resource !== 0 && Number.isFinite(resource)
      : true,
    ramping: given.energy_ramping !== undefined,
    export: given.export_carrier !== undefined,
    investmentCost: costKeys.some((k) =>
      ["energy_cap", "storage_cap", "resource_cap", "resource_area", "om_annual"].includes(k)
    ),
    omCost: spec.type !== "transmission"
      ? costKeys.some((k) => ["om_prod", "om_con", "export"].includes(k))
      : costKeys.some((k) => ["om_prod", "om_con"].includes(k)),
    ...spec.sets,
  };
  const id = spec.remote === undefined
    ? `${spec.location}::${spec.tech}`
    : `${spec.location}::${spec.tech}:${spec.remote}`;
  return {
    id,
    location: spec.location,
    tech: spec.tech,
    type: spec.type,
    ...(spec.remote === undefined ? {} : { remote: spec.remote }),
    carriers: tiers,
    ...(spec.primary_carrier_out === undefined
      ? {}
      : { primary_carrier_out: spec.primary_carrier_out }),
    ...(spec.primary_carrier_in === undefined
      ? {}
      : { primary_carrier_in: spec.primary_carrier_in }),
    constraints: c,
    costs: Object.fromEntries(costEntries),
    sets,
  };
}

/** Both ends of a link between a and b. */
export function link(
  a: string,
  b: string,
  tech: string,
  over: Omit<LocTechSpec, "location" | "tech" | "type" | "remote"> = {},
): ResolvedLocTech[] {
  return [
    locTech({ ...over, location: a, tech, type: "transmission", remote: b }),
    locTech({ ...over, location: b, tech, type: "transmission", remote: a }),
  ];
}

/** A model of `steps` hourly timesteps from 2005-01-01T00:00:00. */
export function model(
  locTechs: ResolvedLocTech[],
  over: Partial<ResolvedModel> & { steps?: number } = {},
): ResolvedModel {
  const steps = over.steps ?? 2;
  const timestamps = Array.from(
    { length: steps },
    (_, t) => new Date(Date.UTC(2005, 0, 1, t)).toISOString().slice(0, 19),
  );
  const locations = [...new Set(locTechs.map((lt) => lt.location))].map((id) => ({
    id,
    name: id,
  }));
  const techs = new Map<string, ResolvedLocTech>();
  for (const lt of locTechs) if (!techs.has(lt.tech)) techs.set(lt.tech, lt);
  const classes = new Set<string>();
  for (const lt of locTechs) for (const k of Object.keys(lt.costs)) classes.add(k);
  const { steps: _s, ...rest } = over;
  return {
    name: "test",
    timestamps,
    resolution: timestamps.map(() => 1),
    weights: timestamps.map(() => 1),
    locations,
    technologies: [...techs.values()].map((lt) => ({
      name: lt.tech,
      type: lt.type,
      displayName: lt.tech,
      carrier: lt.type === "demand" ? lt.carriers.in[0]! : lt.carriers.out[0]!,
    })),
    locTechs,
    costClasses: [...classes].sort(),
    objectiveWeights: { monetary: 1 },
    ensureFeasibility: false,
    bigM: 1e9,
    cyclicStorage: true,
    solver: { method: "simplex" },
    ...rest,
  };
}
