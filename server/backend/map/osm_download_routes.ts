/**
 * Region downloads: `POST /api/osm/download` starts downloading and importing a Geofabrik
 * region in the background (or attaches to the one already on its way) and answers its
 * progress as server-sent events, the stream the existing frontend reads with `fetch`;
 * `GET /api/osm/download/{id}` is its state and `GET /api/osm/download/{id}/stream` re-attaches
 * (everything so far first, then live). Paths are absolute: the backend mounts the app with
 * `app.route("/", osmDownloadRoutes(context, options))`.
 */
import { dataFrame, replayedEventStream } from "../../middleware/replay_stream.ts";
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import {
  createRegionDownloads,
  type DownloadFrame,
  DownloadsBusyError,
  type RegionDownload,
  type RegionDownloadOptions,
  type RegionDownloads,
} from "../../../lib/osm/download/region_download.ts";
import { isValidPathComponent, MAX_COMPONENT_LENGTH } from "../../../lib/osm/regions_db.ts";
import { createOpenAPIApp, detailedErrorSchema, httpError } from "../../middleware/errors.ts";
import { announceRegionImported, type OsmContext } from "./osm_context.ts";
import type { GeoSettings } from "./geo_config.ts";

/** Options of the download routes. */
export interface OsmDownloadRouteOptions {
  /** Where extracts are written while they download (each file removed when it ends). */
  downloadDir: string;
  /** A `: keepalive` comment after this long without a frame, ms (default 15 s). */
  keepaliveMs?: number;
  /** The download manager; default one over the context (stopped by its shutdown signal). */
  downloads?: RegionDownloads;
  /** Service log lines. */
  log?: (message: string) => void;
}

/** The download manager's bounds from the settings (OSM_DOWNLOAD_MAX_MB, OSM_DOWNLOADS_MAX, ...). */
export function regionDownloadLimits(
  settings: GeoSettings,
): Pick<
  RegionDownloadOptions,
  "maxBytes" | "maxRunning" | "firstByteTimeoutMs" | "stallTimeoutMs"
> {
  return {
    maxBytes: settings.downloadMaxBytes,
    maxRunning: settings.downloadsMax,
    firstByteTimeoutMs: settings.downloadFirstByteMs,
    stallTimeoutMs: settings.downloadStallMs,
  };
}

/** The idle frame of a download stream. */
export { KEEPALIVE_FRAME } from "../../middleware/replay_stream.ts";

/** The last frame of a stream ended by the service's stop. */
export const SHUTDOWN_FRAME: DownloadFrame = {
  type: "error",
  message: "The service is stopping; the download was abandoned",
};

/** The wire form of one frame, exactly as the frontend slices it: `data: <json>` + blank line. */
export function formatDownloadFrame(frame: DownloadFrame): string {
  return dataFrame(frame);
}

const COMPONENT_RULE = `1 to ${MAX_COMPONENT_LENGTH} letters, digits, hyphens, underscores or ` +
  "spaces";

const component = (what: string) =>
  z.string().refine(isValidPathComponent, { message: `must be ${COMPONENT_RULE}` }).describe(
    what,
  );

const downloadRequestSchema = z.object({
  continent: component('The continent, e.g. "Europe"'),
  country: component('The country, e.g. "Germany"'),
  region: z.string().refine((r) => r === "" || isValidPathComponent(r), {
    message: `must be empty or ${COMPONENT_RULE}`,
  }).optional().describe('A sub-region, e.g. "Bayern"; "" or absent: the whole country'),
}).openapi("OsmDownloadRequest");

const downloadViewSchema = z.object({
  id: z.string().describe("The download's id (a UUID)"),
  region: z.string().describe('Region path, e.g. "Europe/Liechtenstein"'),
  status: z.enum(["queued", "downloading", "importing", "completed", "failed"]),
  bytes: z.number().int().describe("Bytes received so far"),
  total_bytes: z.number().int().nullable().describe(
    "The extract's size (Content-Length); null when the server did not say",
  ),
  error: z.string().optional().describe("Why it failed; only when status is failed"),
  started_at: z.string().describe("ISO 8601 UTC"),
  finished_at: z.string().nullable().describe("ISO 8601 UTC; null while it runs"),
}).openapi("OsmDownload");

const errorOf = (description: string) => ({
  description,
  content: { "application/json": { schema: detailedErrorSchema } },
});

const STREAM_DESCRIPTION = "Server-sent events: each frame one `data: {json}` line and a " +
  "blank line (no `event:` lines), `{type, message}` with `type` log, progress (adds `bytes`, " +
  "`total_bytes`, `percent`), done (adds `region`, `counts` per layer) or error; " +
  "`: keepalive` comments while idle. Everything so far first, then live; the stream ends " +
  "after the done or error frame.";

const streamOf = (description: string) => ({
  description: `${description}. ${STREAM_DESCRIPTION}`,
  headers: {
    "X-Download-Id": { schema: { type: "string" as const }, description: "The download's id" },
  },
  content: { "text/event-stream": { schema: z.string() } },
});

