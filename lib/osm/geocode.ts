/**
 * Geocoding: a place name to `{lat, lon, display_name, bbox}`. A Nominatim-compatible service
 * is asked first, with a User-Agent and at most one request per `minIntervalMs` (Nominatim's
 * usage policy: one a second, identified); when it cannot be reached (network error, non-2xx,
 * timeout, unreadable answer) the local gazetteer answers, so the caller never sees a bad gateway.
 * Nominatim's answers, found or not, are cached; gazetteer answers are not, so the service is
 * asked again once it is back. After a failure Nominatim is skipped for `retryAfterMs`, so a dead
 * service costs one timeout, not one per request.
 */
import { serialQueue } from "../concurrency/serial_queue.ts";
import {
  type BBox,
  boxAround,
  type GeocodeResult,
  type Place,
  placeResult,
  searchPlaces,
} from "./gazetteer.ts";
import { LruCache } from "../cache/lru_cache.ts";

export type { GeocodeResult } from "./gazetteer.ts";

/** Which source answered. */
export type GeocodeSource = "nominatim" | "gazetteer" | "cache";

/** A geocoding answer: found with its source, or not found (the route answers 404). */
export type GeocodeAnswer =
  | { found: true; result: GeocodeResult; source: GeocodeSource }
  | { found: false; source: GeocodeSource; message: string };

/** What a geocoder is built from. */
export interface GeocoderOptions {
  /** Base URL of the Nominatim-compatible service; `/search` is appended. */
  nominatimUrl: string;
  /** Sent on every request (Nominatim refuses anonymous clients). */
  userAgent: string;
  /** Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Least time between two request starts, ms (default 1000). */
  minIntervalMs?: number;
  /** How long one request may take, ms (default 10 s). */
  timeoutMs?: number;
  /** After a failure, how long Nominatim is not asked, ms (default 30 s; 0 asks every time). */
  retryAfterMs?: number;
  /** The shipped places (see `loadShippedGazetteer`). */
  gazetteer: readonly Place[];
  /** Places of the imported regions, asked at each gazetteer lookup. */
  extraPlaces?: () => readonly Place[] | Promise<readonly Place[]>;
  /** Cache bounds (default 1000 entries for 24 h). */
  cacheEntries?: number;
  cacheTtlMs?: number;
  /** The current time, ms (default `Date.now`). */
  now?: () => number;
}

/** A geocoder. */
export interface Geocoder {
  /** The best place for `query`; never throws for an unreachable service. */
  geocode(query: string): Promise<GeocodeAnswer>;
}

/** Nominatim's `boundingbox` [minLat, maxLat, minLon, maxLon] (strings) as [minLon, minLat, maxLon, maxLat]. */
export function nominatimBBox(boundingbox: unknown): BBox | undefined {
  if (!Array.isArray(boundingbox) || boundingbox.length !== 4) return undefined;
  const [minLat, maxLat, minLon, maxLon] = boundingbox.map((v) => Number(v));
  const box = [minLon, minLat, maxLon, maxLat];
  return box.every((v) => v !== undefined && Number.isFinite(v)) ? box as BBox : undefined;
}

/**
 * The first hit of a Nominatim `format=jsonv2` answer as a GeocodeResult, null for an empty
 * list; throws a TypeError for another shape.
 */
export function parseNominatim(body: unknown): GeocodeResult | null {
  if (!Array.isArray(body)) throw new TypeError("Nominatim answer is not a JSON array");
  if (body.length === 0) return null;
  const hit = body[0] as Record<string, unknown> | null;
  const lat = Number(hit?.["lat"]);
  const lon = Number(hit?.["lon"]);
  if (!Number.isFinite(lat) || !Number.isFinite(lon)) {
    throw new TypeError("Nominatim answer lacks a numeric lat/lon");
  }
  const name = hit?.["display_name"];
  return {
    lat,
    lon,
    display_name: typeof name === "string" ? name : `${lat}, ${lon}`,
    bbox: nominatimBBox(hit?.["boundingbox"]) ?? boxAround(lon, lat, 0.01),
  };
}

/** The cache key: case and spacing do not make a different question. */
function cacheKey(query: string): string {
  return query.normalize("NFC").toLowerCase().replace(/\s+/g, " ").trim();
}

/** Builds a geocoder over Nominatim with the gazetteer as fallback. */
export function createGeocoder(options: GeocoderOptions): Geocoder {
  const doFetch = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const retryAfterMs = options.retryAfterMs ?? 30_000;
  const queue = serialQueue(options.minIntervalMs ?? 1000);
  const cache = new LruCache<GeocodeResult | null>({
    maxEntries: options.cacheEntries ?? 1000,
    ttlMs: options.cacheTtlMs ?? 24 * 3600_000,
    now,
  });
  const base = options.nominatimUrl.endsWith("/")
    ? options.nominatimUrl
    : `${options.nominatimUrl}/`;
  let downUntil = -Infinity;

  /** Nominatim's answer, or undefined when it could not be had. */
  const askNominatim = async (query: string): Promise<GeocodeResult | null | undefined> => {
    if (now() < downUntil) return undefined;
    const url = new URL("search", base);
    url.searchParams.set("q", query);
    url.searchParams.set("format", "jsonv2");
    url.searchParams.set("limit", "1");
    try {
      const response = await doFetch(url, {
        headers: { "User-Agent": options.userAgent, Accept: "application/json" },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`Nominatim answered ${response.status}`);
      }
      return parseNominatim(await response.json());
    } catch {
      // Any failure means "unreachable": the gazetteer answers instead of a 502.
      downUntil = now() + retryAfterMs;
      return undefined;
    }
  };

  const fromGazetteer = async (query: string): Promise<GeocodeAnswer> => {
    const extra = options.extraPlaces ? await options.extraPlaces() : [];
    const place = searchPlaces([...extra, ...options.gazetteer], query);
    return place
      ? { found: true, result: placeResult(place), source: "gazetteer" }
      : { found: false, source: "gazetteer", message: `No place found for "${query}"` };
  };

  return {
    async geocode(query) {
      const key = cacheKey(query);
      const cached = cache.get(key);
      if (cached !== undefined) {
        return cached
          ? { found: true, result: cached, source: "cache" }
          : { found: false, source: "cache", message: `No place found for "${query}"` };
      }
      // While Nominatim is known to be down, the gazetteer answers without waiting in line.
      if (now() < downUntil) return await fromGazetteer(query);
      const answer = await queue(async () => {
        // A request queued behind the same question finds its answer here.
        const again = cache.get(key);
        if (again !== undefined) return { value: again, source: "cache" as const };
        return { value: await askNominatim(query), source: "nominatim" as const };
      });
      if (answer.value === undefined) return await fromGazetteer(query);
      if (answer.source === "nominatim") cache.set(key, answer.value);
      return answer.value ? { found: true, result: answer.value, source: answer.source } : {
        found: false,
        source: answer.source,
        message: `No place found for "${query}"`,
      };
    },
  };
}
