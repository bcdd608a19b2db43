/**
 * `group_constraints` of a Calliope 0.6 model (after its overrides are applied) read into the
 * ModelConfig's `groupConstraints`; rows in lib/lp/group_constraints.ts. Keys Calliope does not
 * know are refused (Calliope only warns and ignores them: a typo would silently drop the limit).
 */
import type { ReportProblem } from "../model_problem.ts";
import {
  CARRIER_GROUP_FAMILIES,
  COST_GROUP_FAMILIES,
  DECISION_GROUP_FAMILY,
  GROUP_SENSES,
  type GroupConstraint,
  groupKeyProblem,
  SCALAR_GROUP_FAMILIES,
} from "../group_constraints_schema.ts";
import { type AttrDict, type AttrValue, getKey, isAttrDict } from "./calliope_yaml.ts";

const SCALAR = new Set<string>(
  SCALAR_GROUP_FAMILIES.flatMap((f) => GROUP_SENSES.map((s) => `${f}_${s}`)),
);
const KEYED = new Set<string>([
  ...[...CARRIER_GROUP_FAMILIES, ...COST_GROUP_FAMILIES].flatMap((f) =>
    GROUP_SENSES.map((s) => `${f}_${s}`)
  ),
  DECISION_GROUP_FAMILY,
]);

/** A number or Calliope's `.inf` spelt as a string; undefined otherwise. */
function quantity(v: AttrValue): number | string | undefined {
  if (typeof v === "number" && !Number.isNaN(v)) {
    if (v === Infinity) return "inf";
    if (v === -Infinity) return "-inf";
    return v;
  }
  if (typeof v === "string" && /^[-+]?\.?inf$/i.test(v.trim())) {
    return v.trim().startsWith("-") ? "-inf" : "inf";
  }
  return undefined;
}

function names(
  v: AttrValue,
  at: string,
  known: ReadonlySet<string>,
  removed: ReadonlySet<string>,
  what: string,
  problem: ReportProblem,
): string[] | undefined {
  const list = typeof v === "string" ? [v] : v;
  if (!Array.isArray(list) || !list.every((x) => typeof x === "string")) {
    problem(at, `a list of ${what} names`);
    return undefined;
  }
  // Calliope drops names of removed (`exists: false`) items from a group silently; so do we.
  const kept = (list as string[]).filter((n) => !removed.has(n));
  for (const n of kept) if (!known.has(n)) problem(at, `unknown ${what} "${n}"`);
  return kept;
}

/**
 * The model's `group_constraints` as ModelConfig `groupConstraints` (undefined when it has
 * none); problems at Calliope paths.
 */
export function convertGroupConstraints(
  config: AttrDict,
  techs: { known: ReadonlySet<string>; removed: ReadonlySet<string> },
  locs: { known: ReadonlySet<string>; removed: ReadonlySet<string> },
  problem: ReportProblem,
): Record<string, GroupConstraint> | undefined {
  const groups = getKey(config, "group_constraints");
  if (groups === undefined || groups === null) return undefined;
  if (!isAttrDict(groups)) {
    problem("group_constraints", "a mapping of group names to their settings");
    return undefined;
  }
  if (Object.keys(groups).length === 0) return undefined;
  const out: Record<string, GroupConstraint> = {};
  for (const [name, raw] of Object.entries(groups)) {
    const path = `group_constraints.${name}`;
    if (!isAttrDict(raw)) {
      problem(path, "a group constraint must be a mapping");
      continue;
    }
    const group: GroupConstraint = {};
    for (const [key, v] of Object.entries(raw)) {
      const at = `${path}.${key}`;
      if (key === "techs" || key === "locs") {
        const kind = key === "techs" ? techs : locs;
        const list = names(
          v,
          at,
          kind.known,
          kind.removed,
          key === "techs" ? "technology" : "location",
          problem,
        );
        if (list) group[key] = list;
      } else if (key === "exists") {
        if (typeof v === "boolean") group.exists = v;
        else problem(at, "true or false");
      } else if (SCALAR.has(key)) {
        const q = quantity(v);
        if (q === undefined) problem(at, "a number");
        else group[key] = q;
      } else if (KEYED.has(key)) {
        if (!isAttrDict(v)) {
          problem(at, "a mapping of carrier or cost class to a number");
          continue;
        }
        const per: Record<string, number | string> = {};
        for (const [k, x] of Object.entries(v)) {
          const q = quantity(x);
          if (q === undefined) problem(`${at}.${k}`, "a number");
          else per[k] = q;
        }
        group[key] = per;
      } else problem(at, groupKeyProblem(key));
    }
    out[name] = group;
  }
  return out;
}
