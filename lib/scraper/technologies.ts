/**
 * Search terms and keyword lists per catalogue technology id: what the scraper asks the sources
 * for, and how a paper's title and abstract are mapped back to technologies.
 *
 * Ids are those of the catalogue (`catalogues/*.json`) plus the templates it has no record for
 * yet (`not_included` in its metadata), so candidates can be collected for them too.
 * Keywords match case-insensitively at a word start and may be stems (`electroly` matches
 * electrolyser, electrolyzer and electrolysis). A keyword with two capitals and no space is an
 * acronym: it matches case-sensitively as a whole word (a plural `s` allowed), so `NaS` does not
 * match "nasal".
 */

/** How one technology is searched for and recognised. */
export interface TechnologyTerms {
  /** Free-text query sent to the sources. */
  query: string;
  /** Phrases whose presence in title or abstract maps the paper to the technology. */
  keywords: readonly string[];
}

/** Search terms and keywords of the catalogue's technologies. */
export const TECHNOLOGY_TERMS: Readonly<Record<string, TechnologyTerms>> = {
  solar_pv_utility_scale: {
    query: "utility-scale solar photovoltaic capital cost",
    keywords: [
      "utility-scale pv",
      "utility-scale solar",
      "utility scale solar",
      "utility scale pv",
      "utility-scale photovoltaic",
      "large-scale photovoltaic",
      "ground-mounted pv",
      "ground-mounted photovoltaic",
      "solar park",
      "solar farm",
      "photovoltaic power plant",
      "pv power plant",
    ],
  },
  solar_pv_distributed: {
    query: "rooftop photovoltaic system cost",
    keywords: [
      "rooftop pv",
      "rooftop solar",
      "rooftop photovoltaic",
      "residential pv",
      "residential photovoltaic",
      "residential solar",
      "distributed pv",
      "distributed photovoltaic",
    ],
  },
  concentrated_solar_power_csp: {
    query: "concentrated solar power plant cost",
    keywords: [
      "concentrated solar power",
      "concentrating solar power",
      "CSP",
      "solar power tower",
      "parabolic trough",
    ],
  },
  onshore_wind: {
    query: "onshore wind turbine cost",
    keywords: ["onshore wind", "land-based wind", "onshore turbine"],
  },
  offshore_wind_fixed_bottom: {
    query: "fixed-bottom offshore wind farm cost",
    keywords: ["offshore wind", "fixed-bottom offshore", "bottom-fixed offshore", "monopile"],
  },
  offshore_wind_floating: {
    query: "floating offshore wind cost",
    keywords: ["floating offshore wind", "floating wind", "floating turbine"],
  },
  hydroelectric_run_of_river: {
    query: "run-of-river hydropower cost",
    keywords: ["run-of-river", "run-of-the-river", "run of river"],
  },
  hydroelectric_reservoir: {
    query: "reservoir hydropower plant cost",
    keywords: [
      "reservoir hydropower",
      "hydropower reservoir",
      "reservoir hydro",
      "storage hydropower",
      "hydroelectric dam",
    ],
  },
  combined_cycle_gas_turbine_ccgt: {
    query: "combined cycle gas turbine cost efficiency",
    keywords: [
      "combined cycle gas turbine",
      "combined-cycle gas turbine",
      "natural gas combined cycle",
      "gas-fired combined cycle",
      "CCGT",
      "NGCC",
    ],
  },
  open_cycle_gas_turbine_ocgt: {
    query: "open cycle gas turbine peaking plant cost",
    keywords: [
      "open cycle gas turbine",
      "open-cycle gas turbine",
      "simple cycle gas turbine",
      "simple-cycle gas turbine",
      "OCGT",
    ],
  },
  internal_combustion_engine: {
    query: "reciprocating gas engine power plant cost",
    keywords: ["reciprocating engine", "gas engine", "diesel generator", "diesel genset"],
  },
  coal_power_plant: {
    query: "coal-fired power plant cost",
    keywords: [
      "coal-fired",
      "coal power",
      "coal plant",
      "pulverized coal",
      "pulverised coal",
      "lignite-fired",
    ],
  },
  nuclear_power_conventional: {
    query: "nuclear power plant overnight cost",
    keywords: [
      "nuclear power plant",
      "nuclear reactor",
      "pressurized water reactor",
      "pressurised water reactor",
      "light water reactor",
      "PWR",
    ],
  },
  small_modular_reactors_smr: {
    query: "small modular reactor cost",
    keywords: ["small modular reactor", "small modular nuclear", "microreactor"],
  },
  geothermal_power: {
    query: "geothermal power plant cost",
    keywords: [
      "geothermal power",
      "geothermal electricity",
      "geothermal plant",
      "enhanced geothermal",
    ],
  },
  biomass_power_plant: {
    query: "biomass power plant cost",
    keywords: ["biomass power", "biomass-fired", "biomass plant", "solid biomass", "biomass chp"],
  },
  biogas_power_plant: {
    query: "biogas power plant cost",
    keywords: ["biogas power", "biogas plant", "biogas engine", "biogas chp", "anaerobic digest"],
  },
  waste_to_energy: {
    query: "waste-to-energy plant cost",
    keywords: [
      "waste-to-energy",
      "waste to energy",
      "energy-from-waste",
      "energy from waste",
      "waste incineration",
    ],
  },
  marine_energy: {
    query: "tidal wave energy converter cost",
    keywords: [
      "tidal stream",
      "tidal energy",
      "tidal power",
      "tidal turbine",
      "wave energy",
      "ocean energy",
      "marine energy",
    ],
  },
  lithium_ion_bess: {
    query: "lithium-ion battery energy storage system cost",
    keywords: [
      "lithium-ion batter",
      "lithium ion batter",
      "li-ion",
      "lithium iron phosphate",
      "lfp batter",
      "nmc batter",
      "battery energy storage system",
      "BESS",
    ],
  },
  redox_flow_batteries: {
    query: "vanadium redox flow battery cost",
    keywords: ["redox flow", "flow batter", "vanadium redox", "VRFB"],
  },
  sodium_sulfur_batteries: {
    query: "sodium-sulfur battery storage cost",
    keywords: ["sodium-sulfur", "sodium sulfur", "sodium-sulphur", "sodium sulphur", "NaS"],
  },
  lead_acid_batteries: {
    query: "lead-acid battery storage cost",
    keywords: ["lead-acid", "lead acid"],
  },
  pumped_hydro_storage: {
    query: "pumped hydro storage cost",
    keywords: ["pumped hydro", "pumped-hydro", "pumped storage", "pumped-storage", "PHES", "PSH"],
  },
  compressed_air_energy_storage_caes: {
    query: "compressed air energy storage cost",
    keywords: ["compressed air energy storage", "compressed-air energy storage", "CAES"],
  },
  liquid_air_energy_storage_laes: {
    query: "liquid air energy storage cost",
    keywords: [
      "liquid air energy storage",
      "liquid-air energy storage",
      "cryogenic energy storage",
      "LAES",
    ],
  },
  flywheels: {
    query: "flywheel energy storage cost",
    keywords: ["flywheel"],
  },
  sensible_thermal_storage: {
    query: "sensible thermal energy storage cost",
    keywords: [
      "sensible heat storage",
      "sensible thermal",
      "molten salt storage",
      "molten-salt storage",
      "pit thermal energy storage",
      "hot water tank",
      "water tank storage",
      "packed bed thermal",
    ],
  },
  latent_thermal_storage: {
    query: "latent heat thermal storage phase change material cost",
    keywords: ["latent heat storage", "latent thermal", "phase change material", "PCM"],
  },
  pem_electrolyzer: {
    query: "PEM electrolyzer cost",
    keywords: [
      "pem electroly",
      "pem water electroly",
      "proton exchange membrane electroly",
      "proton exchange membrane water electroly",
      "polymer electrolyte membrane electroly",
      "PEMEL",
      "PEMWE",
    ],
  },
  alkaline_electrolyzer: {
    query: "alkaline electrolyzer cost",
    keywords: ["alkaline electroly", "alkaline water electroly", "AWE"],
  },
  solid_oxide_electrolyzer_soec: {
    query: "solid oxide electrolysis cell cost",
    keywords: [
      "solid oxide electroly",
      "high-temperature electroly",
      "high temperature electroly",
      "SOEC",
    ],
  },
  pem_fuel_cell: {
    query: "PEM fuel cell stationary cost",
    keywords: [
      "pem fuel cell",
      "proton exchange membrane fuel cell",
      "polymer electrolyte membrane fuel cell",
      "polymer electrolyte fuel cell",
      "PEMFC",
    ],
  },
  solid_oxide_fuel_cell_sofc: {
    query: "solid oxide fuel cell cost",
    keywords: ["solid oxide fuel cell", "SOFC"],
  },
  hydrogen_pipeline: {
    query: "hydrogen pipeline transport cost",
    keywords: ["hydrogen pipeline", "h2 pipeline", "hydrogen transmission pipeline"],
  },
  compressed_hydrogen_storage: {
    query: "compressed hydrogen storage tank cost",
    keywords: [
      "compressed hydrogen storage",
      "compressed hydrogen tank",
      "hydrogen storage tank",
      "high-pressure hydrogen storage",
      "pressurized hydrogen storage",
    ],
  },
  liquid_hydrogen_storage: {
    query: "liquid hydrogen storage liquefaction cost",
    keywords: ["liquid hydrogen", "liquefied hydrogen", "hydrogen liquefaction", "LH2"],
  },
  underground_hydrogen_storage: {
    query: "underground hydrogen storage salt cavern cost",
    keywords: [
      "underground hydrogen storage",
      "geological hydrogen storage",
      "salt cavern",
      "hydrogen cavern",
    ],
  },
  hydrogen_to_methane: {
    query: "power-to-methane methanation cost",
    keywords: ["methanation", "power-to-methane", "synthetic methane", "sabatier"],
  },
  hydrogen_to_liquid_fuels: {
    query: "power-to-liquid Fischer-Tropsch e-fuel cost",
    keywords: [
      "fischer-tropsch",
      "power-to-liquid",
      "e-fuel",
      "electrofuel",
      "methanol synthesis",
      "methanolisation",
    ],
  },
  hydrogen_steam_reforming_smr: {
    query: "steam methane reforming hydrogen production cost",
    keywords: ["steam methane reforming", "steam reforming", "grey hydrogen", "blue hydrogen"],
  },
  post_combustion_ccs: {
    query: "post-combustion carbon capture cost",
    keywords: [
      "post-combustion capture",
      "post-combustion carbon capture",
      "post-combustion co2 capture",
      "post combustion capture",
      "amine scrubbing",
      "amine-based capture",
    ],
  },
  direct_air_capture_dac: {
    query: "direct air capture cost",
    keywords: ["direct air capture", "DAC", "DACCS"],
  },
  hvac_overhead_line: {
    query: "HVAC overhead transmission line cost",
    keywords: [
      "hvac overhead",
      "hvac line",
      "hvac transmission",
      "ac overhead line",
      "alternating current overhead",
      "alternating-current overhead",
      "alternating current transmission line",
    ],
  },
  hvdc_overhead_line: {
    query: "HVDC overhead transmission line cost",
    keywords: [
      "hvdc overhead",
      "hvdc line",
      "direct current overhead",
      "direct-current overhead",
      "dc overhead line",
    ],
  },
  hvdc_submarine_cable: {
    query: "HVDC submarine cable cost",
    keywords: [
      "hvdc submarine",
      "hvdc subsea",
      "hvdc cable",
      "submarine hvdc",
      "subsea hvdc",
      "submarine power cable",
      "subsea interconnector",
    ],
  },
  co2_pipeline: {
    query: "CO2 pipeline transport cost",
    keywords: ["co2 pipeline", "carbon dioxide pipeline", "co2 transport pipeline"],
  },
  co2_geological_storage: {
    query: "CO2 geological storage cost",
    keywords: [
      "geological storage of co2",
      "co2 geological storage",
      "geological co2 storage",
      "co2 sequestration",
      "carbon sequestration",
      "saline aquifer",
    ],
  },
};

