/**
 * The extraction service's request and answer schemas (zod, with their OpenAPI descriptions):
 * the run request, the run view, the box query shared by coverage, buildings and geometry, and
 * the answers. The building record itself is `lib/extraction/building_record.ts`.
 */
import { z } from "@hono/zod-openapi";
import {
  buildingRecordSchema,
  extractionOptionsSchema,
} from "../../lib/extraction/building_record.ts";
import { RUN_STATUSES } from "../../lib/extraction/run_store.ts";
import { detailedErrorSchema } from "../middleware/errors.ts";

/** Largest side of a run's box, degrees (both ways). */
export const MAX_RUN_BOX_DEG = 0.2;

/** Default and largest page of `GET /buildings`. */
export const BUILDINGS_PAGE = { default: 500, max: 5000 } as const;

/** Most features `GET /geometry` answers. */
export const MAX_GEOMETRY_FEATURES = 5000;

/** An error answer in the one format. */
export function errorOf(description: string) {
  return { description, content: { "application/json": { schema: detailedErrorSchema } } };
}

/** A JSON answer. */
export function jsonOf(description: string, schema: z.ZodType) {
  return { description, content: { "application/json": { schema } } };
}

const countrySchema = z.string().regex(/^[A-Za-z]{2}$/, "must be two letters (ISO 3166-1 alpha-2)")
  .transform((s) => s.toUpperCase());

const lon = (what: string) =>
  z.number().gte(-180).lte(180).describe(`${what} longitude, degrees (WGS 84), -180 to 180`);
const lat = (what: string) =>
  z.number().gte(-90).lte(90).describe(`${what} latitude, degrees (WGS 84), -90 to 90`);

/** A query number: text that must read as a finite number (blank is missing). */
const queryNumber = (inner: z.ZodNumber) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : undefined), inner);

interface BoxLike {
  xmin?: number | undefined;
  ymin?: number | undefined;
  xmax?: number | undefined;
  ymax?: number | undefined;
}

/** Adds the issues of a box whose min is not below its max, naming the max member. */
function checkOrder(box: BoxLike, ctx: z.RefinementCtx): void {
  const { xmin, ymin, xmax, ymax } = box;
  if (xmin !== undefined && xmax !== undefined && !(xmin < xmax)) {
    ctx.addIssue({ code: "custom", path: ["xmax"], message: "must be greater than xmin" });
  }
  if (ymin !== undefined && ymax !== undefined && !(ymin < ymax)) {
    ctx.addIssue({ code: "custom", path: ["ymax"], message: "must be greater than ymin" });
  }
}

/** `POST /runs` body. */
export const runRequestSchema = z.strictObject({
  country: countrySchema.describe(
    "ISO 3166-1 alpha-2 of the buildings (upper or lower case; stored upper case)",
  ),
  xmin: lon("West"),
  ymin: lat("South"),
  xmax: lon("East"),
  ymax: lat("North"),
  heat_country: countrySchema.optional().describe(
    "ISO 3166-1 alpha-2 of the TABULA typology to use when `country` has none (e.g. AT for " +
      "LI, the shipped region); it must have one (400 otherwise, listing those that do). " +
      "Absent, and `country` without a typology: the run still completes with every " +
      "building and its surfaces, each with `tabula: null` and a `tabula_absent_reason`; no " +
      "typology is substituted",
  ),
  options: extractionOptionsSchema.optional().describe(
    "Extraction options; absent members take their defaults. Unknown members: 400",
  ),
}).superRefine((box, ctx) => {
  checkOrder(box, ctx);
  const { xmin, ymin, xmax, ymax } = box;
  if (xmax - xmin > MAX_RUN_BOX_DEG + 1e-12) {
    ctx.addIssue({
      code: "custom",
      path: ["xmax"],
      message: `the box is ${+(xmax - xmin).toFixed(6)} degrees wide; at most ` +
        `${MAX_RUN_BOX_DEG} x ${MAX_RUN_BOX_DEG} degrees`,
    });
  }
  if (ymax - ymin > MAX_RUN_BOX_DEG + 1e-12) {
    ctx.addIssue({
      code: "custom",
      path: ["ymax"],
      message: `the box is ${+(ymax - ymin).toFixed(6)} degrees high; at most ` +
        `${MAX_RUN_BOX_DEG} x ${MAX_RUN_BOX_DEG} degrees`,
    });
  }
}).openapi("RunRequest");

/** The box members of a query, as text. */
const boxQueryShape = {
  country: countrySchema.describe("ISO 3166-1 alpha-2 of the runs"),
  xmin: queryNumber(lon("West")),
  ymin: queryNumber(lat("South")),
  xmax: queryNumber(lon("East")),
  ymax: queryNumber(lat("North")),
};

/** `GET /coverage` query. */
export const boxQuerySchema = z.object(boxQueryShape).superRefine(checkOrder);

