/**
 * The downloadable regions: the Geofabrik index (`data/geo/regions/geofabrik-index-v1-nogeom.json`,
 * © Geofabrik GmbH) as `{name, path, url, parent}` with continent/country/sub-region paths like
 * `Europe/Germany/Bayern`, and the rule every region path component must meet.
 *
 * A path component is the region's display name made to meet that rule: a Polish voivodeship's
 * `<br />(English name)` tail and a parenthetical remark are dropped ("Brandenburg (mit Berlin)"
 * -> "Brandenburg"), other characters outside the rule become spaces; where dropping the remark
 * would make two siblings equal ("Congo (Republic/Brazzaville)"), the remark is kept. US states,
 * which the index lists under North America with ids like `us/california`, sit under the United
 * States, as their download URLs do.
 */

/** The shipped Geofabrik index (regions without geometry, © Geofabrik GmbH). */
export const SHIPPED_GEOFABRIK_INDEX = new URL(
  "../../data/geo/regions/geofabrik-index-v1-nogeom.json",
  import.meta.url,
);

/** Default base of the download URLs (`GEOFABRIK_URL`). */
export const GEOFABRIK_DEFAULT_URL = "https://download.geofabrik.de";

/** One downloadable region, as `GET /api/osm/regions-db` lists it. */
export interface Region {
  /** Geofabrik's display name, e.g. "Bayern" or "Brandenburg (mit Berlin)" ("California" for "us/california"). */
  name: string;
  /** Continent/country/sub-region, e.g. "Europe/Germany/Bayern". */
  path: string;
  /** The `.osm.pbf` download URL under the configured base. */
  url: string;
  /** The parent's path, or null for a top-level region (continents, Russia). */
  parent: string | null;
}

/** Longest path component, characters. */
export const MAX_COMPONENT_LENGTH = 80;

// Letters of any script (Baden-Württemberg is a valid name), digits, hyphen, underscore, space.
const COMPONENT = /^[\p{L}\p{M}\p{N}_\- ]{1,80}$/u;

/** Whether one region path component is 1 to 80 letters, digits, hyphens, underscores, spaces. */
export function isValidPathComponent(component: string): boolean {
  return COMPONENT.test(component) && component.trim() !== "";
}

/**
 * The components of a region path ("Europe/Liechtenstein" -> ["Europe", "Liechtenstein"]);
 * throws a RangeError saying which component breaks the rule.
 */
export function parseRegionPath(path: string): string[] {
  const components = path.split("/").map((c) => c.trim());
  components.forEach((component, i) => {
    if (!isValidPathComponent(component)) {
      throw new RangeError(
        `region path component ${i + 1} ${JSON.stringify(component)} must be 1 to ` +
          `${MAX_COMPONENT_LENGTH} letters, digits, hyphens, underscores or spaces`,
      );
    }
  });
  return components;
}

/** The lookup key of a path: components compared without regard to case. */
function pathKey(components: readonly string[]): string {
  return components.map((c) => c.normalize("NFC").toLowerCase()).join("/");
}

/** The regions, listed and found by path. */
export interface RegionsDb {
  /** Every region, parents before children, siblings by name. */
  readonly regions: readonly Region[];
  /** The region at `path` (components case-insensitive), or undefined; throws on a bad path. */
  findRegion(path: string): Region | undefined;
}

interface IndexProperties {
  id: string;
  name: string;
  parent?: string;
  urls: { pbf: string };
}

/** Whether a name is a Geofabrik id ("us/california"), as the index gives for US states. */
function isIdLike(name: string): boolean {
  return /^[a-z-]+\/[a-z-]+$/.test(name);
}

/** Makes a display name a valid path component; `keepRemarks` keeps parenthetical remarks. */
function toComponent(name: string, keepRemarks: boolean): string {
  let text = name.normalize("NFC").replace(/<br\s*\/?>.*$/s, "");
  // "us/california": the last id segment, as words.
  if (isIdLike(text)) {
    text = (text.split("/")[1] ?? text).split("-").map((w) =>
      w === "of" ? w : w === "us" ? "US" : w.charAt(0).toUpperCase() + w.slice(1)
    ).join(" ");
  }
  if (!keepRemarks) text = text.replace(/\s*\([^)]*\)/g, "");
  return text.replace(/[^\p{L}\p{M}\p{N}_\- ]+/gu, " ").replace(/\s+/g, " ").trim()
    .slice(0, MAX_COMPONENT_LENGTH).trim();
}