/**
 * The terms of a technology; an id missing from the table (an own member only: a catalogue id
 * such as `constructor` is not `Object.prototype.constructor`) is searched by its own words.
 */
export function technologyTerms(technology_id: string): TechnologyTerms {
  const known = Object.hasOwn(TECHNOLOGY_TERMS, technology_id)
    ? TECHNOLOGY_TERMS[technology_id]
    : undefined;
  if (known) return known;
  const words = technology_id.replace(/_/g, " ").trim();
  return { query: words, keywords: [words] };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// Two capitals and no space: an acronym (`CSP`, `NaS`, `PEMFC`), matched as a whole word.
const ACRONYM = /^(?=(?:\S*[A-Z]){2})\S+$/;
const patternCache = new Map<string, RegExp>();

function keywordPattern(keyword: string): RegExp {
  let pattern = patternCache.get(keyword);
  if (!pattern) {
    pattern = ACRONYM.test(keyword)
      ? new RegExp(`\\b${escapeRegExp(keyword)}s?\\b`)
      : new RegExp(`\\b${escapeRegExp(keyword)}`, "i");
    patternCache.set(keyword, pattern);
  }
  return pattern;
}

/** Spellings that keyword lists need not repeat: subscript digits, typographic dashes. */
function normaliseForMatching(text: string): string {
  return text.replace(/₂/g, "2").replace(/[\u2010-\u2013]/g, "-");
}

/** True when `text` mentions one of the technology's keywords. */
export function mentionsTechnology(text: string, technology_id: string): boolean {
  const normalised = normaliseForMatching(text);
  return technologyTerms(technology_id).keywords.some((k) => keywordPattern(k).test(normalised));
}

/** Ids of the technologies (of `ids`, default all in the table) that `text` mentions. */
export function matchTechnologies(
  text: string,
  ids: Iterable<string> = Object.keys(TECHNOLOGY_TERMS),
): string[] {
  return [...ids].filter((id) => mentionsTechnology(text, id));
}
