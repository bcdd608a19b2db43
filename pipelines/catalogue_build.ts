/**
 * Builds the technology catalogue files from `data/technology/`: one file per domain in
 * `catalogues/` (`generation.json`, `storage.json`, `transmission.json`, `conversion.json`),
 * the JSON Schemas `data/schemas/catalogue*.schema.json` and the coverage list
 * `data/technology/MISSING.md`.
 *
 *   deno run -A pipelines/catalogue_build.ts [--root .] [--check]
 *
 * Inputs: PyPSA technology-data `costs_{2025,2030,2050}.csv` (long format, EUR at 2025 prices),
 * `technology_mapping.csv` (the 45 templates), `oeo_classes.csv`, and `catalogue_recipe.json`,
 * which says which source rows make each instance and how (see `DECISIONS.md`). One instance per
 * variant and source year. Money: EUR × the pinned USD/EUR rate; per MW and per MWh figures / 1000;
 * fixed O&M = FOM % × capex; operational CO2 = fuel intensity / efficiency × 1000. Every number
 * is rounded to 6 significant digits, keys are written in a fixed order: rebuilding gives the
 * same bytes. `--check` writes nothing and exits 1 when a rebuild differs from the files on disk
 * (rebuilt copies go to `catalogues-changed/`, git-ignored).
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import {
  type CatalogueFile,
  type CatalogueMetadata,
  type CatalogueTechnology,
  DOMAINS,
  type Instance,
  INSTANCE_NUMBER_FIELDS,
  LIFECYCLES,
} from "../lib/catalogue/technology_schema.ts";
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
} from "../lib/catalogue/units.ts";
import { catalogueJsonSchemaFiles } from "./catalogue_validate.ts";
import { parseCsv } from "./csv.ts";

const SOURCE_DIR = "data/technology";
const CATALOGUE_DIR = "catalogues";
const CHANGED_DIR = "catalogues-changed";
const RECIPE_FILE = "catalogue_recipe.json";
const MISSING_FILE = "MISSING.md";
const COMMAND = "deno run -A pipelines/catalogue_build.ts";

// ---------------------------------------------------------------------------------------------
// The recipe: which source rows make which instance.

const text = z.string().min(1);
const slug = z.string().regex(/^[a-z][a-z0-9_]*$/);

const efficiencyRule = z.discriminatedUnion("from", [
  z.strictObject({ from: z.literal("row"), component: text, basis: text }),
  z.strictObject({ from: z.literal("inverse"), component: text, parameter: text, basis: text }),
  z.strictObject({ from: z.literal("square"), component: text, basis: text }),
  z.strictObject({ from: z.literal("product"), components: z.array(text).min(2), basis: text }),
  z.strictObject({ from: z.literal("none"), reason: text }),
]);

const co2Rule = z.discriminatedUnion("from", [
  z.strictObject({
    from: z.literal("fuel"),
    fuel: text,
    capture_rate: z.strictObject({ component: text, parameter: text }).optional(),
  }),
  z.strictObject({ from: z.literal("zero"), reason: text }),
  z.strictObject({ from: z.literal("none"), reason: text }),
]);

const variantSchema = z.strictObject({
  key: slug,
  name: text,
  capacity_basis: text,
  components: z.array(text).min(1),
  sum: z.array(text).min(2).optional(),
  efficiency: efficiencyRule,
  co2: co2Rule.optional(),
  exclude: z.array(z.strictObject({ component: text, parameter: text, reason: text })).optional(),
  investment_basis: z.array(
    z.strictObject({ component: text, basis: z.enum(["kw", "kwh"]), reason: text }),
  ).optional(),
  notes: z.array(text).optional(),
  /** Lifecycle stage of this variant's current figures when it differs from the technology's. */
  lifecycle: z.enum(LIFECYCLES).optional(),
});

const recipeTechnologySchema = z.strictObject({
  technology_id: slug,
  template: z.boolean(),
  coverage: z.enum(["sourced", "partial"]),
  coverage_note: text.optional(),
  technology_name: text,
  domain: z.enum(DOMAINS),
  carrier: slug,
  carrier_in: z.array(slug),
  carrier_out: z.array(slug),
  tags: z.array(slug),
  lifecycle: z.enum(LIFECYCLES),
  profile_key: slug.nullable(),
  description: text,
  co2: co2Rule.optional(),
  notes: z.array(text).optional(),
  variants: z.array(variantSchema).min(1),
});

