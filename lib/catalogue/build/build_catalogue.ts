/**
 * The technology catalogue files, one per domain, built from the recipe and the cost tables:
 * one instance per variant and source year (derive_instance.ts), the recipe checked against the
 * template list (every template a technology or not included, exactly once), and each file's
 * metadata with the conventions of the build. Pure: `pipelines/catalogue_build.ts` reads the
 * inputs and writes the files.
 */
import {
  type CatalogueFile,
  type CatalogueMetadata,
  type CatalogueTechnology,
  DOMAINS,
  type Instance,
} from "../schema/technology_schema.ts";
import { CATALOGUE_DIGITS } from "../schema/units.ts";
import type { CostTable } from "./cost_table.ts";
import { type Derivation, deriveInstance } from "./derive_instance.ts";
import { fuelRecords } from "./fuel_records.ts";
import type { Recipe } from "./recipe_schema.ts";

/** The command that builds the catalogue, written into every file's `generated_by`. */
export const CATALOGUE_BUILD_COMMAND = "deno run -A pipelines/catalogue_build.ts";

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

/** The domain file that holds the fuel records. */
export const FUELS_DOMAIN = "generation";

/** Problems of the fuel links: unknown fuel ids, and a CO2 rule that names another fuel. */
function checkFuelLinks(recipe: Recipe): string[] {
  const problems: string[] = [];
  const fuels = new Map(recipe.fuels.map((f) => [f.fuel_id, f]));
  if (fuels.size !== recipe.fuels.length) problems.push("fuels: duplicate fuel_id");
  for (const t of recipe.technologies) {
    for (const v of t.variants) {
      const link = v.fuel ?? t.fuel;
      const co2 = v.co2 ?? t.co2;
      const where = `${t.technology_id}/${v.key}`;
      const fuel = link?.fuel_id ? fuels.get(link.fuel_id) : undefined;
      if (link?.fuel_id && !fuel) problems.push(`${where}: fuel "${link.fuel_id}" is not in fuels`);
      if (co2?.from === "fuel" && fuel?.source_technology !== co2.fuel) {
        problems.push(
          `${where}: operational CO2 uses the "${co2.fuel}" rows but the linked fuel is ` +
            `${link?.fuel_id ?? "none"}`,
        );
      }
    }
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
    "capacity_basis: whether capex and capacity are per unit of input or of output; read from " +
    "the investment unit where it names a carrier of one side only, else declared in the recipe " +
    "(DECISIONS.md); null for instances costed per kWh stored only.",
    `fuel: the fuel_id of the fuel records (in ${FUELS_DOMAIN}.json, one per fuel and source ` +
    "year: the source's fuel price in USD and its CO2 intensity, with the source rows as given).",
    `Numbers are rounded to ${CATALOGUE_DIGITS} significant digits.`,
  ];
}

/** The catalogue files (domain -> content), built from the inputs; throws listing every problem. */
export function buildCatalogue(inputs: CatalogueInputs): Map<string, CatalogueFile> {
  const { recipe, tables, oeo } = inputs;
  const errors = [...checkCoverage(inputs), ...checkFuelLinks(recipe)];
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
  const fuels = fuelRecords(
    recipe.fuels,
    tables,
    recipe.source.files,
    recipe.fx.usd_per_eur,
    errors,
  );
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
      generated_by: CATALOGUE_BUILD_COMMAND,
      notes: conventionNotes(recipe),
      not_included: recipe.not_included.filter((n) => n.domain === domain).map((n) => ({
        template_id: n.template_id,
        status: n.status,
        reason: n.reason,
      })),
    };
    const file: CatalogueFile = {
      metadata,
      technologies: technologies.filter((t) => t.domain === domain),
    };
    if (domain === FUELS_DOMAIN) file.fuels = fuels;
    files.set(domain, file);
  }
  return files;
}
