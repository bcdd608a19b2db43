/**
 * The frontend's `links` read into canonical links (research notes `tempo_client.md` section
 * 1.4). Endpoints are location names in every frontend shape; the technology is `tech`, else the
 * one a `linkType` stands for, else the legacy `techs[0]`. `capacity: 0` and `distance: 0` mean
 * "not set" (the frontend's importer writes 0 for an absent value).
 *
 * A positive `capacity` becomes `constraints.energy_cap_max`: that is what the frontend's own
 * YAML export writes, so the capacity a user typed limits the link (the old Python runner
 * silently dropped it).
 */
import type { FrontendReadContext } from "./frontend_context.ts";
import { frontendKey } from "./frontend_ids.ts";
import {
  infinityCosts,
  infinityRecord,
  infinityValue,
  isPlainObject,
} from "./frontend_infinity.ts";
import type { LocationDraft } from "./frontend_locations.ts";
import type { FrontendTechnologies } from "./frontend_technologies.ts";

/** The frontend's link types (its `src/config/linkTypes.js`): the Calliope tech and carrier. */
export const LINK_TYPES: Readonly<Record<string, { tech: string; carrier: string }>> = {
  hvac_overhead: { tech: "hvac_overhead_lines", carrier: "electricity" },
  hvdc_overhead: { tech: "hvdc_overhead_lines", carrier: "electricity" },
  hvac_cable: { tech: "hvac_underground_cables", carrier: "electricity" },
  hvdc_subsea: { tech: "hvdc_subsea_cables", carrier: "electricity" },
  district_heat: { tech: "district_heating_networks", carrier: "heat" },
  district_cooling: { tech: "district_cooling_networks", carrier: "cooling" },
  h2_pipeline: { tech: "hydrogen_pipelines", carrier: "hydrogen" },
  h2_truck: { tech: "hydrogen_truck", carrier: "hydrogen" },
  gas_pipeline: { tech: "natural_gas_pipelines", carrier: "gas" },
  biogas_pipeline: { tech: "biogas_pipelines", carrier: "biogas" },
  co2_pipeline: { tech: "co2_pipelines", carrier: "co2" },
  biomass_truck: { tech: "biomass_truck", carrier: "biomass" },
  biomass_train: { tech: "biomass_train", carrier: "biomass" },
  oil_pipeline: { tech: "oil_pipelines", carrier: "oil" },
  oil_truck: { tech: "fuel_truck", carrier: "oil" },
  water_pipeline: { tech: "water_pipelines", carrier: "water" },
};

/** Reads the frontend's `links` against the locations and technologies already read. */
export function readFrontendLinks(
  list: unknown,
  locations: readonly LocationDraft[],
  techs: FrontendTechnologies,
  ctx: FrontendReadContext,
): Record<string, unknown>[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) {
    ctx.problems.push({ path: "links", message: "links must be a list" });
    return [];
  }
  const locationOf = locationLookup(locations);
  const links: Record<string, unknown>[] = [];
  list.forEach((raw, i) => {
    const at = `links[${i}]`;
    if (!isPlainObject(raw)) {
      ctx.problems.push({ path: at, message: "a link must be an object" });
      return;
    }
    const ends = (["from", "to"] as const).map((end) => {
      const value = raw[end] ?? raw[end === "from" ? "source" : "target"];
      const id = typeof value === "string" || typeof value === "number"
        ? locationOf(String(value))
        : undefined;
      if (id === undefined) {
        ctx.problems.push({
          path: `${at}.${end}`,
          message: value === undefined ? "a link needs both ends" : `"${value}" names no location`,
        });
      }
      return id;
    });
    const technology = linkTechnology(raw, at, techs, ctx);
    if (ends[0] === undefined || ends[1] === undefined || technology === undefined) return;

    const link: Record<string, unknown> = { source: ends[0], target: ends[1], technology };
    const distance = positive(raw["distance"], `${at}.distance`, ctx);
    if (distance !== undefined) link["distance"] = distance;
    const constraints = isPlainObject(raw["constraints"]) ? infinityRecord(raw["constraints"]) : {};
    const capacity = positive(raw["capacity"], `${at}.capacity`, ctx);
    const capacityKeys = ["energy_cap_max", "energy_cap_equals", "energy_cap_min"];
    if (capacity !== undefined && !capacityKeys.some((k) => k in constraints)) {
      constraints["energy_cap_max"] = infinityValue(capacity);
    }
    if (Object.keys(constraints).length > 0) link["constraints"] = constraints;
    if (isPlainObject(raw["costs"])) {
      const costs = infinityCosts(raw["costs"]);
      if (Object.keys(costs).length > 0) link["costs"] = costs;
    }
    links.push(link);
  });
  return links;
}

