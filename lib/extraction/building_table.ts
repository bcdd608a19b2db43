/**
 * Extracted buildings as flat tables for analysts (`deno task extract` writes them to Parquet or
 * CSV): one row per building with its surface totals, exposed wall area by compass quarter,
 * reference area and TABULA link, and one row per surface.
 */
import type { SqlValue } from "../store/store.ts";
import type { TableColumn } from "../store/table_file.ts";
import type { BuildingRecord, ExtractedSurface } from "./building_record.ts";
import { buildingReferenceArea } from "./tabula_link.ts";

/** A column of an output table: name and DuckDB type. */
export type Column = TableColumn;

/** The building table's columns, in order. */
export const BUILDING_COLUMNS: readonly Column[] = [
  ["id", "VARCHAR"],
  ["country", "VARCHAR"],
  ["building_type", "VARCHAR"],
  ["footprint_area", "DOUBLE"],
  ["height", "DOUBLE"],
  ["height_source", "VARCHAR"],
  ["storeys", "INTEGER"],
  ["roof_levels", "DOUBLE"],
  ["roof_shape", "VARCHAR"],
  ["attached_neighbours", "INTEGER"],
  ["year", "INTEGER"],
  ["centroid_lon", "DOUBLE"],
  ["centroid_lat", "DOUBLE"],
  ["flag_small", "BOOLEAN"],
  ["flag_unheated_type", "BOOLEAN"],
  ["flag_overlaps", "BOOLEAN"],
  ["wall_area", "DOUBLE"],
  ["exposed_wall_area", "DOUBLE"],
  ["party_wall_area", "DOUBLE"],
  ["window_area", "DOUBLE"],
  ["roof_area", "DOUBLE"],
  ["floor_area", "DOUBLE"],
  ["exposed_wall_n", "DOUBLE"],
  ["exposed_wall_e", "DOUBLE"],
  ["exposed_wall_s", "DOUBLE"],
  ["exposed_wall_w", "DOUBLE"],
  ["reference_area", "DOUBLE"],
  ["tabula_variant", "VARCHAR"],
  ["tabula_country", "VARCHAR"],
  ["tabula_building_type", "VARCHAR"],
  ["tabula_period", "VARCHAR"],
  ["q_h_nd", "DOUBLE"],
  ["q_h_nd_archetype", "DOUBLE"],
  ["match_reason", "VARCHAR"],
  ["tabula_absent_reason", "VARCHAR"],
];

/** The surface table's columns, in order. */
export const SURFACE_COLUMNS: readonly Column[] = [
  ["building_id", "VARCHAR"],
  ["surface_id", "VARCHAR"],
  ["type", "VARCHAR"],
  ["area", "DOUBLE"],
  ["azimuth", "DOUBLE"],
  ["tilt", "DOUBLE"],
  ["adiabatic", "BOOLEAN"],
  ["parent", "VARCHAR"],
];

/** Compass quarter of an azimuth (degrees clockwise from north): N 315-45, E 45-135, ... */
export function compassQuarter(azimuth: number): "N" | "E" | "S" | "W" {
  return (["N", "E", "S", "W"] as const)[Math.round((((azimuth % 360) + 360) % 360) / 90) % 4]!;
}

/** Areas of one building by kind of surface, m2 (walls gross: windows are inside them). */
export interface SurfaceTotals {
  wall: number;
  exposedWall: number;
  partyWall: number;
  window: number;
  roof: number;
  floor: number;
  /** Exposed (non-adiabatic) gross wall area by compass quarter. */
  exposedByQuarter: Record<"N" | "E" | "S" | "W", number>;
}

/** Sums a building's surfaces by kind and exposed walls by compass quarter. */
export function surfaceTotals(surfaces: readonly ExtractedSurface[]): SurfaceTotals {
  const t: SurfaceTotals = {
    wall: 0,
    exposedWall: 0,
    partyWall: 0,
    window: 0,
    roof: 0,
    floor: 0,
    exposedByQuarter: { N: 0, E: 0, S: 0, W: 0 },
  };
  for (const s of surfaces) {
    if (s.type === "wall") {
      t.wall += s.area;
      if (s.adiabatic) t.partyWall += s.area;
      else {
        t.exposedWall += s.area;
        if (s.azimuth !== null) t.exposedByQuarter[compassQuarter(s.azimuth)] += s.area;
      }
    } else if (s.type === "window") t.window += s.area;
    else if (s.type === "roof") t.roof += s.area;
    else t.floor += s.area;
  }
  return t;
}

/** One building as a row of BUILDING_COLUMNS. */
export function buildingRow(b: BuildingRecord): SqlValue[] {
  const t = surfaceTotals(b.surfaces);
  return [
    b.id,
    b.country,
    b.building_type,
    b.footprint_area,
    b.height,
    b.height_source,
    b.storeys,
    b.roof_levels,
    b.roof_shape,
    b.attached_neighbours,
    b.year,
    b.centroid[0],
    b.centroid[1],
    b.flags.small,
    b.flags.unheated_type,
    b.flags.overlaps,
    t.wall,
    t.exposedWall,
    t.partyWall,
    t.window,
    t.roof,
    t.floor,
    t.exposedByQuarter.N,
    t.exposedByQuarter.E,
    t.exposedByQuarter.S,
    t.exposedByQuarter.W,
    buildingReferenceArea(b.footprint_area, b.storeys, b.roof_levels),
    b.tabula?.variant ?? null,
    b.tabula?.country ?? null,
    b.tabula?.building_type ?? null,
    b.tabula?.period ?? null,
    b.tabula?.q_h_nd ?? null,
    b.tabula?.q_h_nd_archetype ?? null,
    b.tabula?.match_reason ?? null,
    b.tabula === null ? b.tabula_absent_reason ?? null : null,
  ];
}

/** A building's surfaces as rows of SURFACE_COLUMNS. */
export function surfaceRows(b: BuildingRecord): SqlValue[][] {
  return b.surfaces.map((s) => [
    b.id,
    s.id,
    s.type,
    s.area,
    s.azimuth,
    s.tilt,
    s.adiabatic ?? false,
    s.parent ?? null,
  ]);
}
