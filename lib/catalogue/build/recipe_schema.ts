/**
 * The catalogue recipe (`data/technology/catalogue_recipe.json`): which source rows of the PyPSA
 * technology-data cost tables make each instance of each technology, and how (see
 * `data/technology/DECISIONS.md`). Read by `pipelines/catalogue_build.ts`; the derivation is
 * `derive_instance.ts`, the assembly into catalogue files `build_catalogue.ts`.
 */
import { z } from "zod";
import { DOMAINS, LIFECYCLES } from "../schema/technology_schema.ts";

const text = z.string().min(1);
const slug = z.string().regex(/^[a-z][a-z0-9_]*$/);

/** How an instance's efficiency is read or derived from the source rows. */
export const efficiencyRuleSchema = z.discriminatedUnion("from", [
  z.strictObject({ from: z.literal("row"), component: text, basis: text }),
  z.strictObject({ from: z.literal("inverse"), component: text, parameter: text, basis: text }),
  z.strictObject({ from: z.literal("square"), component: text, basis: text }),
  z.strictObject({ from: z.literal("product"), components: z.array(text).min(2), basis: text }),
  z.strictObject({ from: z.literal("none"), reason: text }),
]);

/** How an instance's operational CO2 is derived (or why it is zero or unknown). */
export const co2RuleSchema = z.discriminatedUnion("from", [
  z.strictObject({
    from: z.literal("fuel"),
    fuel: text,
    capture_rate: z.strictObject({ component: text, parameter: text }).optional(),
  }),
  z.strictObject({ from: z.literal("zero"), reason: text }),
  z.strictObject({ from: z.literal("none"), reason: text }),
]);

/** Whether capex and capacity are per unit of input or of output (see `capacity_basis.ts`). */
export const CAPACITY_SIDES = ["input", "output"] as const;

/**
 * A declared capacity basis: needed where the investment unit does not name a carrier of only one
 * side (`EUR/kW`, `EUR/MW/km`, `EUR/(tCO2/h)`); where it does, the declaration must agree with it.
 * `side: null` for an instance that has no power capacity of its own.
 */
export const capacityBasisRuleSchema = z.strictObject({
  side: z.enum(CAPACITY_SIDES).nullable(),
  reason: text,
});

/**
 * The fuel an instance burns: a fuel id of `fuels`, or null with the reason (e.g. the source has
 * no price for the fuel).
 */
export const fuelLinkSchema = z.union([
  z.strictObject({ fuel_id: slug }),
  z.strictObject({ fuel_id: z.null(), reason: text }),
]);

/** A fuel of the source: its records are the `fuel` and `CO2 intensity` rows of `technology`. */
export const recipeFuelSchema = z.strictObject({
  fuel_id: slug,
  fuel_name: text,
  source_technology: text,
  notes: z.array(text).optional(),
});

/** One variant of a technology: the source rows (components) that make its instances. */
export const recipeVariantSchema = z.strictObject({
  key: slug,
  name: text,
  /** What one kW (kWh, km, tCO2/h) refers to, in words, e.g. `kW_e output`. */
  capacity_unit: text,
  capacity_basis: capacityBasisRuleSchema.optional(),
  fuel: fuelLinkSchema.optional(),
  components: z.array(text).min(1),
  sum: z.array(text).min(2).optional(),
  efficiency: efficiencyRuleSchema,
  co2: co2RuleSchema.optional(),
  exclude: z.array(z.strictObject({ component: text, parameter: text, reason: text })).optional(),
  investment_basis: z.array(
    z.strictObject({ component: text, basis: z.enum(["kw", "kwh"]), reason: text }),
  ).optional(),
  notes: z.array(text).optional(),
  /** Lifecycle stage of this variant's current figures when it differs from the technology's. */
  lifecycle: z.enum(LIFECYCLES).optional(),
});

/** One technology of the recipe: its record fields and its variants. */
export const recipeTechnologySchema = z.strictObject({
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
  co2: co2RuleSchema.optional(),
  capacity_basis: capacityBasisRuleSchema.optional(),
  fuel: fuelLinkSchema.optional(),
  notes: z.array(text).optional(),
  variants: z.array(recipeVariantSchema).min(1),
});

/** `data/technology/catalogue_recipe.json`: the source, exchange rate, technologies and gaps. */
export const recipeSchema = z.strictObject({
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
  fuels: z.array(recipeFuelSchema),
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
/** One technology of the recipe. */
export type RecipeTechnology = z.infer<typeof recipeTechnologySchema>;
/** One variant of a recipe technology. */
export type RecipeVariant = z.infer<typeof recipeVariantSchema>;
/** An efficiency rule of a variant. */
export type EfficiencyRule = z.infer<typeof efficiencyRuleSchema>;
/** A CO2 rule of a variant or technology. */
export type Co2Rule = z.infer<typeof co2RuleSchema>;
/** A declared capacity basis. */
export type CapacityBasisRule = z.infer<typeof capacityBasisRuleSchema>;
/** A fuel link of a technology or variant. */
export type FuelLink = z.infer<typeof fuelLinkSchema>;
/** A fuel of the recipe. */
export type RecipeFuel = z.infer<typeof recipeFuelSchema>;
