/**
 * `POST /runs` (accept a run, 202 with its id at once) and `GET /runs/{id}` (its status,
 * progress, counts and the options used), relative to `/api/v1`.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { DEFAULT_EXTRACTION_OPTIONS } from "../../lib/extraction/building_record.ts";
import {
  type ExtractionRuns,
  RunsClosedError,
  RunsQueueFullError,
} from "../../lib/extraction/extraction_runs.ts";
import type { RunRecord, RunStore } from "../../lib/extraction/run_store.ts";
import { readJsonObject } from "../middleware/json_object_body.ts";
import { httpError, validationHook } from "../middleware/errors.ts";
import {
  errorOf,
  jsonOf,
  MAX_RUN_BOX_DEG,
  runAcceptedSchema,
  runRequestSchema,
  runViewSchema,
} from "./schemas.ts";

/** Largest accepted request body, bytes (1 MiB). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** `Retry-After` of a 503 for a full queue, seconds (a run takes seconds). */
export const QUEUE_FULL_RETRY_SECONDS = 10;

/** What the run routes use. */
export interface RunRouteDeps {
  runs: RunStore;
  manager: ExtractionRuns;
}

/** A run as the API shows it: `error` and `reason` only where they apply. */
export function runView(run: RunRecord): z.infer<typeof runViewSchema> {
  const { error, reason, ...rest } = run;
  return {
    ...rest,
    ...(error !== null ? { error } : {}),
    ...(reason !== null ? { reason } : {}),
  };
}

// Registered for the document only: the handler reads the body itself, within 1 MiB (413).
const postRun = {
  method: "post" as const,
  path: "/runs",
  tags: ["Runs"],
  summary: "Start an extraction over a box",
  description: "Accepts the run and answers its id at once; runs run one at a time in the " +
    `background. The box is lon/lat with min < max, at most ${MAX_RUN_BOX_DEG} x ` +
    `${MAX_RUN_BOX_DEG} degrees. A building belongs to the box when the centre of its ` +
    "footprint's bounding box lies in it. A country without a TABULA typology (LI, the " +
    "shipped region, among them) still gets its buildings and surfaces; without " +
    "`heat_country` each building has `tabula: null` and a `tabula_absent_reason` naming " +
    "the setting. At most EXTRACTION_MAX_QUEUED runs wait (503 beyond); a run reads at most " +
    "EXTRACTION_MAX_FOOTPRINTS footprints (it fails beyond); the oldest finished runs beyond " +
    "EXTRACTION_RUNS_KEPT runs or EXTRACTION_BUILDINGS_KEPT buildings are deleted.",
  request: {
    body: { content: { "application/json": { schema: runRequestSchema } }, required: true },
  },
  responses: {
    202: jsonOf("Accepted", runAcceptedSchema),
    400: errorOf(
      "Malformed JSON, or a member at fault (named): country not two letters, a coordinate " +
        `not a finite number or out of range, min not below max, a box over ${MAX_RUN_BOX_DEG}` +
        " x " + `${MAX_RUN_BOX_DEG} degrees, an unknown or invalid option, a heat_country ` +
        "without a TABULA typology (the countries that have one are listed)",
    ),
    413: errorOf("Body over 1 MiB"),
    503: errorOf(
      "The service is stopping, or EXTRACTION_MAX_QUEUED runs are waiting already " +
        `(\`Retry-After\`: ${QUEUE_FULL_RETRY_SECONDS} s)`,
    ),
  },
};

const getRun = createRoute({
  method: "get",
  path: "/runs/{id}",
  tags: ["Runs"],
  summary: "A run's status, progress, counts and options",
  request: { params: z.object({ id: z.string().describe("The run_id") }) },
  responses: {
    200: jsonOf("The run", runViewSchema),
    404: errorOf(
      "No run has this id (the oldest finished runs beyond EXTRACTION_RUNS_KEPT runs or " +
        "EXTRACTION_BUILDINGS_KEPT buildings are deleted)",
    ),
  },
});

/** Mounts the run routes on `api`. */
export function runRoutes(api: OpenAPIHono, deps: RunRouteDeps): void {
  api.openAPIRegistry.registerPath(postRun);
  api.post(postRun.path, async (c) => {
    const { value } = await readJsonObject(c, MAX_BODY_BYTES);
    const parsed = runRequestSchema.safeParse(value);
    if (!parsed.success) {
      const failure = { target: "json", success: false as const, error: parsed.error, data: value };
      validationHook(runRequestSchema, { details: true })(failure);
      throw httpError(400, "Invalid request body");
    }
    const body = parsed.data;
    if (body.heat_country !== undefined) {
      const available = await deps.manager.typologyCountries();
      if (!available.includes(body.heat_country)) {
        const message = `${body.heat_country} has no TABULA typology; one of ` +
          available.join(", ");
        throw httpError(400, `Invalid request body: heat_country: ${message}`, [
          { path: "heat_country", message },
        ]);
      }
    }
    try {
      const runId = await deps.manager.submit({
        country: body.country,
        ...(body.heat_country !== undefined ? { heat_country: body.heat_country } : {}),
        bbox: [body.xmin, body.ymin, body.xmax, body.ymax],
        options: body.options ?? DEFAULT_EXTRACTION_OPTIONS,
      });
      return c.json({ run_id: runId }, 202);
    } catch (error) {
      if (error instanceof RunsClosedError) throw httpError(503, error.message);
      if (error instanceof RunsQueueFullError) {
        c.header("Retry-After", String(QUEUE_FULL_RETRY_SECONDS));
        throw httpError(503, error.message);
      }
      throw error;
    }
  });

  api.openapi(getRun, async (c) => {
    const run = await deps.runs.getRun(c.req.valid("param").id);
    if (!run) {
      const { keep } = deps.manager.limits;
      throw httpError(
        404,
        `No run ${c.req.valid("param").id} (the service keeps the newest ${keep.runs} ` +
          `finished runs, within ${keep.buildings} buildings)`,
      );
    }
    return c.json(runView(run), 200);
  });
}
