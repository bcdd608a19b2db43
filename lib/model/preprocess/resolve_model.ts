/**
 * ModelConfig -> ResolvedModel: Calliope 0.6 pre-processing (`preprocess/model_run.py`,
 * `locations.py`, `sets.py`, `time.py`). Every problem is collected and thrown at once as a
 * ModelValidationError naming each JSON path.
 */
import type { Location, ModelConfig, Technology } from "../model_config.ts";
import { dedupeProblems, type ModelProblem, ModelValidationError } from "../model_problem.ts";
import type { CarrierTier, ResolvedModel, ResolvedTechnology } from "./resolved_model.ts";
import { applyScenario } from "./apply_model_overrides.ts";
import { parseModelConfig } from "../parse_model_config.ts";
import { type TechCarriers, techCarriers } from "./carriers.ts";
import {
  checkAllowedKeys,
  mergeSettings,
  type RawSettings,
  type SettingsLayer,
} from "./loc_tech_settings.ts";
import { REQUIRED_CONSTRAINTS } from "./tech_defaults.ts";
import { linkDistance } from "./link_distance.ts";
import { depreciationRate, isCapitalCostKey } from "./depreciation.ts";
import { toNumber } from "./quantity.ts";
import { valueRangeProblems } from "./value_ranges.ts";
import { isSeriesReference } from "./series_reference.ts";
import { buildTimeline } from "./timeline.ts";
import { didYouMean } from "../key_suggestions.ts";
import { buildLocTech, type RawLocTech } from "./build_loc_tech.ts";
import { resolveMilp } from "./milp_settings.ts";
import { applyModelTime } from "./apply_model_time.ts";
import { sporesOptions } from "../spores/spores_options.ts";
import { sporesProblems } from "../spores/spores_problems.ts";
import { resolveOperate } from "./resolve_operate.ts";
import { availableAreaProblems, resolveLocation } from "./resolve_location.ts";
import {
  decisionShareProblems,
  groupConstraintProblems,
  resolveGroupConstraints,
} from "./group_constraints.ts";
import { reserveMarginProblems } from "./reserve_margin.ts";

/** Calliope 0.6's `run.zero_threshold` default (defaults.yaml). */
export const DEFAULT_ZERO_THRESHOLD = 1e-10;

/** The outcome of `prepareModel`. */
export type PrepareModelResult =
  | { ok: true; model: ResolvedModel }
  | { ok: false; problems: ModelProblem[] };

/** Parse + resolve a request body; never throws for a bad model. */
export function prepareModel(body: unknown): PrepareModelResult {
  const parsed = parseModelConfig(body);
  if (!parsed.ok) return parsed;
  try {
    return { ok: true, model: resolveModel(parsed.config) };
  } catch (e) {
    if (e instanceof ModelValidationError) return { ok: false, problems: [...e.problems] };
    throw e;
  }
}