/**
 * The link's technology key: `tech`, else `linkType`, else `techs[0]`. A `linkType` whose
 * technology the model lacks defines a plain transmission technology (with a note): the link
 * type says what it carries. A named technology the model lacks is a problem, never invented.
 */
function linkTechnology(
  raw: Record<string, unknown>,
  at: string,
  techs: FrontendTechnologies,
  ctx: FrontendReadContext,
): string | undefined {
  const legacy = Array.isArray(raw["techs"])
    ? raw["techs"][0]
    : isPlainObject(raw["techs"])
    ? Object.keys(raw["techs"])[0]
    : undefined;
  const named = [
    ["tech", raw["tech"]],
    ["technology", raw["technology"]],
    ["techs[0]", legacy],
  ].find(([, v]) => typeof v === "string" && v !== "") as [string, string] | undefined;
  if (named !== undefined) {
    const key = techs.index.lookup(named[1]);
    if (key === undefined) {
      ctx.problems.push({
        path: `${at}.${named[0]}`,
        message: `"${named[1]}" names no technology of the model`,
      });
      return undefined;
    }
    return checkTransmission(key, `${at}.${named[0]}`, techs, ctx);
  }
  const linkType = raw["linkType"];
  if (typeof linkType !== "string" || linkType === "") {
    ctx.problems.push({ path: `${at}.tech`, message: "a link needs a tech or a linkType" });
    return undefined;
  }
  const known = LINK_TYPES[linkType];
  const key = techs.index.lookup(known?.tech ?? linkType);
  if (key !== undefined) return checkTransmission(key, `${at}.linkType`, techs, ctx);
  const name = frontendKey(known?.tech ?? linkType);
  if (name === "") {
    ctx.problems.push({ path: `${at}.linkType`, message: `"${linkType}" is not a usable name` });
    return undefined;
  }
  const carrier = typeof raw["carrier"] === "string" && raw["carrier"] !== ""
    ? raw["carrier"]
    : known?.carrier ?? "electricity";
  techs.add({ name, type: "transmission", carrier });
  ctx.notes.push(
    `${at}: link type "${linkType}" names no technology of the model; the transmission ` +
      `technology "${name}" (carrier ${carrier}, no costs, Calliope's defaults) was defined`,
  );
  return name;
}

function checkTransmission(
  key: string,
  at: string,
  techs: FrontendTechnologies,
  ctx: FrontendReadContext,
): string | undefined {
  if (techs.index.typeOf(key) === "transmission") return key;
  ctx.problems.push({ path: at, message: `"${key}" is not a transmission technology` });
  return undefined;
}

/** A positive number; 0, null and "" mean absent; anything else is a problem. */
function positive(value: unknown, at: string, ctx: FrontendReadContext): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const n = typeof value === "string" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n) || n < 0) {
    ctx.problems.push({ path: at, message: "must be a non-negative number (0 = not set)" });
    return undefined;
  }
  return n === 0 ? undefined : n;
}

function locationLookup(locations: readonly LocationDraft[]): (ref: string) => string | undefined {
  const byAlias = new Map<string, string>();
  for (const d of locations) byAlias.set(d.fields.id, d.fields.id);
  for (const d of locations) {
    const name = d.fields["name"];
    if (typeof name === "string" && !byAlias.has(name)) byAlias.set(name, d.fields.id);
  }
  return (ref) => byAlias.get(ref) ?? byAlias.get(frontendKey(ref));
}
