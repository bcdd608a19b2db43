/**
 * The built-in template defaults, built from the technology catalogue through its Calliope
 * adapter (`lib/catalogue/calliope/`, the one mapping from catalogue figures to Calliope keys).
 *
 * - A template whose id is a catalogue technology takes the adapter's tech block for the
 *   technology's first 2025 instance (the catalogue's instance 0, its main variant in 2025, is
 *   what the adapters use by default); every value cites the instance and its source row.
 * - A template the catalogue has no record for gets only what the technology is (parent and
 *   carriers), no number: the catalogue build found no fitting row in PyPSA technology-data
 *   (`data/technology/technology_mapping.csv`, `MISSING.md`), so every key is listed as missing.
 *   The adapter itself still decides the parent, carriers and the list of keys, run on a record
 *   with no figures, so the two kinds of template cannot drift apart.
 * - Demand templates: parent demand and a carrier; their `resource` comes from the model.
 * - A variable renewable (supply_plus) takes the adapter's `resource: file=<profile_key>.csv`
 *   with `resource_unit: energy_per_cap` (without them its output would be unlimited); the
 *   build checks that the catalogue ships profiles of that key and names them.
 */
import {
  type CalliopeTechnologyInput,
  technologyColor,
  toCalliopeReport,
} from "../catalogue/calliope/mod.ts";
import { fuelLink, fuelPriceSource } from "../catalogue/adapters/fuel_link.ts";
import type { FuelRecord } from "../catalogue/schema/fuel_schema.ts";
import type { Domain, Technology } from "../catalogue/schema/technology_schema.ts";
import {
  techLeaves,
  type TemplateDefault,
  type TemplateTech,
  templateTechSchema,
} from "./template_entry.ts";
import { TEMPLATE_CATEGORIES, TEMPLATE_GROUPS, templateCategory } from "./template_ids.ts";

/** What a template without a catalogue record is: facts of the technology, no figures. */
interface BuiltInKind {
  readonly name: string;
  readonly domain: Domain | "demand";
  readonly carrier: string;
  readonly carrierIn?: string;
  /** A variable renewable: Calliope supply_plus with a resource profile from the model. */
  readonly variable?: boolean;
  /** Burns a fuel: Calliope prices it as costs.monetary.om_con. */
  readonly fuel?: boolean;
}

/**
 * Templates the catalogue has no record for. Parents follow the catalogue's own domains for
 * these ids (`data/technology/MISSING.md`): a geological CO2 store is a storage of carrier co2 as
 * the catalogue classes it; SOFC, in the hydrogen chain, converts hydrogen to electricity.
 */
export const BUILT_IN_KINDS: Readonly<Record<string, BuiltInKind>> = {
  internal_combustion_engine: {
    name: "Internal combustion engine",
    domain: "generation",
    carrier: "electricity",
    fuel: true,
  },
  small_modular_reactors_smr: {
    name: "Small modular reactor (nuclear)",
    domain: "generation",
    carrier: "electricity",
    fuel: true,
  },
  biogas_power_plant: {
    name: "Biogas power plant",
    domain: "generation",
    carrier: "electricity",
    fuel: true,
  },
  marine_energy: {
    name: "Marine energy (tidal, wave)",
    domain: "generation",
    carrier: "electricity",
    variable: true,
  },
  sodium_sulfur_batteries: {
    name: "Sodium-sulphur battery",
    domain: "storage",
    carrier: "electricity",
  },
  flywheels: { name: "Flywheel", domain: "storage", carrier: "electricity" },
  latent_thermal_storage: {
    name: "Latent heat (phase-change) storage",
    domain: "storage",
    carrier: "heat",
  },
  solid_oxide_fuel_cell_sofc: {
    name: "Solid oxide fuel cell (SOFC)",
    domain: "conversion",
    carrier: "electricity",
    carrierIn: "hydrogen",
  },
  co2_geological_storage: {
    name: "CO2 geological storage",
    domain: "storage",
    carrier: "co2",
  },
  electricity_demand: { name: "Electricity demand", domain: "demand", carrier: "electricity" },
  heat_demand: { name: "Heat demand", domain: "demand", carrier: "heat" },
  hydrogen_demand: { name: "Hydrogen demand", domain: "demand", carrier: "hydrogen" },
  cooling_demand: { name: "Cooling demand", domain: "demand", carrier: "cooling" },
};

/** A profile the catalogue ships (`catalogues/profiles/index.json`). */
export interface ShippedProfile {
  /** `<ISO2>_<profile_key>_<year>`, e.g. `DE_onshore_wind_2016`. */
  readonly profile_id: string;
  readonly type: string;
  readonly unit: string;
}

