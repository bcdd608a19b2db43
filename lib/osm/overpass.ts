/**
 * The Overpass API fallback: the Overpass QL query of each map layer for a bounding box, the
 * request (bounded in time), and its answer converted to the layer's features. Failures throw
 * an OverpassError naming the upstream status, so the caller can say why instead of answering
 * an empty collection.
 */
import { type Bbox, clampBbox } from "./bbox.ts";
import { POWER_VALUES } from "./layers.ts";
import { ADMIN_LEVELS } from "./layer_properties.ts";
import type { LayerAnswer } from "./layer_query.ts";
import type { LayerName } from "./osm_store.ts";
import {
  featureCollectionText,
  type OverpassElement,
  overpassFeatures,
} from "./overpass_features.ts";

/** How long an Overpass request may take before it is given up, ms. */
export const OVERPASS_TIMEOUT_MS = 40_000;

/**
 * What went wrong upstream: the HTTP status Overpass answered, or that it could not be reached,
 * did not answer in time, answered something that is not Overpass JSON, or reported a runtime
 * error (Overpass answers 200 with a `remark` when its own time or memory runs out).
 */
export type OverpassStatus =
  | number
  | "unreachable"
  | "timeout"
  | "invalid JSON"
  | "runtime error";

/** An Overpass request that failed; `upstream` says how. */
export class OverpassError extends Error {
  /** The upstream status (HTTP status or kind of failure). */
  readonly upstream: OverpassStatus;

  constructor(upstream: OverpassStatus, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "OverpassError";
    this.upstream = upstream;
  }
}

/** A regular expression matching exactly one of `values`, for an Overpass tag filter. */
function oneOf(values: readonly string[]): string {
  return `^(${values.join("|")})$`;
}

/**
 * The Overpass QL query for `layer` within `bbox` (clamped to 5 x 5 degrees around its centre),
 * asking `out geom` so ways and relation members come with their positions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(
 *   overpassQuery("power_lines", [9.47, 47.04, 9.64, 47.27], 40),
 *   '[out:json][timeout:40];(way["power"~"^(line|minor_line|cable)$"](47.04,9.47,47.27,9.64););' +
 *     "out geom;",
 * );
 * ```
 */
export function overpassQuery(layer: LayerName, bbox: Bbox, timeoutS = 40): string {
  const [w, s, e, n] = clampBbox(bbox);
  const box = `(${s},${w},${n},${e})`; // Overpass orders south, west, north, east.
  let statements: string[];
  if (layer === "power_lines") {
    statements = [`way["power"~"${oneOf(POWER_VALUES.power_lines)}"]${box};`];
  } else if (layer === "communes" || layer === "districts") {
    statements = [
      `relation["boundary"="administrative"]["admin_level"="${ADMIN_LEVELS[layer]}"]` +
      `["type"~"^(boundary|multipolygon)$"]${box};`,
    ];
  } else {
    const power = `["power"~"${oneOf(POWER_VALUES[layer])}"]`;
    statements = [
      `node${power}${box};`,
      `way${power}${box};`,
      `relation["type"="multipolygon"]${power}${box};`,
    ];
  }
  return `[out:json][timeout:${Math.max(1, Math.ceil(timeoutS))}];(${
    statements.join("")
  });out geom;`;
}

/** Options of fetchOverpassLayer. */
export interface OverpassOptions {
  /** The interpreter endpoint (OVERPASS_URL). */
  readonly url: string;
  /** The fetch to use (tests pass one reaching a local fake). */
  readonly fetch?: typeof fetch;
  /** Give up after this many ms (default OVERPASS_TIMEOUT_MS). */
  readonly timeoutMs?: number;
  /** Ends the request early (e.g. the service stopping). */
  readonly signal?: AbortSignal;
  /** User-Agent to send; Overpass's usage policy asks clients to identify themselves. */
  readonly userAgent?: string;
}

/** A layer answered by Overpass: the collection text, its count, the box asked, and problems. */
export interface OverpassAnswer extends LayerAnswer {
  /** The box sent to Overpass (the request's, clamped to 5 x 5 degrees). */
  readonly bbox: Bbox;
  /** Features left out (relations that do not close), by osm_id. */
  readonly problems: string[];
}

function describe(status: number, statusText: string): string {
  return statusText ? `${status} ${statusText}` : String(status);
}

/**
 * Asks Overpass for `layer` within `bbox` and converts the answer. Throws an OverpassError
 * whose `upstream` is the HTTP status of a non-2xx answer, "unreachable", "timeout",
 * "invalid JSON" or "runtime error"; an answer with no elements is a valid empty layer.
 */
export async function fetchOverpassLayer(
  layer: LayerName,
  bbox: Bbox,
  options: OverpassOptions,
): Promise<OverpassAnswer> {
  const timeoutMs = options.timeoutMs ?? OVERPASS_TIMEOUT_MS;
  const clamped = clampBbox(bbox);
  const query = overpassQuery(layer, clamped, timeoutMs / 1000);
  const timer = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([timer, options.signal]) : timer;
  const where = `Overpass (${options.url})`;
  let text: string;
  try {
    const response = await (options.fetch ?? fetch)(options.url, {
      method: "POST",
      body: new URLSearchParams({ data: query }),
      headers: {
        Accept: "application/json",
        ...(options.userAgent ? { "User-Agent": options.userAgent } : {}),
      },
      signal,
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new OverpassError(
        response.status,
        `${where} answered ${describe(response.status, response.statusText)}`,
      );
    }
    // Reading the body is inside the deadline too: a server may stall mid-answer.
    text = await response.text();
  } catch (error) {
    if (error instanceof OverpassError) throw error;
    if (timer.aborted) {
      throw new OverpassError(
        "timeout",
        `${where} did not answer within ${timeoutMs / 1000} s`,
        { cause: error },
      );
    }
    throw new OverpassError(
      "unreachable",
      `${where} is unreachable: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  let body: { elements?: unknown; remark?: unknown };
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new OverpassError(
      "invalid JSON",
      `${where} answered invalid JSON: ${text.slice(0, 80)}`,
      {
        cause: error,
      },
    );
  }
  if (body === null || typeof body !== "object" || !Array.isArray(body.elements)) {
    throw new OverpassError("invalid JSON", `${where} answered JSON without an elements list`);
  }
  if (typeof body.remark === "string" && /error/i.test(body.remark)) {
    throw new OverpassError("runtime error", `${where} reported: ${body.remark.slice(0, 200)}`);
  }
  const { features, problems } = overpassFeatures(layer, body.elements as OverpassElement[]);
  return { ...featureCollectionText(features), bbox: clamped, problems };
}
