/**
 * A technology's carriers by tier, as Calliope 0.6 `model_run.process_techs` derives them:
 * supply and supply_plus produce `carrier_out` (or `carrier`), demand consumes `carrier_in` (or
 * `carrier`), storage and transmission do both with `carrier`, conversion has exactly one input
 * and one output, conversion_plus has tiers and a primary carrier on each side.
 */
import type { Technology } from "../model_config.ts";
import type { CarrierTier, CarrierTiers } from "./resolved_model.ts";
import type { ModelProblem } from "../model_problem.ts";

/** Carriers of one technology. */
export interface TechCarriers {
  readonly tiers: CarrierTiers;
  readonly primary_carrier_out?: string;
  readonly primary_carrier_in?: string;
  /** The primary output carrier (demand: its input carrier). */
  readonly main: string;
}

const TIER_KEYS: Readonly<Record<CarrierTier, keyof Technology>> = {
  in: "carrier_in",
  in_2: "carrier_in_2",
  in_3: "carrier_in_3",
  out: "carrier_out",
  out_2: "carrier_out_2",
  out_3: "carrier_out_3",
};

function list(v: unknown): string[] {
  if (v === undefined) return [];
  return typeof v === "string" ? [v] : [...(v as string[])];
}

/**
 * The carriers of `tech` (at JSON path `path`), pushing a problem for each missing or
 * inconsistent carrier. Returns undefined when the technology has no usable carriers.
 */
export function techCarriers(
  tech: Technology,
  path: string,
  problems: ModelProblem[],
): TechCarriers | undefined {
  const before = problems.length;
  const problem = (key: string, message: string) =>
    problems.push({ path: key === "" ? path : `${path}.${key}`, message });
  const given = (tier: CarrierTier) => list(tech[TIER_KEYS[tier]]);
  const tiers: Record<CarrierTier, string[]> = {
    in: [],
    in_2: [],
    in_3: [],
    out: [],
    out_2: [],
    out_3: [],
  };
  const carrier = tech.carrier === undefined ? [] : [tech.carrier];
  const type = tech.type;
  if (type !== "conversion_plus") {
    for (const tier of ["in_2", "in_3", "out_2", "out_3"] as const) {
      if (given(tier).length > 0) {
        problem(TIER_KEYS[tier], `${TIER_KEYS[tier]} is only for conversion_plus technologies`);
      }
    }
  }
  const single = (tier: "in" | "out") => {
    const c = given(tier).length > 0 ? given(tier) : carrier;
    if (c.length === 0) {
      problem("", `a ${type} technology needs carrier_${tier} (or carrier)`);
    } else if (c.length > 1) {
      problem(`carrier_${tier}`, `a ${type} technology has exactly one carrier_${tier}`);
    }
    return c.slice(0, 1);
  };
  switch (type) {
    case "supply":
    case "supply_plus":
      tiers.out = single("out");
      if (given("in").length > 0) {
        problem("carrier_in", `a ${type} technology takes its resource, not carrier_in`);
      }
      break;
    case "demand":
      tiers.in = single("in");
      if (given("out").length > 0) problem("carrier_out", "a demand technology has no output");
      break;
    case "storage":
    case "transmission":
      tiers.in = single("in");
      tiers.out = single("out");
      break;
    case "conversion":
      if (given("in").length === 0) problem("", "a conversion technology needs carrier_in");
      if (given("out").length === 0) problem("", "a conversion technology needs carrier_out");
      if (given("in").length > 1) problem("carrier_in", "a conversion has exactly one carrier_in");
      if (given("out").length > 1) {
        problem("carrier_out", "a conversion has exactly one carrier_out");
      }
      tiers.in = given("in").slice(0, 1);
      tiers.out = given("out").slice(0, 1);
      break;
    case "conversion_plus":
      for (const tier of Object.keys(TIER_KEYS) as CarrierTier[]) tiers[tier] = given(tier);
      if (tiers.in.length === 0) problem("", "a conversion_plus technology needs carrier_in");
      if (tiers.out.length === 0) problem("", "a conversion_plus technology needs carrier_out");
      break;
  }
  for (const tier of Object.keys(tiers) as CarrierTier[]) {
    if (tiers[tier].includes("resource")) {
      problem(TIER_KEYS[tier], 'no carrier may be called "resource" (Calliope reserves it)');
    }
  }
  let primaryOut: string | undefined;
  let primaryIn: string | undefined;
  if (type === "conversion_plus") {
    primaryOut = primary("out", tech.primary_carrier_out, tiers, problem);
    primaryIn = primary("in", tech.primary_carrier_in, tiers, problem);
  } else {
    if (tech.primary_carrier_out !== undefined) {
      problem("primary_carrier_out", "primary_carrier_out is only for conversion_plus");
    }
    if (tech.primary_carrier_in !== undefined) {
      problem("primary_carrier_in", "primary_carrier_in is only for conversion_plus");
    }
  }
  if (problems.length > before) return undefined;
  const main = primaryOut ?? tiers.out[0] ?? tiers.in[0]!;
  return {
    tiers,
    main,
    ...(primaryOut === undefined ? {} : { primary_carrier_out: primaryOut }),
    ...(primaryIn === undefined ? {} : { primary_carrier_in: primaryIn }),
  };
}

function primary(
  side: "in" | "out",
  given: string | undefined,
  tiers: Record<CarrierTier, string[]>,
  problem: (key: string, message: string) => void,
): string | undefined {
  const all = new Set([...tiers[side], ...tiers[`${side}_2`], ...tiers[`${side}_3`]]);
  if (given === undefined) {
    if (all.size === 1) return [...all][0];
    if (all.size > 1) {
      problem(
        "",
        `primary_carrier_${side} is required: the technology has several ${side}put carriers ` +
          `(${[...all].join(", ")})`,
      );
    }
    return undefined;
  }
  if (!all.has(given)) {
    problem(
      `primary_carrier_${side}`,
      `primary_carrier_${side} "${given}" is not one of its carriers (${[...all].join(", ")})`,
    );
    return undefined;
  }
  return given;
}