/** Pre-processes a model as Calliope 0.6 does; throws ModelValidationError listing every problem. */
export function resolveModel(input: ModelConfig): ResolvedModel {
  const config = applyScenario(input);
  const problems: ModelProblem[] = [];

  // Technologies by name.
  const techByName = new Map<string, number>();
  const carriersOf = new Map<number, TechCarriers>();
  config.technologies.forEach((tech, i) => {
    const path = `technologies[${i}]`;
    if (techByName.has(tech.name)) {
      problems.push({
        path: `${path}.name`,
        message: `technology "${tech.name}" is defined twice (also technologies[${
          techByName.get(tech.name)
        }])`,
      });
      return;
    }
    techByName.set(tech.name, i);
    const c = techCarriers(tech, path, problems);
    if (c) carriersOf.set(i, c);
    checkAllowedKeys(tech.type, { ...techLayer(tech, i) }, false, problems);
  });
  const techNames = [...techByName.keys()];
  const lookupTech = (name: string, path: string): number | undefined => {
    const i = techByName.get(name);
    if (i === undefined) {
      problems.push({
        path,
        message: `unknown technology "${name}"${didYouMean(name, techNames)}`,
      });
    }
    return i;
  };

  // Locations by id.
  const locByName = new Map<string, number>();
  config.locations.forEach((loc, i) => {
    if (locByName.has(loc.id)) {
      problems.push({
        path: `locations[${i}].id`,
        message: `location "${loc.id}" is defined twice`,
      });
    } else locByName.set(loc.id, i);
  });

  const raw: RawLocTech[] = [];
  config.locations.forEach((loc, li) => {
    const placed = new Set<string>();
    loc.technologies.forEach((entry, ei) => {
      const path = `locations[${li}].technologies[${ei}]`;
      const name = typeof entry === "string" ? entry : entry.name;
      const ti = lookupTech(name, typeof entry === "string" ? path : `${path}.name`);
      if (ti === undefined) return;
      const tech = config.technologies[ti]!;
      if (placed.has(name)) {
        problems.push({ path, message: `technology "${name}" is placed twice at "${loc.id}"` });
        return;
      }
      placed.add(name);
      if (tech.type === "transmission") {
        problems.push({
          path,
          message: `"${name}" is a transmission technology: place it on a link, not a location`,
        });
        return;
      }
      const layers: SettingsLayer[] = [techLayer(tech, ti)];
      if (typeof entry !== "string") {
        const layer = { constraints: entry.constraints, costs: entry.costs, path };
        checkAllowedKeys(tech.type, layer, true, problems);
        layers.push(layer);
      }
      const carriers = carriersOf.get(ti);
      if (!carriers) return;
      raw.push({
        id: `${loc.id}::${name}`,
        location: loc.id,
        locationIndex: li,
        tech,
        techIndex: ti,
        carriers,
        effScale: 1,
        settings: mergeSettings(tech.type, `technologies[${ti}]`, layers),
      });
    });
  });

  // Links: both ends of each, with distances and per-distance values folded in.
  const seenLinks = new Map<string, number>();
  config.links.forEach((link, mi) => {
    const path = `links[${mi}]`;
    const ends = (["source", "target"] as const).map((end) => {
      const id = link[end];
      const index = locByName.get(id);
      if (index === undefined) {
        problems.push({
          path: `${path}.${end}`,
          message: `unknown location "${id}"${didYouMean(id, [...locByName.keys()])}`,
        });
      }
      return index;
    });
    const [si, ti2] = ends;
    if (link.source === link.target) {
      problems.push({ path, message: "a link joins two different locations" });
    }
    const names = typeof link.technology === "string" ? [link.technology] : link.technology;
    names.forEach((name, k) => {
      const tpath = typeof link.technology === "string"
        ? `${path}.technology`
        : `${path}.technology[${k}]`;
      const techIndex = lookupTech(name, tpath);
      if (techIndex === undefined) return;
      const tech = config.technologies[techIndex]!;
      if (tech.type !== "transmission") {
        problems.push({
          path: tpath,
          message: `"${name}" is a ${tech.type} technology; a link carries transmission ` +
            "technologies only",
        });
        return;
      }
      const key = [link.source, link.target].sort().join(",") + `::${name}`;
      if (seenLinks.has(key)) {
        problems.push({
          path: tpath,
          message: `"${name}" already links ${link.source} and ${link.target} (links[${
            seenLinks.get(key)
          }])`,
        });
        return;
      }
      seenLinks.set(key, mi);
      const layer = { constraints: link.constraints, costs: link.costs, path };
      checkAllowedKeys(tech.type, layer, true, problems);
      const carriers = carriersOf.get(techIndex);
      if (si === undefined || ti2 === undefined || !carriers) return;
      const settings = mergeSettings(tech.type, `technologies[${techIndex}]`, [
        techLayer(tech, techIndex),
        layer,
      ]);
      const folded = foldPerDistance(
        settings,
        link.distance,
        config.locations[si]!,
        config.locations[ti2]!,
        path,
        problems,
      );
      if (!folded) return;
      for (const [a, b] of [[si, ti2], [ti2, si]] as const) {
        const here = config.locations[a]!.id;
        const there = config.locations[b]!.id;
        raw.push({
          id: `${here}::${name}:${there}`,
          location: here,
          locationIndex: a,
          tech,
          techIndex,
          carriers,
          remote: there,
          remoteIndex: b,
          ...(folded.distance === undefined ? {} : { distance: folded.distance }),
          effScale: folded.effScale,
          settings: folded.settings,
        });
      }
    });
  });

  for (const lt of raw) checkLocTech(lt, problems);
  // Computed before the timeline so their problems are reported with all the others.
  const depreciations = new Map(raw.map((lt) => [lt, depreciationByClass(lt, problems)]));

  const timeline = buildTimeline(config, raw, problems);
  if (problems.length > 0 || timeline === undefined) {
    throw new ModelValidationError(dedupeProblems(problems));
  }

  raw.sort((a, b) =>
    a.locationIndex - b.locationIndex || a.techIndex - b.techIndex ||
    (a.remoteIndex ?? -1) - (b.remoteIndex ?? -1)
  );
  const locTechs = raw.map((lt) => {
    const resolved = buildLocTech(lt, depreciations.get(lt)!, timeline);
    const techPath = `technologies[${lt.techIndex}]`;
    problems.push(...valueRangeProblems(
      resolved,
      (key) => lt.settings.constraintPaths[key] ?? `${techPath}.constraints.${key}`,
      (cls, key) => lt.settings.costPaths[cls]?.[key] ?? `${techPath}.costs.${cls}.${key}`,
    ));
    const milp = resolveMilp(lt.settings, lt.id, techPath, problems);
    return milp === undefined ? resolved : { ...resolved, milp };
  });
  problems.push(...reserveMarginProblems(config.parameters.reserve_margin, carriersOf.values()));
  problems.push(...config.locations.flatMap(availableAreaProblems));
  if (problems.length > 0) throw new ModelValidationError(dedupeProblems(problems));

  const params = config.parameters;
  const objectiveWeights = { ...(params.objective_cost_class ?? { monetary: 1 }) };
  const classes = new Set<string>(Object.keys(objectiveWeights));
  for (const t of config.technologies) for (const c of Object.keys(t.costs ?? {})) classes.add(c);
  for (const l of config.locations) {
    for (const e of l.technologies) {
      if (typeof e !== "string") { for (const c of Object.keys(e.costs ?? {})) classes.add(c); }
    }
  }
  for (const l of config.links) for (const c of Object.keys(l.costs ?? {})) classes.add(c);
  const groupProblems = groupConstraintProblems(
    config.groupConstraints,
    new Set(config.technologies.map((t) => t.name)),
    new Set(config.locations.map((l) => l.id)),
    classes,
  );
  const warnings: string[] = [];
  const groups = config.groupConstraints === undefined
    ? undefined
    : resolveGroupConstraints(config.groupConstraints, locTechs, warnings);
  groupProblems.push(...decisionShareProblems(groups ?? [], locTechs));
  if (groupProblems.length > 0) throw new ModelValidationError(dedupeProblems(groupProblems));

  const resolved: ResolvedModel = {
    name: config.name,
    timestamps: timeline.timestamps,
    resolution: timeline.resolution,
    weights: timeline.resolution.map(() => 1),
    locations: config.locations.map(resolveLocation),
    technologies: config.technologies.flatMap((t, i) => {
      const c = carriersOf.get(i);
      if (!c || techByName.get(t.name) !== i) return [];
      const out: ResolvedTechnology = {
        name: t.name,
        type: t.type,
        displayName: t.essentials?.name ?? t.name,
        carrier: c.main,
        ...(t.essentials?.color === undefined ? {} : { color: t.essentials.color }),
      };
      return [out];
    }),
    locTechs,
    costClasses: [...classes].sort(),
    objectiveWeights,
    ...(params.reserve_margin === undefined ? {} : { reserveMargin: { ...params.reserve_margin } }),
    ...(groups === undefined ? {} : { groupConstraints: groups }),
    ...(warnings.length === 0 ? {} : { warnings }),
    ...(params.relax_constraint?.demand_share_per_timestep_decision_main_constraint === undefined
      ? {}
      : {
        demandShareDecisionRelaxation:
          params.relax_constraint.demand_share_per_timestep_decision_main_constraint,
      }),
    objective: params.objective === "check_feasibility" ? "feasibility" : "cost",
    objectiveSense: params.objective_sense ?? "minimize",
    zeroThreshold: params.zero_threshold ?? DEFAULT_ZERO_THRESHOLD,
    ensureFeasibility: params.ensure_feasibility ?? false,
    bigM: params.bigM ?? 1e9,
    cyclicStorage: params.cyclic_storage ?? true,
    solver: {
      ...(params.solver?.name === undefined ? {} : { name: params.solver.name }),
      method: params.solver?.method ?? "choose",
      ...(params.solver?.time_limit_s === undefined
        ? {}
        : { timeLimitS: params.solver.time_limit_s }),
      ...(params.solver?.threads === undefined ? {} : { threads: params.solver.threads }),
      ...(params.solver?.mip_rel_gap === undefined ? {} : { mipRelGap: params.solver.mip_rel_gap }),
    },
  };
  const timed = applyModelTime(resolved, config);
  if (params.mode === "operate") return resolveOperate(timed, params.operation);
  if (params.mode !== "spores") return timed;
  const spores = sporesOptions(params.spores ?? {});
  const sporesProblemsFound = sporesProblems(timed, spores);
  if (sporesProblemsFound.length > 0) throw new ModelValidationError(sporesProblemsFound);
  return { ...timed, spores };
}

