/**
 * The OpenAPI document of a simulation service: every route, documented and the client's,
 * registered with its answers (the routes are handled without a validator: the model checks
 * the payload).
 */
import { type OpenAPIHono, type RouteConfig, z } from "@hono/zod-openapi";
import type { SimulationModel } from "../../lib/simulation/simulation_model.ts";
import { type ClientRoutes, healthPaths } from "./client_routes.ts";
import { ackSchema, errorSchema, healthSchema, idParam, jobViewSchema, json } from "./schemas.ts";

/** Registers every route of the service in `app`'s OpenAPI document. */
export function documentRoutes(
  app: OpenAPIHono,
  model: SimulationModel<unknown>,
  routes: ClientRoutes,
): void {
  const { prefix } = routes;
  const errors = {
    404: json(errorSchema, "Unknown or expired job"),
    410: json(
      errorSchema,
      "Done, but its result was dropped to bound the memory results hold (SIM_MAX_RESULTS_MB)",
    ),
  };
  const body = {
    content: {
      "application/json": {
        schema: z.record(z.string(), z.unknown()).describe(
          `The ${model.name} payload (schema version 2.0, both spellings the client uses)`,
        ),
      },
    },
    required: true,
  };
  const submitResponses = {
    202: json(ackSchema, "Queued"),
    400: json(errorSchema, "Malformed JSON, or nested deeper than 64 levels"),
    413: json(errorSchema, "Body over SIM_MAX_BODY_MB (32 MiB)"),
    422: json(
      errorSchema,
      "Invalid payload (`detail` lists the wrong fields as {loc, msg}, at most 20), or over a " +
        "limit, named in `detail` with the payload's figure: 1,000,000 steps, 527,041 profile " +
        "points, SIM_MAX_RESULT_VALUES values (steps × series), SIM_MAX_RESULTS_MB",
    ),
    503: json(errorSchema, "SIM_MAX_QUEUED jobs wait already (with Retry-After), or stopping"),
  };
  const registry = app.openAPIRegistry;
  /** A route of one job (`{id}`), tagged as documented below `/jobs` or else the client's. */
  const jobRoute = (
    method: "get" | "delete",
    path: string,
    summary: string,
    responses: RouteConfig["responses"],
    tag = path.startsWith("/jobs") ? "Jobs" : "Client routes",
  ) =>
    registry.registerPath({
      method,
      path,
      tags: [tag],
      summary,
      request: { params: idParam },
      responses,
    });
  for (const path of ["/simulate", ...routes.submit.map((p) => `${prefix}${p}`)]) {
    registry.registerPath({
      method: "post",
      path,
      tags: [path === "/simulate" ? "Jobs" : "Client routes"],
      summary: `Submit a ${model.name} simulation`,
      request: { body },
      responses: submitResponses,
    });
  }
  for (const path of ["/jobs/{id}", `${prefix}/status/{id}`]) {
    jobRoute("get", path, "Status of a job (with its result once done, streamed)", {
      200: json(jobViewSchema, "The job"),
      ...errors,
    });
  }
  jobRoute("get", `${prefix}/result/{id}`, "Result of a finished job: {job_id, status, result}", {
    200: json(jobViewSchema, "The result"),
    409: json(errorSchema, "Not done (yet)"),
    ...errors,
  }, "Client routes");
  for (const path of ["/jobs/{id}", `${prefix}/jobs/{id}`]) {
    jobRoute("delete", path, "Cancel a queued or running job (stops within 100 ms)", {
      200: json(jobViewSchema, "The job, cancelled unless it had finished"),
      ...errors,
    });
  }
  for (const path of ["/", `${prefix}/ws/{id}`]) {
    registry.registerPath({
      method: "get",
      path,
      tags: ["Telemetry"],
      summary: "WebSocket: progress frames about every 1 % (at most 20/s), then the result",
      description: (path === "/"
        ? "Open with `?job_id=` or send `{job_id}`. Without an Upgrade header: service index. "
        : "Follows the job in the path. A late client gets the latest frame and the result. ") +
        "A result over SIM_WS_MAX_BUFFER_MB less 64 KiB comes as `{type: result_ready, result_url}` " +
        "instead (read it over HTTP, streamed); a client with more than SIM_WS_MAX_BUFFER_MB " +
        "unsent is closed with 1008.",
      ...(path === "/" ? {} : { request: { params: idParam } }),
      responses: { 101: { description: "Switching protocols" }, ...errors },
    });
  }
  for (const path of healthPaths(prefix)) {
    registry.registerPath({
      method: "get",
      path,
      tags: ["Service"],
      summary: "Health",
      responses: { 200: json(healthSchema, "The service runs") },
    });
  }
}