/**
 * Builds the regions from the parsed Geofabrik index (a GeoJSON FeatureCollection whose
 * features' properties have id, name, parent?, urls.pbf); throws a TypeError on another shape.
 */
export function buildRegionsDb(index: unknown, baseUrl: string = GEOFABRIK_DEFAULT_URL): RegionsDb {
  const features = (index as { features?: unknown })?.features;
  if (!Array.isArray(features)) {
    throw new TypeError("Geofabrik index: expected a FeatureCollection with features");
  }
  const byId = new Map<string, IndexProperties>();
  features.forEach((feature, i) => {
    const p = (feature as { properties?: Partial<IndexProperties> })?.properties;
    if (
      typeof p?.id !== "string" || typeof p.name !== "string" || typeof p.urls?.pbf !== "string"
    ) {
      throw new TypeError(`Geofabrik index: features[${i}] lacks id, name or urls.pbf`);
    }
    byId.set(p.id, p as IndexProperties);
  });
  // us/california's index parent is north-america; its URL (and sense) put it under "us".
  const parentId = (p: IndexProperties): string | undefined => {
    const slash = p.id.lastIndexOf("/");
    if (slash > 0 && byId.has(p.id.slice(0, slash))) return p.id.slice(0, slash);
    return p.parent !== undefined && byId.has(p.parent) ? p.parent : undefined;
  };
  const children = new Map<string | undefined, IndexProperties[]>();
  for (const p of byId.values()) {
    const key = parentId(p);
    children.set(key, [...(children.get(key) ?? []), p]);
  }
  const base = baseUrl.replace(/\/+$/, "");
  const relative = (url: string) =>
    url.startsWith(GEOFABRIK_DEFAULT_URL) ? url.slice(GEOFABRIK_DEFAULT_URL.length) : null;

  const regions: Region[] = [];
  const byKey = new Map<string, Region>();
  const visit = (parent: Region | null, parentKey: string | undefined) => {
    const siblings = children.get(parentKey) ?? [];
    const short = siblings.map((p) => toComponent(p.name, false));
    const sorted = siblings.map((p, i) => ({ p, i })).sort((a, b) =>
      a.p.name.localeCompare(b.p.name)
    );
    for (const { p, i } of sorted) {
      const clash = short.filter((s) => s.toLowerCase() === short[i]!.toLowerCase()).length > 1;
      const component = clash ? toComponent(p.name, true) : short[i]!;
      const rel = relative(p.urls.pbf);
      const region: Region = {
        name: isIdLike(p.name) ? component : p.name,
        path: parent ? `${parent.path}/${component}` : component,
        url: rel === null ? p.urls.pbf : base + rel,
        parent: parent?.path ?? null,
      };
      const key = pathKey(region.path.split("/"));
      if (!isValidPathComponent(component) || byKey.has(key)) {
        throw new TypeError(`Geofabrik index: region "${p.id}" has no unique valid path`);
      }
      regions.push(region);
      byKey.set(key, region);
      visit(region, p.id);
    }
  };
  visit(null, undefined);

  return {
    regions,
    findRegion: (path) => byKey.get(pathKey(parseRegionPath(path))),
  };
}

/** Reads the Geofabrik index file and builds the regions. */
export async function loadRegionsDb(
  indexPath: string | URL,
  baseUrl: string = GEOFABRIK_DEFAULT_URL,
): Promise<RegionsDb> {
  const text = await Deno.readTextFile(indexPath);
  return buildRegionsDb(JSON.parse(text), baseUrl);
}

/**
 * The region whose download file an extract's name comes from: "liechtenstein-2024-03-04.osm.pbf"
 * and "liechtenstein-latest.osm.pbf" -> Europe/Liechtenstein (the download file's stem, with the
 * date or `latest` dropped); undefined when no region's file has that stem.
 */
export function regionOfFile(db: RegionsDb, fileName: string): Region | undefined {
  const stem = (name: string) =>
    (name.split("/").at(-1) ?? name).replace(/\.osm(\.pbf)?$|\.pbf$/i, "")
      .replace(/-(latest|\d{6}|\d{4}-\d{2}-\d{2})$/, "").toLowerCase();
  const wanted = stem(fileName);
  return db.regions.find((r) => stem(r.url) === wanted);
}