function techLayer(tech: Technology, index: number): SettingsLayer {
  return { constraints: tech.constraints, costs: tech.costs, path: `technologies[${index}]` };
}

/**
 * Calliope's `process_per_distance_constraints`: only when some `*_per_distance` key is set is
 * the distance needed (computed from coordinates unless the link gives it); then
 * energy_eff × energy_eff_per_distance^d and energy_cap + energy_cap_per_distance × d.
 */
function foldPerDistance(
  settings: RawSettings,
  given: number | undefined,
  from: Location,
  to: Location,
  path: string,
  problems: ModelProblem[],
): { settings: RawSettings; distance?: number; effScale: number } | undefined {
  const perDistance = "energy_eff_per_distance" in settings.constraints ||
    Object.values(settings.costs).some((c) =>
      "energy_cap_per_distance" in c || "purchase_per_distance" in c
    );
  if (!perDistance) {
    return given === undefined
      ? { settings, effScale: 1 }
      : { settings, distance: given, effScale: 1 };
  }
  let distance = given;
  if (distance === undefined) {
    distance = linkDistance(from, to);
    if (distance === undefined || Number.isNaN(distance)) {
      problems.push({
        path,
        message: `the link needs a distance (it has a per-distance value): give "distance" or ` +
          `lat/lon (or x/y) for both ${from.id} and ${to.id}`,
      });
      return undefined;
    }
  }
  const constraints = { ...settings.constraints };
  let effScale = 1;
  if ("energy_eff_per_distance" in constraints) {
    const per = toNumber(constraints.energy_eff_per_distance) ?? 1;
    effScale = per ** distance;
    delete constraints.energy_eff_per_distance;
  }
  const costs: Record<string, Record<string, unknown>> = {};
  const costPaths: Record<string, Record<string, string>> = {};
  for (const [cls, values] of Object.entries(settings.costs)) {
    const v = { ...values };
    const p = { ...settings.costPaths[cls] };
    if ("energy_cap_per_distance" in v) {
      const per = toNumber(v.energy_cap_per_distance) ?? 0;
      v.energy_cap = (toNumber(v.energy_cap) ?? 0) + per * distance;
      p.energy_cap ??= p.energy_cap_per_distance!;
      delete v.energy_cap_per_distance;
    }
    if ("purchase_per_distance" in v) {
      const per = toNumber(v.purchase_per_distance) ?? 0;
      v.purchase = (toNumber(v.purchase) ?? 0) + per * distance;
      p.purchase ??= p.purchase_per_distance!;
      delete v.purchase_per_distance;
    }
    costs[cls] = v;
    costPaths[cls] = p;
  }
  return {
    settings: { ...settings, constraints, costs, costPaths },
    distance,
    effScale,
  };
}