/** `GET /buildings` query: a box or one id, and paging. */
export const buildingsQuerySchema = z.object({
  id: z.string().min(1).optional().describe(
    'One OSM record, e.g. "way/25208578": its latest completed record (404 when no run has it)',
  ),
  country: countrySchema.optional().describe("With the box: ISO 3166-1 alpha-2 of the runs"),
  xmin: queryNumber(lon("West")).optional(),
  ymin: queryNumber(lat("South")).optional(),
  xmax: queryNumber(lon("East")).optional(),
  ymax: queryNumber(lat("North")).optional(),
  limit: queryNumber(z.number().int().gte(1).lte(BUILDINGS_PAGE.max)).optional().describe(
    `Buildings per page, 1 to ${BUILDINGS_PAGE.max} (default ${BUILDINGS_PAGE.default})`,
  ),
  cursor: z.string().optional().describe(
    "Opaque: the `next_cursor` of the previous page; absent: the first page",
  ),
}).superRefine(checkOrder);

/** `GET /geometry` query: ids or a box. */
export const geometryQuerySchema = z.object({
  ids: z.string().min(1).optional().describe(
    `Comma-separated OSM ids ("way/1,relation/2"), at most ${MAX_GEOMETRY_FEATURES}`,
  ),
  country: countrySchema.optional().describe(
    "With the box: ISO 3166-1 alpha-2 (accepted for symmetry with /buildings; footprints " +
      "come from the OSM store whatever the country)",
  ),
  xmin: queryNumber(lon("West")).optional(),
  ymin: queryNumber(lat("South")).optional(),
  xmax: queryNumber(lon("East")).optional(),
  ymax: queryNumber(lat("North")).optional(),
}).superRefine(checkOrder);

/** `POST /runs` answer. */
export const runAcceptedSchema = z.object({
  run_id: z.string().describe("Follow it with GET /api/v1/runs/{run_id}"),
}).openapi("RunAccepted");

/** A run. */
export const runViewSchema = z.object({
  run_id: z.string(),
  status: z.enum(RUN_STATUSES).describe(
    "In progress: queued, running. Final: completed (at least one building; one without a " +
      "heat link has `tabula: null` and `tabula_absent_reason`), no_data (valid box without " +
      "building in the imported data, or no imported region covers it; see `reason`), failed " +
      "(see `error`: e.g. more footprints than EXTRACTION_MAX_FOOTPRINTS; a run left " +
      'unfinished by a stopped process fails with "interrupted by restart")',
  ),
  progress_pct: z.number().describe("0 to 100"),
  country: z.string().describe("ISO 3166-1 alpha-2, upper case"),
  heat_country: z.string().nullable().describe("The typology asked for when country has none"),
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).describe(
    "[xmin, ymin, xmax, ymax], degrees",
  ),
  counts: z.object({
    buildings: z.number().int().describe("Buildings written by the run"),
    surfaces: z.number().int().describe("Their surfaces (walls, roof planes, floors, windows)"),
  }),
  options: extractionOptionsSchema.describe("The options used, defaults filled in"),
  created_at: z.string().describe("When it was accepted, ISO 8601"),
  started_at: z.string().nullable().describe("When it began running; null while queued"),
  finished_at: z.string().nullable().describe("When it ended; null while in progress"),
  error: z.string().optional().describe("Why it failed (status failed only)"),
  reason: z.string().optional().describe("Why there is no data (status no_data only)"),
}).openapi("ExtractionRun");

/** `GET /coverage` answer. */
export const coverageSchema = z.object({
  covered: z.boolean().describe("The union of the runs' boxes covers the whole query box"),
  fraction: z.number().describe(
    "Exact share of the query box's area (in degrees) that the union of the runs' boxes covers",
  ),
  runs: z.array(runViewSchema).describe("Completed runs of the country whose box intersects"),
}).openapi("Coverage");

/** `GET /buildings` answer. */
export const buildingPageSchema = z.object({
  buildings: z.array(buildingRecordSchema),
  total: z.number().int().describe("Buildings over every page"),
  next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null: last"),
}).openapi("BuildingPage");

/** `GET /geometry` answer. */
export const footprintCollectionSchema = z.object({
  type: z.literal("FeatureCollection"),
  attribution: z.string().describe("The ODbL attribution OSM-derived data must carry"),
  features: z.array(z.object({
    type: z.literal("Feature"),
    id: z.string(),
    properties: z.object({ id: z.string(), building: z.string().nullable() }),
    geometry: z.object({
      type: z.literal("MultiPolygon"),
      coordinates: z.array(z.array(z.array(z.tuple([z.number(), z.number()])))),
    }).describe("The footprint in lon/lat (WGS 84)"),
  })),
}).openapi("FootprintCollection");

/** `GET /health` answer. */
export const healthSchema = z.object({
  status: z.literal("ok"),
  version: z.string(),
  runs: z.object({ queued: z.number().int(), running: z.number().int() }),
}).openapi("ExtractionHealth");
