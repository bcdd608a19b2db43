/**
 * The parsed properties of each map layer's features, by one rule for the import (stored as
 * the layer table's property columns) and the Overpass fallback (sent as feature properties):
 * power value, voltages in kV, plant source and output in MW, circuits, cables, admin level,
 * area. The keys are the layer's LAYER_PROPERTY_COLUMNS, in their order.
 */
import type { SqlValue } from "../store/store.ts";
import type { OsmTags } from "./osm_element.ts";
import { LAYER_PROPERTY_COLUMNS, type LayerName } from "./osm_store.ts";
import { parseCount, parseOutputMw, parseVoltageKv } from "./osm_tag_values.ts";

/** `admin_level` of each administrative layer. */
export const ADMIN_LEVELS = { communes: 8, districts: 6 } as const;

/** The parsed properties of a feature of `layer` with `tags` (area where it is an area). */
export function layerProperties(
  layer: LayerName,
  tags: OsmTags,
  areaM2: number | null,
): Record<string, number | string | number[] | null> {
  switch (layer) {
    case "substations":
      return {
        power: tags.power ?? null,
        voltage_kv: parseVoltageKv(tags.voltage),
        area_m2: areaM2,
      };
    case "power_plants":
      return {
        power: tags.power ?? null,
        source: tags["plant:source"] ?? tags["generator:source"] ?? null,
        output_mw: parseOutputMw(
          tags["plant:output:electricity"] ?? tags["generator:output:electricity"],
        ) ?? null,
        area_m2: areaM2,
      };
    case "power_lines":
      return {
        power: tags.power ?? null,
        voltage_kv: parseVoltageKv(tags.voltage),
        circuits: parseCount(tags.circuits) ?? null,
        cables: parseCount(tags.cables) ?? null,
      };
    case "communes":
    case "districts":
      return { admin_level: ADMIN_LEVELS[layer], area_m2: areaM2 };
  }
}

/**
 * The same properties as the layer table's property column values, in column order; lists
 * (voltage_kv) as JSON text, since the store's appender writes scalars only.
 */
export function layerPropertyRow(
  layer: LayerName,
  tags: OsmTags,
  areaM2: number | null,
): SqlValue[] {
  const props = layerProperties(layer, tags, areaM2);
  return Object.keys(LAYER_PROPERTY_COLUMNS[layer]).map((column) => {
    const value = props[column] ?? null;
    return Array.isArray(value) ? JSON.stringify(value) : value;
  });
}