/** Checks that need the merged settings: required keys, export carrier, flags as series. */
function checkLocTech(lt: RawLocTech, problems: ModelProblem[]): void {
  const c = lt.settings.constraints;
  const techPath = `technologies[${lt.techIndex}]`;
  for (const req of REQUIRED_CONSTRAINTS[lt.tech.type]) {
    if (!(req in c)) {
      problems.push({
        path: `${techPath}.constraints.${req}`,
        message: `a ${lt.tech.type} technology needs constraints.${req} (missing at ${lt.id})`,
      });
    }
  }
  if (typeof c.export_carrier === "string") {
    const outs = [...lt.carriers.tiers.out, ...lt.carriers.tiers.out_2, ...lt.carriers.tiers.out_3];
    if (!outs.includes(c.export_carrier)) {
      problems.push({
        path: lt.settings.constraintPaths.export_carrier ?? techPath,
        message: `export_carrier "${c.export_carrier}" is not an output carrier of ${lt.tech.name}`,
      });
    }
  }
  for (const flag of ["energy_con", "energy_prod", "force_resource"]) {
    if (isSeriesReference(c[flag])) {
      problems.push({
        path: lt.settings.constraintPaths[flag] ?? techPath,
        message: `${flag} as a time series is not implemented by the runner`,
      });
    }
  }
  for (const [tier, ratios] of Object.entries((c.carrier_ratios ?? {}) as Record<string, object>)) {
    const t = tier.replace(/^carrier_/, "") as CarrierTier;
    for (const carrier of Object.keys(ratios)) {
      if (!lt.carriers.tiers[t].includes(carrier)) {
        problems.push({
          path: `${lt.settings.constraintPaths.carrier_ratios}.${tier}.${carrier}`,
          message: `carrier ratio for "${carrier}", which is not a ${tier} of ${lt.tech.name}`,
        });
      }
    }
  }
}