/** What the build reads: the catalogue's technologies and fuels, and the mapping's notes. */
export interface TemplateBuildInput {
  readonly technologies: readonly Technology[];
  readonly fuels: readonly FuelRecord[];
  /** `data/technology/technology_mapping.csv` notes by template id (why a row fits or not). */
  readonly mappingNotes?: ReadonlyMap<string, string>;
  /** The profiles the catalogue ships; a supply_plus template's profile must be among them. */
  readonly profiles?: readonly ShippedProfile[];
}

/** The shipped profiles of a profile key, by id. */
function profilesOf(key: string, profiles: readonly ShippedProfile[]): ShippedProfile[] {
  return profiles.filter((p) =>
    p.profile_id.replace(/^[A-Z]{2}_/, "").replace(/_\d{4}$/, "") === key
  )
    .sort((a, b) => a.profile_id.localeCompare(b.profile_id));
}

const ADAPTER = "catalogue Calliope adapter (lib/catalogue/calliope/)";
const MAPPING = "data/technology/technology_mapping.csv";

/** The year whose catalogue instance a template takes. */
export const TEMPLATE_YEAR = 2025;

/**
 * Every template's built-in default, in the spec's order. Throws RangeError when a template id
 * is neither a catalogue technology nor a built-in kind, or a catalogue technology has no
 * instance of TEMPLATE_YEAR.
 */
export function buildTemplates(input: TemplateBuildInput): TemplateDefault[] {
  const byId = new Map(input.technologies.map((t) => [t.technology_id, t]));
  return TEMPLATE_CATEGORIES.flatMap((category) =>
    TEMPLATE_GROUPS[category].map((id) => {
      const technology = byId.get(id);
      if (technology !== undefined) return fromCatalogue(technology, input);
      const kind = BUILT_IN_KINDS[id];
      if (kind === undefined) {
        throw new RangeError(`template "${id}" is neither in the catalogue nor a built-in kind`);
      }
      return fromKind(id, kind, input);
    })
  );
}

function categoryOf(id: string) {
  const category = templateCategory(id);
  if (category === undefined) throw new RangeError(`"${id}" is not a template id`);
  return category;
}

/** The adapter's tech block for the technology's first 2025 instance, every value cited. */
function fromCatalogue(technology: Technology, input: TemplateBuildInput): TemplateDefault {
  const id = technology.technology_id;
  const instanceIndex = technology.instances.findIndex((i) => i.year === TEMPLATE_YEAR);
  const instance = technology.instances[instanceIndex];
  if (instance === undefined) {
    throw new RangeError(`catalogue technology "${id}" has no ${TEMPLATE_YEAR} instance`);
  }
  const report = toCalliopeReport(technology, { instanceIndex, fuels: input.fuels });
  const tech = templateTechSchema.parse(report.config[id]);
  const cited = `catalogue:${instance.instance_id} (${
    instance.reference_source ?? "no source named"
  }; PyPSA technology-data ${TEMPLATE_YEAR}, rows ${instance.source_technologies.join("; ")})`;
  const link = fuelLink(instance, input.fuels);
  const sources: Record<string, string> = {};
  for (const [path] of techLeaves(tech)) {
    if (path.startsWith("essentials.")) {
      sources[path] = path === "essentials.color"
        ? `${ADAPTER}: technologyColor("${id}")`
        : `catalogue:${id} (technology record), via the ${ADAPTER}`;
    } else if (path === "costs.monetary.interest_rate") {
      sources[path] = `${ADAPTER}: its default interest_rate (no source figure; override it)`;
    } else if (path.endsWith(".om_con") && link.kind === "record") {
      const record = link.record;
      sources[path] = path === "costs.monetary.om_con"
        ? `catalogue:fuel ${record.fuel_id} ${record.year} price (${fuelPriceSource(record)})`
        : `catalogue:fuel ${record.fuel_id} ${record.year} CO2 intensity`;
    } else {
      sources[path] = cited;
    }
  }
  const missing = [...report.omitted];
  const key = technology.profile_key;
  if (tech.essentials.parent === "supply_plus" && key) {
    const shipped = profilesOf(key, input.profiles ?? []);
    if (input.profiles !== undefined && shipped.length === 0) {
      throw new RangeError(
        `template "${id}": the catalogue ships no profile of its profile_key "${key}"`,
      );
    }
    const named = shipped.length === 0
      ? ""
      : `: ${shipped.length} shipped (${shipped.map((p) => p.profile_id).join(", ")}; ` +
        `${shipped[0]!.type}, ${shipped[0]!.unit})`;
    sources["constraints.resource"] = `catalogue:${id} profile_key ${key}, via the ${ADAPTER}: ` +
      `the catalogue's <ISO2>_${key}_<year> profiles${named}, one column per location`;
    sources["constraints.resource_unit"] = `${ADAPTER}: the profile is per kW of capacity`;
    if (shipped[0]?.type === "capacity_factor" && tech.constraints.energy_eff === 1) {
      const eff = instance.efficiency_percent;
      sources["constraints.energy_eff"] = `${ADAPTER}: 1 with a capacity-factor resource, ` +
        "which is output per kW of capacity" +
        (eff === null || eff === undefined
          ? ""
          : ` (the plant's efficiency, ${eff} % in ${cited}, is in the profile already)`);
    }
  }
  const notes = [
    `Catalogue instance ${instance.instance_id} (${instance.instance_name}), instance ` +
    `${instanceIndex} of ${technology.instances.length}: the first ${TEMPLATE_YEAR} instance, ` +
    "the catalogue's main variant",
    ...report.notes,
  ];
  return {
    id,
    name: tech.essentials.name,
    category: categoryOf(id),
    tech,
    sources,
    units: report.units,
    missing: missing.sort(),
    notes,
  };
}

