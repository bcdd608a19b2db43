/**
 * Which loc::techs each of Calliope 0.6's `group_constraints` covers (preprocess/
 * constraint_sets.py): a group's families together allow only the tech types every one of them
 * allows (defaults.yaml `allowed_group_constraints`); `techs` (default: every tech of those types,
 * other types silently dropped as Calliope does) × `locs` (default: all), restricted to the
 * loc::techs that exist. A transmission tech covers its links' ends at the group's locations.
 * `exists: false` disables a group; a group covering nothing builds no rows (Calliope warns).
 * Share families also record what they are a share of (`shareOf`, Calliope's rhs sets);
 * net_import_share keeps only the link ends whose other end lies outside the group's locs.
 * `demand_share_per_timestep_decision` has no sense: it resolves as `equals` its total share.
 */
import { TECH_TYPES, type TechType } from "../model_config.ts";
import type { GroupConstraint, GroupSense } from "../group_constraints_schema.ts";
import {
  CARRIER_GROUP_FAMILIES,
  COST_GROUP_FAMILIES,
  DECISION_GROUP_FAMILY,
  GROUP_SENSES,
  SCALAR_GROUP_FAMILIES,
} from "../group_constraints_schema.ts";
import type { ModelProblem } from "../model_problem.ts";
import { toNumber } from "./quantity.ts";
import type { ResolvedLocTech } from "./resolved_model.ts";

export type GroupFamily =
  | typeof SCALAR_GROUP_FAMILIES[number]
  | typeof CARRIER_GROUP_FAMILIES[number]
  | typeof COST_GROUP_FAMILIES[number]
  | typeof DECISION_GROUP_FAMILY;

/** One row to build: Σ over `members` of the family's quantity, compared with `value`. */
export interface ResolvedGroupConstraint {
  readonly group: string;
  readonly family: GroupFamily;
  readonly sense: GroupSense;
  /** The carrier (carrier_prod/con) or cost class (cost families). */
  readonly key?: string;
  readonly value: number;
  /** loc_tech ids (`loc::tech`, `loc::tech:remote`). */
  readonly members: readonly string[];
  /** Share families: the loc_techs whose total the share is of (Calliope's rhs). */
  readonly shareOf?: readonly string[];
}

/** Calliope's `loc_techs_supply_conversion_all`: what shares are shares of. */
const SUPPLY_CONVERSION: readonly TechType[] = [
  "supply",
  "supply_plus",
  "conversion",
  "conversion_plus",
];
const ALL: readonly TechType[] = TECH_TYPES;
/** defaults.yaml `allowed_group_constraints`, by family (the same for min, max and equals). */
export const GROUP_FAMILY_TYPES: Readonly<Record<GroupFamily, readonly TechType[]>> = {
  energy_cap: ALL.filter((t) => t !== "demand"),
  storage_cap: ["storage", "supply_plus"],
  resource_area: ["supply", "supply_plus"],
  carrier_prod: ["supply", "supply_plus", "conversion", "conversion_plus"],
  carrier_con: ["demand", "conversion", "conversion_plus"],
  cost: ALL,
  cost_var: ALL,
  cost_investment: ALL.filter((t) => t !== "demand"),
  energy_cap_share: ["supply", "supply_plus", "storage", "conversion", "conversion_plus"],
  carrier_prod_share: SUPPLY_CONVERSION,
  carrier_prod_share_per_timestep: SUPPLY_CONVERSION,
  demand_share: SUPPLY_CONVERSION,
  demand_share_per_timestep: SUPPLY_CONVERSION,
  net_import_share: ["transmission"],
  demand_share_per_timestep_decision: SUPPLY_CONVERSION,
};

const FAMILIES: readonly GroupFamily[] = [
  ...SCALAR_GROUP_FAMILIES,
  ...CARRIER_GROUP_FAMILIES,
  ...COST_GROUP_FAMILIES,
];
/** Families limited per carrier: Calliope allows one such limit per group, for one carrier. */
const PER_CARRIER: readonly GroupFamily[] = [...CARRIER_GROUP_FAMILIES, DECISION_GROUP_FAMILY];

/** `<family>_<sense>` -> its family and sense (undefined for techs/locs/exists). */
function parseKey(key: string): { family: GroupFamily; sense: GroupSense } | undefined {
  if (key === DECISION_GROUP_FAMILY) return { family: DECISION_GROUP_FAMILY, sense: "equals" };
  for (const sense of GROUP_SENSES) {
    if (!key.endsWith(`_${sense}`)) continue;
    const family = key.slice(0, -sense.length - 1) as GroupFamily;
    if (FAMILIES.includes(family)) return { family, sense };
  }
  return undefined;
}

function limits(group: GroupConstraint): [string, { family: GroupFamily; sense: GroupSense }][] {
  return Object.keys(group).flatMap((k) => {
    const parsed = parseKey(k);
    return parsed === undefined ? [] : [[k, parsed] as [string, typeof parsed]];
  });
}