const recipeSchema = z.strictObject({
  version: text,
  source: z.strictObject({
    dataset: text,
    files: z.record(z.string().regex(/^\d{4}$/), text),
    currency: z.literal("EUR"),
    price_year: z.number().int(),
  }),
  fx: z.strictObject({ usd_per_eur: z.number().gt(0), year: z.number().int(), source: text }),
  oeo_source: text,
  domains: z.strictObject(
    Object.fromEntries(DOMAINS.map((d) => [d, text])) as Record<
      typeof DOMAINS[number],
      typeof text
    >,
  ),
  technologies: z.array(recipeTechnologySchema).min(1),
  not_included: z.array(z.strictObject({
    template_id: slug,
    domain: z.enum(DOMAINS).nullable(),
    status: z.enum(["missing", "partial", "out_of_scope"]),
    reason: text,
  })),
});

/** The recipe file's content. */
export type Recipe = z.infer<typeof recipeSchema>;
type RecipeTechnology = z.infer<typeof recipeTechnologySchema>;
type Variant = z.infer<typeof variantSchema>;
type Co2Rule = z.infer<typeof co2Rule>;

// ---------------------------------------------------------------------------------------------
// Source tables.

/** One row of a PyPSA technology-data cost table. */
export interface SourceRow {
  readonly technology: string;
  readonly parameter: string;
  readonly value: number;
  readonly unit: string;
  readonly source: string;
  readonly description: string;
}

/** A cost table: technology -> parameter -> row. */
export type CostTable = ReadonlyMap<string, ReadonlyMap<string, SourceRow>>;

/** Parses a cost table; throws a SyntaxError listing every malformed or duplicate row. */
export function parseCostTable(csvText: string, file: string): CostTable {
  const csv = parseCsv(csvText, file);
  const problems = csv.problems.map((p) => `${file}:${p.row}: ${p.message}`);
  const table = new Map<string, Map<string, SourceRow>>();
  csv.records.forEach((r, i) => {
    const value = Number(r.value);
    if (!r.technology || !r.parameter || r.value === "" || !Number.isFinite(value)) {
      problems.push(`${file}:${i + 1}: needs technology, parameter and a numeric value`);
      return;
    }
    const rows = table.get(r.technology) ?? new Map<string, SourceRow>();
    table.set(r.technology, rows);
    if (rows.has(r.parameter)) {
      problems.push(`${file}:${i + 1}: second row for ${r.technology} / ${r.parameter}`);
    }
    rows.set(r.parameter, {
      technology: r.technology,
      parameter: r.parameter,
      value,
      unit: r.unit ?? "",
      source: (r.source ?? "").trim(),
      description: (r["further description"] ?? "").trim(),
    });
  });
  if (problems.length) throw new SyntaxError(`Cannot read ${file}:\n${problems.join("\n")}`);
  return table;
}

// ---------------------------------------------------------------------------------------------
// One instance from its source rows.

/** Source texts that mark a row as a placeholder rather than a figure. */
const PLACEHOLDER_SOURCE = /\bTODO\b|\bno source\b|\bmade up\b/i;

interface Derivation {
  readonly fx: number;
  readonly table: CostTable;
  /** Where, for messages: `onshore_wind/turbine/2030`. */
  readonly where: string;
  readonly errors: string[];
}

type Money = { capex: number; opex: number | null; components: string[] };

