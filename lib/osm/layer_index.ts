/**
 * An in-memory index of one map layer: every feature's JSON text (the same text `queryLayer`
 * builds in SQL) with its bounding box and region, so that a bbox or region request is a scan
 * of a few typed arrays instead of a DuckDB query. A query takes microseconds where a store
 * query takes milliseconds and waits for a reader connection under load (64 connections: p99
 * 133 ms from the store, see BENCHMARKS.md).
 *
 * A layer whose feature text exceeds `maxBytes` is not indexed (loadLayerIndex answers
 * undefined) and the store answers it: the map layers of a country are small (Liechtenstein's
 * five take 0.2 MB), but rooftop solar generators can run into millions.
 */
import type { Store } from "../store/store.ts";
import {
  COLLECTION_HEAD,
  collectionTail,
  featureBudget,
  featureSql,
  LAYER_LIMITS,
  type LayerAnswer,
  type LayerLimits,
  type LayerRequest,
  regionKey,
} from "./layer_query.ts";
import type { LayerName } from "./osm_store.ts";

/** Largest feature text of one layer that is held in memory, bytes (UTF-16 units). */
export const LAYER_INDEX_MAX_BYTES = 64 * 1024 * 1024;

/** An answer of the index: its UTF-8 bytes, ready to send; `text` decodes them. */
export interface IndexedLayerAnswer extends LayerAnswer {
  readonly bytes: Uint8Array<ArrayBuffer>;
}

/** A loaded layer index. */
export interface LayerIndex {
  /** Features held. */
  readonly count: number;
  /**
   * The features `request` selects (bbox and/or region), ordered by osm_id, cut at `limits`
   * exactly as `queryLayer` cuts them.
   */
  query(request: LayerRequest, limits?: LayerLimits): IndexedLayerAnswer;
}

const encoder = new TextEncoder();
const HEAD = encoder.encode(COLLECTION_HEAD);
const COMMA = 0x2c;

/**
 * Reads `layer` into an index, or answers undefined when its feature text is over `maxBytes`.
 * Throws when the layer table cannot be read (nothing imported yet).
 */
export async function loadLayerIndex(
  store: Store,
  layer: LayerName,
  maxBytes: number = LAYER_INDEX_MAX_BYTES,
): Promise<LayerIndex | undefined> {
  // The geometry and tags are most of a feature's text: a cheap bound before reading it all.
  const [size] = await store.all<{ bytes: number | null }>(
    `SELECT CAST(sum(length(geometry) + length(tags) + 200) AS DOUBLE) AS bytes FROM ${layer}`,
  );
  if ((size?.bytes ?? 0) > maxBytes) return undefined;
  const rows = await store.all<{
    region: string;
    min_lon: number;
    min_lat: number;
    max_lon: number;
    max_lat: number;
    feature: string;
  }>(
    `SELECT lower(region_path) AS region, min_lon, min_lat, max_lon, max_lat,
            ${featureSql(layer)} AS feature
     FROM ${layer} ORDER BY osm_id, region_path`,
  );
  const n = rows.length;
  const boxes = new Float64Array(n * 4);
  // UTF-8 bytes, encoded once: an answer is then one copy of its features' bytes.
  const features: Uint8Array[] = new Array(n);
  const regionIds = new Uint32Array(n);
  const regions: string[] = [];
  const regionIdOf = new Map<string, number>();
  rows.forEach((row, i) => {
    boxes[i * 4] = row.min_lon;
    boxes[i * 4 + 1] = row.min_lat;
    boxes[i * 4 + 2] = row.max_lon;
    boxes[i * 4 + 3] = row.max_lat;
    features[i] = encoder.encode(row.feature);
    let id = regionIdOf.get(row.region);
    if (id === undefined) {
      id = regions.push(row.region) - 1;
      regionIdOf.set(row.region, id);
    }
    regionIds[i] = id;
  });
  return {
    count: n,
    query(request, limits = LAYER_LIMITS) {
      // The regions a region request selects: the region itself and those under it.
      let wanted: Uint8Array | undefined;
      if (request.region !== undefined) {
        const key = regionKey(request.region);
        wanted = new Uint8Array(regions.length);
        regions.forEach((r, id) => {
          if (r === key || r.startsWith(`${key}/`)) wanted![id] = 1;
        });
      }
      const [minLon, minLat, maxLon, maxLat] = request.bbox ?? [-Infinity, -Infinity, 0, 0];
      const bbox = request.bbox !== undefined;
      const picked: Uint8Array[] = [];
      const budget = featureBudget(limits);
      // Features bytes with their commas; past a limit the rest are only counted.
      let used = 0, total = 0, full = false;
      for (let i = 0; i < n; i++) {
        if (wanted && wanted[regionIds[i]!] !== 1) continue;
        if (
          bbox && (boxes[i * 4 + 2]! < minLon || boxes[i * 4]! > maxLon ||
            boxes[i * 4 + 3]! < minLat || boxes[i * 4 + 1]! > maxLat)
        ) continue;
        total++;
        if (full) continue;
        const next = used + features[i]!.length + (picked.length > 0 ? 1 : 0);
        if (picked.length >= limits.maxFeatures || next > budget) {
          full = true;
          continue;
        }
        picked.push(features[i]!);
        used = next;
      }
      const tail = encoder.encode(collectionTail(picked.length, total, limits));
      const bytes = new Uint8Array(HEAD.length + used + tail.length);
      bytes.set(HEAD, 0);
      let at = HEAD.length;
      picked.forEach((feature, k) => {
        if (k > 0) bytes[at++] = COMMA;
        bytes.set(feature, at);
        at += feature.length;
      });
      bytes.set(tail, at);
      return {
        bytes,
        count: picked.length,
        total,
        truncated: total > picked.length,
        get text() {
          return new TextDecoder().decode(bytes);
        },
      };
    },
  };
}