/**
 * Problems of `groups` against the model: unknown techs and locations by name, and Calliope's
 * own errors for carrier-based families (one constraint and one carrier per such group).
 */
export function groupConstraintProblems(
  groups: Readonly<Record<string, GroupConstraint>> | undefined,
  techNames: ReadonlySet<string>,
  locationIds: ReadonlySet<string>,
  costClasses: ReadonlySet<string>,
): ModelProblem[] {
  const problems: ModelProblem[] = [];
  for (const [name, group] of Object.entries(groups ?? {})) {
    const path = `groupConstraints.${name}`;
    (group.techs ?? []).forEach((t, i) => {
      if (!techNames.has(t)) {
        problems.push({ path: `${path}.techs[${i}]`, message: `unknown technology "${t}"` });
      }
    });
    (group.locs ?? []).forEach((l, i) => {
      if (!locationIds.has(l)) {
        problems.push({ path: `${path}.locs[${i}]`, message: `unknown location "${l}"` });
      }
    });
    const keys = limits(group);
    if (keys.length === 0) {
      problems.push({ path, message: "a group constraint needs at least one limit" });
    }
    for (const [key, { family, sense }] of keys) {
      const raw = group[key];
      const values: [string, unknown][] = typeof raw === "object" && raw !== null
        ? Object.entries(raw).map(([k, v]) => [`${path}.${key}.${k}`, v])
        : [[`${path}.${key}`, raw]];
      for (const [at, v] of values) {
        const n = toNumber(v);
        // A limit no value can meet (Calliope hands the solver an infeasible row): refused.
        // `inf` on the decision family means "no total", so only −inf is impossible there.
        const impossible = n === undefined
          ? false
          : family === DECISION_GROUP_FAMILY || sense === "max"
          ? n === -Infinity
          : sense === "min"
          ? n === Infinity
          : !Number.isFinite(n);
        if (impossible) {
          problems.push({
            path: at,
            message: `${key} of ${String(v)} can never hold: the model would be infeasible`,
          });
        }
      }
      const perKey = group[key] as Record<string, unknown>;
      if (PER_CARRIER.includes(family)) {
        if (keys.length > 1) {
          problems.push({
            path: `${path}.${key}`,
            message: "a group with a carrier-based limit can hold only that one limit (Calliope)",
          });
        }
        if (Object.keys(perKey).length !== 1) {
          problems.push({ path: `${path}.${key}`, message: "give exactly one carrier" });
        }
      }
      if ((COST_GROUP_FAMILIES as readonly string[]).includes(family)) {
        for (const cls of Object.keys(perKey)) {
          if (!costClasses.has(cls)) {
            problems.push({
              path: `${path}.${key}.${cls}`,
              message: `unknown cost class "${cls}"`,
            });
          }
        }
      }
    }
  }
  return problems;
}

/** Carriers `lt` produces (flow "prod") or consumes ("con"), as Calliope's loc_tech_carriers. */
function flows(lt: ResolvedLocTech, flow: "prod" | "con"): string[] {
  const c = lt.carriers;
  if (flow === "prod") return lt.constraints.energy_prod ? [...c.out, ...c.out_2, ...c.out_3] : [];
  return lt.constraints.energy_con ? [...c.in, ...c.in_2, ...c.in_3] : [];
}

/**
 * Calliope's test of a carrier-based group (`_get_carrier_group_constraint_loc_techs`): its
 * members must produce (consume, for carrier_con; either, for net_import_share) the carrier, and
 * a share must have something of that carrier to be a share of. If not, Calliope ignores the
 * whole group with a warning.
 */
function carrierGroupIsEmpty(
  family: GroupFamily,
  carrier: string,
  members: readonly ResolvedLocTech[],
  shareOf: readonly ResolvedLocTech[] | undefined,
): boolean {
  const has = (lt: ResolvedLocTech, flow: "prod" | "con") => flows(lt, flow).includes(carrier);
  const lhs = family === "carrier_con"
    ? members.some((lt) => has(lt, "con"))
    : family === "net_import_share"
    ? members.some((lt) => has(lt, "con") || has(lt, "prod"))
    : members.some((lt) => has(lt, "prod"));
  if (shareOf === undefined) return !lhs;
  const rhsFlow = family.startsWith("carrier_prod_share") ? "prod" : "con";
  return !lhs || !shareOf.some((lt) => has(lt, rhsFlow));
}

/**
 * The rows of every enabled group, with the loc::techs each covers (Calliope's sets). A group
 * covering nothing is dropped with Calliope's warning, pushed onto `warnings`.
 */