const idParams = z.object({
  id: z.string().min(1).max(100).describe("The download's id, from `X-Download-Id`"),
});

const startRoute = createRoute({
  method: "post",
  path: "/api/osm/download",
  tags: ["OSM"],
  summary: "Download and import a Geofabrik region in the background",
  description: "Fetches the region's `.osm.pbf` (base GEOFABRIK_URL) with byte progress, " +
    "verifies it against the `.md5` the server offers (none offered: said in a log frame), " +
    "imports it into the store (replacing the region's earlier data in one transaction: a " +
    "failed download keeps it) and marks the region loaded. The download goes on when the " +
    "caller goes away; a request for a region already queued or on its way attaches to that " +
    "download (same `X-Download-Id`). Path components are matched without regard to case. " +
    "Bounds: at most OSM_DOWNLOADS_MAX (2) downloads at once (503 beyond; attaching is always " +
    "possible), at most OSM_DOWNLOAD_MAX_MB (8192) MiB per extract, an answer from the server " +
    "within OSM_DOWNLOAD_FIRST_BYTE_S (30 s) and no pause in its body longer than " +
    "OSM_DOWNLOAD_STALL_S (60 s); a download breaking one of them, or whose bytes are not a " +
    "valid PBF file, fails with an error frame naming it.",
  request: {
    body: {
      required: true,
      content: { "application/json": { schema: downloadRequestSchema } },
    },
  },
  responses: {
    200: streamOf("The download's progress"),
    400: errorOf(
      "Body not a JSON object, or a path component missing or breaking the rule (named)",
    ),
    404: errorOf("No such region in the Geofabrik index"),
    415: errorOf("Content-Type is not application/json"),
    503: errorOf(
      "OSM_DOWNLOADS_MAX downloads are running (named in the message), or the " +
        "service is stopping",
    ),
  },
});

const viewRoute = createRoute({
  method: "get",
  path: "/api/osm/download/{id}",
  tags: ["OSM"],
  summary: "A download's state",
  description: "Kept while it runs and for an hour after it ends (at most the last 100).",
  request: { params: idParams },
  responses: {
    200: {
      description: "The download",
      content: { "application/json": { schema: downloadViewSchema } },
    },
    404: errorOf("Unknown download id (or finished over an hour ago)"),
  },
});

const streamRoute = createRoute({
  method: "get",
  path: "/api/osm/download/{id}/stream",
  tags: ["OSM"],
  summary: "Re-attach to a download's progress stream",
  request: { params: idParams },
  responses: {
    200: streamOf("The download's frames, from its first"),
    404: errorOf("Unknown download id (or finished over an hour ago)"),
  },
});

/**
 * The event-stream response of one download: its history, then live frames; ends after the
 * final frame, when the client goes away (the download goes on) or when the service stops.
 */
export function downloadEventStream(
  download: RegionDownload,
  options: { shutdown: AbortSignal; keepaliveMs: number },
): Response {
  return replayedEventStream<DownloadFrame>({
    subscribe: (listener) => download.subscribe(listener),
    isFinal: (frame) => frame.type === "done" || frame.type === "error",
    shutdownFrame: SHUTDOWN_FRAME,
    shutdown: options.shutdown,
    keepaliveMs: options.keepaliveMs,
    headers: { "X-Download-Id": download.id },
  });
}

/** The download routes, at absolute paths. */
export function osmDownloadRoutes(
  context: OsmContext,
  options: OsmDownloadRouteOptions,
): OpenAPIHono {
  const app = createOpenAPIApp({ details: true });
  const downloads = options.downloads ?? createRegionDownloads({
    store: context.store,
    fetch: context.fetch,
    downloadDir: options.downloadDir,
    onImported: (path) => announceRegionImported(context, path),
    signal: context.shutdown,
    ...regionDownloadLimits(context.settings),
    ...(options.log ? { log: options.log } : {}),
  });
  const streamOptions = { shutdown: context.shutdown, keepaliveMs: options.keepaliveMs ?? 15_000 };
  const find = (id: string) => {
    const download = downloads.get(id);
    if (!download) throw httpError(404, `Unknown download: ${id}`);
    return download;
  };

  app.openapi(startRoute, (c) => {
    const { continent, country, region } = c.req.valid("json");
    const path = [continent, country, ...(region ? [region] : [])].map((s) => s.trim()).join("/");
    const found = context.regions.findRegion(path);
    if (!found) throw httpError(404, `Unknown region: ${path}`);
    if (context.shutdown.aborted) throw httpError(503, "The service is stopping");
    let download: RegionDownload;
    try {
      download = downloads.start(found).download;
    } catch (error) {
      if (error instanceof DownloadsBusyError) throw httpError(503, error.message);
      throw error;
    }
    return downloadEventStream(download, streamOptions);
  });

  app.openapi(viewRoute, (c) => c.json(find(c.req.valid("param").id).view(), 200));

  app.openapi(
    streamRoute,
    (c) => downloadEventStream(find(c.req.valid("param").id), streamOptions),
  );

  return app;
}