/** Depreciation rate by cost class of one loc::tech. */
function depreciationByClass(lt: RawLocTech, problems: ModelProblem[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [cls, values] of Object.entries(lt.settings.costs)) {
    out[cls] = depreciation(lt, cls, values, lt.settings.costPaths[cls] ?? {}, problems);
  }
  return out;
}

/** Calliope's depreciation rate for one cost class of one loc::tech. */
function depreciation(
  lt: RawLocTech,
  cls: string,
  values: Record<string, unknown>,
  paths: Record<string, string>,
  problems: ModelProblem[],
): number {
  const given = toNumber(values.depreciation_rate);
  if (given !== undefined) return given;
  if (!Object.keys(values).some(isCapitalCostKey)) return 1;
  const lifetime = toNumber(lt.settings.constraints.lifetime);
  const interest = toNumber(values.interest_rate);
  const techPath = `technologies[${lt.techIndex}]`;
  const capKey = Object.keys(values).find(isCapitalCostKey)!;
  if (lifetime === undefined || lifetime === 0) {
    problems.push({
      path: lt.settings.constraintPaths.lifetime ?? `${techPath}.constraints.lifetime`,
      message: `${lt.tech.name} needs constraints.lifetime (> 0) to annualise its ${cls} ` +
        `capital cost ${capKey} (set lifetime 1 and interest_rate 0 for no effect)`,
    });
  }
  if (interest === undefined) {
    problems.push({
      path: paths.interest_rate ?? `${techPath}.costs.${cls}.interest_rate`,
      message: `${lt.tech.name} needs costs.${cls}.interest_rate to annualise its capital ` +
        `cost ${capKey} (or give costs.${cls}.depreciation_rate)`,
    });
  }
  if (lifetime === undefined || lifetime === 0 || interest === undefined) return 1;
  return depreciationRate(interest, lifetime);
}
