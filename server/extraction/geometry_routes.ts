/**
 * `GET /geometry`: the footprints of buildings as a GeoJSON FeatureCollection, by OSM ids or by
 * box, read from the OSM store's `buildings` table (the footprints the runs extracted from).
 */
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { OSM_ATTRIBUTION } from "../../lib/osm/layer_query.ts";
import type { Store } from "../../lib/store/store.ts";
import { httpError } from "../middleware/errors.ts";
import {
  errorOf,
  footprintCollectionSchema,
  geometryQuerySchema,
  MAX_GEOMETRY_FEATURES,
} from "./schemas.ts";

const OSM_ID = /^(node|way|relation)\/\d+$/;

interface FootprintRow {
  osm_id: string;
  building: string | null;
  geometry: string;
}

async function hasBuildings(store: Store): Promise<boolean> {
  const rows = await store.all(
    `SELECT 1 FROM information_schema.tables WHERE table_name = 'buildings'`,
  );
  return rows.length > 0;
}

/** The SQL condition of a footprint whose bounding-box centre is in the box (as extractBox). */
const CENTRE_IN_BOX = `(min_lon + max_lon) / 2 >= ? AND (min_lon + max_lon) / 2 < ?
  AND (min_lat + max_lat) / 2 >= ? AND (min_lat + max_lat) / 2 < ?`;

/** The FeatureCollection's text; geometries are written as stored (already GeoJSON). */
function collection(rows: readonly FootprintRow[]): string {
  const features = rows.map((r) =>
    `{"type":"Feature","id":${JSON.stringify(r.osm_id)},"properties":{"id":${
      JSON.stringify(r.osm_id)
    },"building":${JSON.stringify(r.building)}},"geometry":${r.geometry}}`
  );
  return `{"type":"FeatureCollection","attribution":${JSON.stringify(OSM_ATTRIBUTION)},` +
    `"features":[${features.join(",")}]}`;
}

const geometryRoute = createRoute({
  method: "get",
  path: "/geometry",
  tags: ["Data"],
  summary: "Footprints as GeoJSON, by ids or by box",
  description: `Either \`ids\` (comma-separated, at most ${MAX_GEOMETRY_FEATURES}) or the box ` +
    "`xmin, ymin, xmax, ymax` (footprints whose bounding-box centre lies in it, the rule of " +
    `the runs; at most ${MAX_GEOMETRY_FEATURES} features, 400 above). Properties: id, ` +
    "building (the building=* value). Ids not in the OSM store are left out.",
  request: { query: geometryQuerySchema },
  responses: {
    200: {
      description: "The footprints",
      content: { "application/geo+json": { schema: footprintCollectionSchema } },
    },
    400: errorOf(
      `A parameter missing or at fault (named), or over ${MAX_GEOMETRY_FEATURES} features`,
    ),
  },
});

/** Mounts the geometry route on `api`. */
export function geometryRoutes(api: OpenAPIHono, deps: { osmStore: Store }): void {
  api.openapi(geometryRoute, async (c) => {
    const query = c.req.valid("query");
    // The text is built here (stored geometries are GeoJSON already), so the typed c.json is
    // not used.
    const json = (rows: FootprintRow[]) =>
      c.body(collection(rows), 200, {
        "Content-Type": "application/geo+json; charset=utf-8",
      }) as never;
    if (query.ids !== undefined) {
      const ids = [...new Set(query.ids.split(",").map((s) => s.trim()).filter((s) => s))];
      const bad = ids.find((id) => !OSM_ID.test(id));
      if (bad !== undefined) {
        throw httpError(400, `Invalid query: ids: "${bad}" is not an OSM id like way/123`);
      }
      if (ids.length > MAX_GEOMETRY_FEATURES) {
        throw httpError(
          400,
          `Invalid query: ids: ${ids.length} ids; at most ${MAX_GEOMETRY_FEATURES} features`,
        );
      }
      if (ids.length === 0 || !(await hasBuildings(deps.osmStore))) return json([]);
      const rows = await deps.osmStore.all<FootprintRow>(
        `SELECT osm_id, building, geometry FROM buildings
         WHERE osm_id IN (${ids.map(() => "?").join(", ")}) ORDER BY osm_id`,
        ids,
      );
      return json(rows);
    }
    const { xmin, ymin, xmax, ymax } = query;
    if (xmin === undefined || ymin === undefined || xmax === undefined || ymax === undefined) {
      const missing = (["xmin", "ymin", "xmax", "ymax"] as const).filter((k) =>
        query[k] === undefined
      );
      throw httpError(
        400,
        `Invalid query: ${missing.join(", ")}: required (give \`ids\`, or the box xmin, ymin, ` +
          "xmax, ymax)",
      );
    }
    if (!(await hasBuildings(deps.osmStore))) return json([]);
    const box = [xmin, xmax, ymin, ymax];
    const [count] = await deps.osmStore.all<{ n: number }>(
      `SELECT count(*) AS n FROM buildings WHERE ${CENTRE_IN_BOX}`,
      box,
    );
    const n = count?.n ?? 0;
    if (n > MAX_GEOMETRY_FEATURES) {
      throw httpError(
        400,
        `Invalid query: the box has ${n} footprints; at most ${MAX_GEOMETRY_FEATURES} features:` +
          " ask for a smaller box",
      );
    }
    const rows = await deps.osmStore.all<FootprintRow>(
      `SELECT osm_id, building, geometry FROM buildings WHERE ${CENTRE_IN_BOX} ORDER BY osm_id`,
      box,
    );
    return json(rows);
  });
}