/** What the technology is, no figures: every key the adapter would set listed as missing. */
function fromKind(id: string, kind: BuiltInKind, input: TemplateBuildInput): TemplateDefault {
  const mapping = input.mappingNotes?.get(id);
  const why = mapping === undefined
    ? "No source gives figures for this template"
    : `No fitting row in PyPSA technology-data costs_${TEMPLATE_YEAR}.csv (${MAPPING}: ${mapping})`;
  if (kind.domain === "demand") {
    const tech: TemplateTech = {
      essentials: {
        name: kind.name,
        color: technologyColor(id),
        parent: "demand",
        carrier: kind.carrier,
      },
      constraints: {},
      costs: {},
    };
    return {
      id,
      name: kind.name,
      category: categoryOf(id),
      tech: templateTechSchema.parse(tech),
      sources: {
        "essentials.name": "built-in: the template's display name",
        "essentials.color": `${ADAPTER}: technologyColor("${id}")`,
        "essentials.parent": "built-in: a demand (spec 002 part D, Demand group)",
        "essentials.carrier": `built-in: the carrier the template's name says (${kind.carrier})`,
      },
      units: {},
      missing: ["constraints.resource"],
      notes: [
        "A demand: its resource (a negative series, kWh per time step) comes from the model, " +
        "e.g. constraints.resource: file=demand.csv:column",
      ],
    };
  }
  // The adapter on a record with no figures: parent, carriers and the keys it would set.
  const record: CalliopeTechnologyInput = {
    technology_id: id,
    technology_name: kind.name,
    domain: kind.domain,
    carrier: kind.carrier,
    carrier_in: kind.carrierIn === undefined ? [] : [kind.carrierIn],
    tags: kind.variable ? ["variable"] : [],
    instances: [{
      typical_capacity_mw: null,
      capex_usd_per_kw: null,
      opex_fixed_usd_per_kw_yr: null,
      opex_var_usd_per_mwh: null,
      efficiency_percent: null,
      lifetime_years: null,
      ramping_rate_percent_per_min: null,
      capex_usd_per_kwh: null,
      year: TEMPLATE_YEAR,
    }],
  };
  const report = toCalliopeReport(record);
  const adapted = report.config[id];
  if (adapted === undefined) throw new RangeError(`the adapter gave no tech block for "${id}"`);
  // The adapter's interest rate is its own default, not a figure of this technology: with no
  // costs at all it would be the only number, so it is left out and listed as missing.
  // A variable renewable keeps the adapter's resource: a series the model must supply (the
  // catalogue ships no profile for these), never an unlimited output.
  const { resource, resource_unit } = adapted.constraints;
  const constraints = resource === undefined ? {} : { resource, resource_unit };
  const tech = templateTechSchema.parse({ ...adapted, constraints, costs: {} });
  const missing = [...report.omitted, "costs.monetary.interest_rate"];
  if (kind.fuel) missing.push("costs.monetary.om_con");
  const sources: Record<string, string> = {};
  for (const [path] of techLeaves(tech)) {
    sources[path] = path === "essentials.color"
      ? `${ADAPTER}: technologyColor("${id}")`
      : path === "essentials.name"
      ? "built-in: the template's display name"
      : path === "constraints.resource"
      ? `built-in: the catalogue ships no profile for it, so the model supplies this series, ` +
        `via the ${ADAPTER}`
      : path === "constraints.resource_unit"
      ? `built-in: the series is per kW of capacity, via the ${ADAPTER}`
      : `built-in: what the technology is (domain ${kind.domain} as ${MAPPING} classes it), ` +
        `via the ${ADAPTER}`;
  }
  const resourceNote = report.notes.filter((n) => n.startsWith("resource = "));
  return {
    id,
    name: kind.name,
    category: categoryOf(id),
    tech,
    sources,
    units: Object.fromEntries(
      Object.entries(report.units).filter(([path]) => path.startsWith("constraints.resource")),
    ),
    missing: [...new Set(missing)].sort(),
    notes: [
      why,
      "Every number is missing: set them in the model (any key can be overridden)",
      ...resourceNote,
    ],
  };
}
