/**
 * `model.reserve_margin` of a Calliope 0.6 model: per carrier, the fraction by which installed
 * supply capacity must exceed demand in the timestep of peak demand (see lib/lp/reserve_margin.ts).
 */
import { type AttrDict, type AttrValue, dictAt, getKey, isAttrDict } from "./calliope_yaml.ts";
import type { ReportProblem } from "../model_problem.ts";

const CARRIER_KEY = /^carrier(_in|_out)?(_2|_3)?$/;

/** Every carrier a technology or tech group of `config` names in its essentials. */
function namedCarriers(config: AttrDict): Set<string> {
  const carriers = new Set<string>();
  const add = (v: AttrValue | undefined) => {
    if (typeof v === "string") carriers.add(v);
    else if (Array.isArray(v)) { for (const c of v) if (typeof c === "string") carriers.add(c); }
  };
  for (const section of ["techs", "tech_groups"]) {
    for (const entry of Object.values(dictAt(config, section))) {
      if (!isAttrDict(entry) || !isAttrDict(entry["essentials"])) continue;
      for (const [key, value] of Object.entries(entry["essentials"])) {
        if (CARRIER_KEY.test(key)) add(value);
      }
    }
  }
  return carriers;
}

/**
 * Checks `model.reserve_margin` (a carrier some technology names -> a finite fraction >= 0) and
 * writes it to `params.reserve_margin`. Calliope silently skips an unknown carrier; we refuse
 * it, as it is almost always a typo that would drop the constraint.
 */
export function convertReserveMargin(
  config: AttrDict,
  params: Record<string, unknown>,
  problem: ReportProblem,
): void {
  const raw = getKey(config, "model.reserve_margin");
  if (raw === undefined || raw === null) return;
  if (!isAttrDict(raw)) {
    problem("model.reserve_margin", "reserve_margin maps carriers to fractions, e.g. {power: 0.1}");
    return;
  }
  const carriers = namedCarriers(config);
  const margins: Record<string, number> = {};
  let ok = true;
  for (const [carrier, value] of Object.entries(raw)) {
    const path = `model.reserve_margin.${carrier}`;
    const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
    if (!carriers.has(carrier)) {
      problem(path, `no technology of the model has carrier "${carrier}"`);
      ok = false;
    } else if (typeof n !== "number" || !Number.isFinite(n) || n < 0) {
      problem(path, `a reserve margin is a finite number >= 0 (got ${JSON.stringify(value)})`);
      ok = false;
    } else margins[carrier] = n;
  }
  if (ok && Object.keys(margins).length > 0) params["reserve_margin"] = margins;
}
