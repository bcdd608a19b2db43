/**
 * Geocoding: a place name to `{lat, lon, display_name, bbox}`. What can be answered locally is
 * answered at once: the cache, then a place of the local gazetteer named exactly so. Only the
 * rest goes to the Nominatim-compatible service, with a User-Agent and at most one request per
 * `minIntervalMs` (Nominatim's usage policy: one a second, identified), through a queue that
 * serves clients in turn and refuses a request whose turn would come after `maxWaitMs` (the
 * caller answers 503 with Retry-After). The same question asked again while it waits joins it.
 * When Nominatim cannot be reached (network error, non-2xx, timeout, unreadable answer) the
 * gazetteer's best match answers, so the caller never sees a bad gateway. Nominatim's answers,
 * found or not, are cached; gazetteer answers are not, so the service is asked again once it is
 * back. After a failure Nominatim is skipped for `retryAfterMs`, so a dead service costs one
 * timeout, not one per request.
 */
import {
  type BBox,
  boxAround,
  exactPlace,
  type GeocodeResult,
  type Place,
  placeResult,
  searchPlaces,
} from "./gazetteer.ts";
import { FairQueue, QueueBusyError } from "./fair_queue.ts";
import { LruCache } from "../cache/lru_cache.ts";

export type { GeocodeResult } from "./gazetteer.ts";

/** Which source answered. */
export type GeocodeSource = "nominatim" | "gazetteer" | "cache";

/**
 * A geocoding answer: found with its source, not found (the route answers 404), or busy: the
 * question must go upstream and its turn would come too late (503 with Retry-After).
 */
export type GeocodeAnswer =
  | { found: true; result: GeocodeResult; source: GeocodeSource }
  | { found: false; source: GeocodeSource; message: string }
  | {
    found: false;
    busy: true;
    /** No source answered. */
    source?: undefined;
    retryAfterSeconds: number;
    message: string;
  };

/** The client of a request without one (in-process calls). */
export const LOCAL_CLIENT = "local";

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
  /** Longest wait for a turn at Nominatim, ms (default 10 s); beyond it, a busy answer. */
  maxWaitMs?: number;
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
  /**
   * The best place for `query`, asked by `client` (its address: turns at Nominatim go round
   * the clients); never throws for an unreachable service.
   */
  geocode(query: string, client?: string): Promise<GeocodeAnswer>;
}

/** Default wait bound for a turn at Nominatim, ms. */
export const GEOCODER_MAX_WAIT_MS = 10_000;

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
  const queue = new FairQueue({
    intervalMs: options.minIntervalMs ?? 1000,
    maxWaitMs: options.maxWaitMs ?? GEOCODER_MAX_WAIT_MS,
  });
  // Questions on their way upstream, by cache key: the same question joins the first.
  const pending = new Map<string, Promise<GeocodeAnswer>>();
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

  const places = async (): Promise<readonly Place[]> =>
    options.extraPlaces ? await options.extraPlaces() : [];

  const fromGazetteer = async (query: string): Promise<GeocodeAnswer> => {
    const place = searchPlaces([...await places(), ...options.gazetteer], query);
    return place
      ? { found: true, result: placeResult(place), source: "gazetteer" }
      : { found: false, source: "gazetteer", message: `No place found for "${query}"` };
  };

  /** A place named exactly `query`, the imported regions' first; the more populous wins. */
  const exactLocal = async (query: string): Promise<Place | undefined> => {
    const extra = exactPlace(await places(), query);
    const shipped = exactPlace(options.gazetteer, query);
    if (!extra) return shipped;
    return shipped && shipped.population > extra.population ? shipped : extra;
  };

  /** Nominatim's answer in `client`'s turn, the gazetteer's when Nominatim is unreachable. */
  const upstream = async (query: string, key: string, client: string) => {
    let answer: { value: GeocodeResult | null | undefined; source: GeocodeSource };
    try {
      answer = await queue.run(client, async () => {
        // A request queued behind the same question finds its answer here.
        const again = cache.get(key);
        if (again !== undefined) return { value: again, source: "cache" as const };
        return { value: await askNominatim(query), source: "nominatim" as const };
      });
    } catch (error) {
      if (!(error instanceof QueueBusyError)) throw error;
      const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
      return {
        found: false,
        busy: true,
        retryAfterSeconds: seconds,
        message: `Too many geocoding requests waiting for Nominatim (at most one a second, ` +
          `GEOCODER_MAX_WAIT_S); retry in ${seconds} s`,
      } as const;
    }
    if (answer.value === undefined) return await fromGazetteer(query);
    if (answer.source === "nominatim") cache.set(key, answer.value);
    return answer.value
      ? { found: true, result: answer.value, source: answer.source } as const
      : { found: false, source: answer.source, message: `No place found for "${query}"` } as const;
  };

  return {
    async geocode(query, client = LOCAL_CLIENT) {
      const key = cacheKey(query);
      const cached = cache.get(key);
      if (cached !== undefined) {
        return cached
          ? { found: true, result: cached, source: "cache" }
          : { found: false, source: "cache", message: `No place found for "${query}"` };
      }
      // A place of that very name is answered locally, at once.
      const local = await exactLocal(query);
      if (local) return { found: true, result: placeResult(local), source: "gazetteer" };
      // While Nominatim is known to be down, the gazetteer answers without waiting in line.
      if (now() < downUntil) return await fromGazetteer(query);
      const joined = pending.get(key);
      if (joined) return await joined;
      const asked = upstream(query, key, client);
      pending.set(key, asked);
      try {
        return await asked;
      } finally {
        pending.delete(key);
      }
    },
  };
}