/** The instance of `variant` of `tech` for `year`; problems go to `d.errors`. */
export function deriveInstance(
  d: Derivation,
  tech: RecipeTechnology,
  variant: Variant,
  year: number,
  lifecycle_stage: Instance["lifecycle_stage"],
  instance_id: string,
): Instance {
  const fail = (message: string) => d.errors.push(`${d.where}: ${message}`);
  const excluded = new Map(
    (variant.exclude ?? []).map((e) => [`${e.component}|${e.parameter}`, e.reason]),
  );
  const used: SourceRow[] = [];
  const notes: string[] = [];
  const get = (component: string, parameter: string): SourceRow | undefined =>
    excluded.has(`${component}|${parameter}`) ? undefined : d.table.get(component)?.get(parameter);
  const need = (component: string, parameter: string): SourceRow | undefined => {
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
    capacity_basis: variant.capacity_basis,
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
  variant: Variant,
  need: (component: string, parameter: string) => SourceRow | undefined,
  notes: string[],
  fail: (message: string) => void,
): number | null {
  const rule = variant.efficiency;
  const fraction = (r: SourceRow | undefined): number | undefined => {
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
  variant: Variant,
  need: (component: string, parameter: string) => SourceRow | undefined,
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

// ---------------------------------------------------------------------------------------------
// Whole files.

/** The inputs of a build, already read. */
export interface CatalogueInputs {
  readonly recipe: Recipe;
  /** Cost table per source year. */
  readonly tables: ReadonlyMap<number, CostTable>;
  /** Template id -> domain (technology_mapping.csv). */
  readonly templates: ReadonlyMap<string, string>;
  /** Template id -> class IRI, "" where none fits (oeo_classes.csv). */
  readonly oeo: ReadonlyMap<string, string>;
}

/** Reads the recipe and tables from `<root>/data/technology/`. */
export async function readCatalogueInputs(root: string): Promise<CatalogueInputs> {
  const dir = `${root}/${SOURCE_DIR}`;
  const recipe = recipeSchema.parse(JSON.parse(await Deno.readTextFile(`${dir}/${RECIPE_FILE}`)));
  const tables = new Map<number, CostTable>();
  for (const [year, file] of Object.entries(recipe.source.files)) {
    tables.set(Number(year), parseCostTable(await Deno.readTextFile(`${dir}/${file}`), file));
  }
  const read = async (file: string, keyColumn: string, valueColumn: string) => {
    const csv = parseCsv(await Deno.readTextFile(`${dir}/${file}`), file);
    if (csv.problems.length) throw new SyntaxError(`Cannot read ${file}`);
    return new Map(csv.records.map((r) => [r[keyColumn] ?? "", r[valueColumn] ?? ""]));
  };
  return {
    recipe,
    tables,
    templates: await read("technology_mapping.csv", "template_id", "domain"),
    oeo: await read("oeo_classes.csv", "template_id", "oeo_uri"),
  };
}

/** Problems of the recipe against the template list: every template exactly once, domains agree. */
function checkCoverage(inputs: CatalogueInputs): string[] {
  const { recipe, templates } = inputs;
  const problems: string[] = [];
  const seen = new Map<string, string>();
  const mark = (id: string, where: string) => {
    if (seen.has(id)) problems.push(`${id} is both ${seen.get(id)} and ${where}`);
    seen.set(id, where);
  };
  for (const t of recipe.technologies) {
    mark(t.technology_id, "a technology");
    if (t.template && templates.get(t.technology_id) !== t.domain) {
      problems.push(
        `${t.technology_id}: domain ${t.domain} but the template list says ` +
          `${templates.get(t.technology_id) ?? "(not a template)"}`,
      );
    }
    if (!t.template && templates.has(t.technology_id)) {
      problems.push(`${t.technology_id} is a template; set "template": true`);
    }
    const keys = new Set(t.variants.map((v) => v.key));
    if (keys.size !== t.variants.length) {
      problems.push(`${t.technology_id}: duplicate variant keys`);
    }
  }
  for (const n of recipe.not_included) {
    mark(n.template_id, `not included (${n.status})`);
    const domain = templates.get(n.template_id);
    if (n.status === "out_of_scope" ? domain !== undefined : domain !== n.domain) {
      problems.push(
        `${n.template_id}: not_included domain ${n.domain} disagrees with the ` +
          `template list (${domain ?? "not listed"})`,
      );
    }
  }
  for (const id of templates.keys()) {
    if (!seen.has(id)) problems.push(`template ${id} is neither a technology nor not_included`);
  }
  return problems;
}

/** Conventions written into every file's metadata. */
function conventionNotes(recipe: Recipe): string[] {
  const { fx, source } = recipe;
  return [
    `Money is USD at ${source.price_year} prices: the source's EUR (${source.price_year} prices) × ` +
    `${fx.usd_per_eur} USD/EUR (fx_source); rows the source gives in USD are used unconverted, ` +
    "and their instances say so.",
    "Source figures per MW or MWh are divided by 1000 (per kW, per kWh); lines and pipelines are " +
    "per kW (or tCO2/h) of capacity and per km.",
    "Fixed O&M = the source's FOM (% of investment per year) / 100 × the capex of the same " +
    "capacity basis.",
    "efficiency_percent is the round trip for storage; for conversions, output per input as each " +
    "instance's notes state.",
    "co2_emission_factor_operational_g_per_kwh: for fuelled plants the fuel's CO2 intensity " +
    "(tCO2/MWh_th) / efficiency × 1000, per kWh of output; 0 where operation burns no fuel; " +
    "null where the source gives no basis (bioenergy, waste, carbon-handling processes).",
    "typical_capacity_mw and ramping_rate_percent_per_min are not in the source: null in every " +
    "instance. Everywhere, null means the source has no figure for the field.",
    `One instance per variant and source year (${Object.keys(source.files).join(", ")}); the ` +
    "first year holds current figures (lifecycle_stage = the technology's lifecycle), later " +
    "years are projections. Instance 0 is the main variant in the first year.",
    `Numbers are rounded to ${CATALOGUE_DIGITS} significant digits.`,
  ];
}

/** The catalogue files (domain -> content), built from the inputs; throws listing every problem. */
export function buildCatalogue(inputs: CatalogueInputs): Map<string, CatalogueFile> {
  const { recipe, tables, oeo } = inputs;
  const errors = checkCoverage(inputs);
  const years = [...tables.keys()].sort((a, b) => a - b);
  const technologies: CatalogueTechnology[] = recipe.technologies.map((t) => {
    const instances: Instance[] = [];
    for (const v of t.variants) {
      for (const year of years) {
        const instance_id = t.variants.length === 1
          ? `${t.technology_id}-${year}`
          : `${t.technology_id}-${v.key}-${year}`;
        const d: Derivation = {
          fx: recipe.fx.usd_per_eur,
          table: tables.get(year) as CostTable,
          where: `${t.technology_id}/${v.key}/${year}`,
          errors,
        };
        const stage = year === years[0] ? v.lifecycle ?? t.lifecycle : "projection";
        instances.push(deriveInstance(d, t, v, year, stage, instance_id));
      }
    }
    const iri = t.template ? oeo.get(t.technology_id) || null : null;
    return {
      technology_id: t.technology_id,
      technology_name: t.technology_name,
      domain: t.domain,
      carrier: t.carrier,
      carrier_in: t.carrier_in,
      carrier_out: t.carrier_out,
      oeo_class: iri,
      oeo_uri: iri,
      description: t.description,
      tags: t.tags,
      lifecycle: t.lifecycle,
      profile_key: t.profile_key,
      instances,
    };
  });
  if (errors.length) {
    throw new RangeError(
      `Catalogue build failed, ${errors.length} problem(s):\n${errors.join("\n")}`,
    );
  }
  const files = new Map<string, CatalogueFile>();
  for (const domain of DOMAINS) {
    const metadata: CatalogueMetadata = {
      domain,
      version: recipe.version,
      description: recipe.domains[domain],
      primary_sources: [recipe.source.dataset, recipe.fx.source, recipe.oeo_source],
      price_year: recipe.source.price_year,
      currency: "USD",
      source_currency: recipe.source.currency,
      fx_rate_usd_per_eur: recipe.fx.usd_per_eur,
      fx_source: recipe.fx.source,
      source_dataset: recipe.source.dataset,
      generated_by: COMMAND,
      notes: conventionNotes(recipe),
      not_included: recipe.not_included.filter((n) => n.domain === domain).map((n) => ({
        template_id: n.template_id,
        status: n.status,
        reason: n.reason,
      })),
    };
    files.set(domain, { metadata, technologies: technologies.filter((t) => t.domain === domain) });
  }
  return files;
}

/** The coverage list of all templates, `data/technology/MISSING.md`. */
export function formatMissing(inputs: CatalogueInputs, files: Map<string, CatalogueFile>): string {
  const { recipe, templates } = inputs;
  const cell = (s: string) => s.replaceAll("|", "\\|").replaceAll("\n", " ");
  const byId = new Map(recipe.technologies.map((t) => [t.technology_id, t]));
  const records = new Map(
    [...files.values()].flatMap((f) => f.technologies.map((t) => [t.technology_id, t] as const)),
  );
  const lines = [
    "# Technology catalogue: coverage of the technology templates",
    "",
    `Generated by \`${COMMAND}\` from \`${SOURCE_DIR}/${RECIPE_FILE}\`; do not edit by hand.`,
    "",
    "## Not in the catalogue",
    "",
    "No figures were fetched from elsewhere (no network access when the catalogue was built);",
    "these templates stay without a record until a source for them is added.",
    "",
    "| template | domain | status | reason |",
    "|---|---|---|---|",
    ...recipe.not_included.map((n) =>
      `| ${n.template_id} | ${n.domain ?? "-"} | ${n.status} | ${cell(n.reason)} |`
    ),
    "",
    "## Partial records",
    "",
    ...recipe.technologies.filter((t) => t.coverage === "partial").map((t) =>
      `- \`${t.technology_id}\`: ${t.coverage_note ?? ""}`
    ),
    "",
    "## All templates",
    "",
    "| template | domain | status | instances | source rows used |",
    "|---|---|---|---|---|",
  ];
  const ids = [
    ...templates.keys(),
    ...recipe.not_included.filter((n) => !templates.has(n.template_id))
      .map((n) => n.template_id),
  ];
  for (const id of ids) {
    const t = byId.get(id);
    const n = recipe.not_included.find((x) => x.template_id === id);
    const rows = [
      ...new Set(records.get(id)?.instances.flatMap((i) => i.source_technologies) ?? []),
    ];
    lines.push(
      `| ${id} | ${t?.domain ?? n?.domain ?? "-"} | ` +
        `${t?.coverage ?? (n?.status === "partial" ? "partial, left out" : n?.status)} | ` +
        `${records.get(id)?.instances.length ?? 0} | ${cell(rows.join("; ")) || "-"} |`,
    );
  }
  lines.push("", "## Records that are not templates", "");
  for (const t of recipe.technologies.filter((x) => !x.template)) {
    lines.push(`- \`${t.technology_id}\` (${t.domain}): ${t.technology_name}`);
  }
  return lines.join("\n") + "\n";
}

/** A catalogue file as text: 2-space JSON in the fixed key order, with a final newline. */
export function formatCatalogueFile(file: CatalogueFile): string {
  return JSON.stringify(file, null, 2) + "\n";
}

/** Every output file's text by path relative to `root`. */
export async function buildCatalogueFiles(root: string): Promise<Map<string, string>> {
  const inputs = await readCatalogueInputs(root);
  const catalogue = buildCatalogue(inputs);
  const out = new Map<string, string>();
  for (const [domain, file] of catalogue) {
    out.set(`${CATALOGUE_DIR}/${domain}.json`, formatCatalogueFile(file));
  }
  for (const [name, content] of Object.entries(catalogueJsonSchemaFiles())) {
    out.set(`data/schemas/${name}`, content);
  }
  out.set(`${SOURCE_DIR}/${MISSING_FILE}`, formatMissing(inputs, catalogue));
  return out;
}

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await Deno.readTextFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw e;
  }
}

/**
 * Compares a rebuild with the files under `root`; returns one line per difference (empty when
 * equal) and writes rebuilt copies of differing files under `<root>/catalogues-changed/`.
 */
export async function checkCatalogueFiles(
  root: string,
  files: ReadonlyMap<string, string>,
): Promise<string[]> {
  const differences: string[] = [];
  for (const [path, content] of files) {
    const committed = await readOrNull(`${root}/${path}`);
    if (committed === content) continue;
    differences.push(`${path}: ${committed === null ? "missing" : "differs from a rebuild"}`);
    const copy = `${root}/${CHANGED_DIR}/${path}`;
    await Deno.mkdir(copy.slice(0, copy.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(copy, content);
  }
  return differences;
}

/** Writes the files under `root`. */
export async function writeCatalogueFiles(
  root: string,
  files: ReadonlyMap<string, string>,
): Promise<void> {
  for (const [path, content] of files) {
    await Deno.mkdir(`${root}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${root}/${path}`, content);
  }
}

/** Runs the CLI with the given arguments; returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { root: { type: "string", default: "." }, check: { type: "boolean", default: false } },
  });
  const files = await buildCatalogueFiles(values.root);
  if (values.check) {
    const differences = await checkCatalogueFiles(values.root, files);
    if (differences.length > 0) {
      console.error(
        `Technology catalogue is out of date (rebuild with ${COMMAND}; rebuilt copies in ` +
          `${CHANGED_DIR}/):\n${differences.join("\n")}`,
      );
      return 1;
    }
    console.log(`Technology catalogue up to date: ${files.size} files.`);
    return 0;
  }
  await writeCatalogueFiles(values.root, files);
  console.log(`Wrote ${files.size} files.`);
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