export function resolveGroupConstraints(
  groups: Readonly<Record<string, GroupConstraint>> | undefined,
  locTechs: readonly ResolvedLocTech[],
  warnings: string[] = [],
): ResolvedGroupConstraint[] {
  const out: ResolvedGroupConstraint[] = [];
  for (const [name, group] of Object.entries(groups ?? {})) {
    if (group.exists === false) continue;
    const keys = limits(group);
    if (keys.length === 0) continue;
    const allowed = new Set(GROUP_FAMILY_TYPES[keys[0]![1].family]);
    for (const [, { family }] of keys) {
      const types = new Set(GROUP_FAMILY_TYPES[family]);
      for (const t of allowed) if (!types.has(t)) allowed.delete(t);
    }
    const techs = group.techs === undefined ? undefined : new Set(group.techs);
    const locs = group.locs === undefined ? undefined : new Set(group.locs);
    const inLocs = (lt: ResolvedLocTech) => locs === undefined || locs.has(lt.location);
    const covered = locTechs.filter((lt) =>
      allowed.has(lt.type) && (techs === undefined || techs.has(lt.tech)) && inLocs(lt)
    );
    const members = covered.map((lt) => lt.id);
    const ignored = (what: string) =>
      warnings.push(
        `Constraint group \`${name}\` will be completely ignored since there are no valid ` +
          `location::technology${what} combinations`,
      );
    const perCarrier = PER_CARRIER.includes(keys[0]![1].family);
    if (members.length === 0) {
      ignored(perCarrier ? "::carrier" : "");
      continue;
    }
    const demand = locTechs.filter((lt) => lt.type === "demand" && inLocs(lt));
    // net_import_share: links leaving the group only (imports within the group are ignored).
    const allLocs = new Set(locTechs.map((lt) => lt.location));
    const imports = covered.filter((lt) =>
      lt.type === "transmission" && !(locs ?? allLocs).has(lt.remote ?? "")
    ).map((lt) => lt.id);
    const supplyConversion = locTechs.filter((lt) => SUPPLY_CONVERSION.includes(lt.type));
    // energy_cap_share: of the supply/conversion capacity at the members' own locations;
    // carrier_prod_share: of the supply/conversion production at the group's locations.
    const memberLocs = new Set(covered.map((lt) => lt.location));
    const shareOf: Partial<Record<GroupFamily, readonly ResolvedLocTech[]>> = {
      energy_cap_share: supplyConversion.filter((lt) => memberLocs.has(lt.location)),
      carrier_prod_share: supplyConversion.filter(inLocs),
      carrier_prod_share_per_timestep: supplyConversion.filter(inLocs),
      demand_share: demand,
      demand_share_per_timestep: demand,
      net_import_share: demand,
      demand_share_per_timestep_decision: demand,
    };
    if (perCarrier) {
      const family = keys[0]![1].family;
      const [carrier] = Object.keys(group[keys[0]![0]] as Record<string, unknown>);
      const inGroup = family === "net_import_share"
        ? covered.filter((lt) => imports.includes(lt.id))
        : covered;
      if (carrierGroupIsEmpty(family, carrier!, inGroup, shareOf[family])) {
        ignored("::carrier");
        continue;
      }
    }
    for (const [key, { family, sense }] of keys) {
      const raw = group[key];
      const entries: [string | undefined, unknown][] = typeof raw === "object" && raw !== null
        ? Object.entries(raw)
        : [[undefined, raw]];
      for (const [k, v] of entries) {
        const value = toNumber(v);
        if (value === undefined || Number.isNaN(value)) continue;
        const of = shareOf[family];
        out.push({
          group: name,
          family,
          sense,
          ...(k === undefined ? {} : { key: k }),
          value,
          members: family === "net_import_share" ? imports : members,
          ...(of === undefined ? {} : { shareOf: of.map((lt) => lt.id) }),
        });
      }
    }
  }
  return out;
}

/**
 * demand_share_per_timestep_decision multiplies the demand it shares by a variable, so that
 * demand must be a number per timestep (resource_unit `energy`): per area or per capacity it
 * would multiply two variables, which an LP cannot hold (Calliope hands the solver a
 * nonlinear row).
 */
export function decisionShareProblems(
  groups: readonly ResolvedGroupConstraint[],
  locTechs: readonly ResolvedLocTech[],
): ModelProblem[] {
  const byId = new Map(locTechs.map((lt) => [lt.id, lt]));
  const problems: ModelProblem[] = [];
  for (const g of groups) {
    if (g.family !== DECISION_GROUP_FAMILY) continue;
    for (const id of g.shareOf ?? []) {
      const unit = byId.get(id)?.constraints.resource_unit;
      if (unit !== undefined && unit !== "energy") {
        problems.push({
          path: `groupConstraints.${g.group}.${DECISION_GROUP_FAMILY}`,
          message: `the demand it shares, ${id}, has resource_unit ${unit}: ` +
            "a decided share of it would not be linear (resource_unit energy only)",
        });
      }
    }
  }
  return problems;
}
