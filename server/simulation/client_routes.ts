/**
 * The routes the existing client calls under its prefix (`/api/hydrogen/...` or
 * `/api/ccs/...`): submit, status, result, cancel and a WebSocket per job, over the same jobs
 * as the documented routes.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { detail, streamed } from "./answers.ts";
import { idOf, type JobHandlers } from "./job_handlers.ts";
import type { JobSockets } from "./job_sockets.ts";

/** The client's routes of one model, below `prefix`. */
export interface ClientRoutes {
  /** e.g. `/api/hydrogen`. */
  prefix: string;
  /** Submit paths below the prefix, e.g. `["/submit", "/simulate"]`. */
  submit: readonly string[];
  /**
   * Whether `{prefix}/status/{id}` carries the result once done: the carbon-capture client reads
   * it there; the hydrogen client ignores it there ("/status always returns result:null") and
   * reads `{prefix}/result/{id}`, so its status stays small. `/jobs/{id}` always carries it.
   */
  statusResult: boolean;
}

/** The routes the existing client calls, by model name (`/api/<name>/simulate` otherwise). */
export function clientRoutesFor(name: string): ClientRoutes {
  if (name === "hydrogen") {
    return { prefix: "/api/hydrogen", submit: ["/simulate"], statusResult: false };
  }
  if (name === "ccs") {
    return { prefix: "/api/ccs", submit: ["/submit", "/simulate"], statusResult: true };
  }
  return { prefix: `/api/${name}`, submit: ["/simulate"], statusResult: true };
}

/** The three places the client probes health. */
export function healthPaths(prefix: string): string[] {
  return ["/health", "/api/health", `${prefix}/health`];
}

/** Mounts the client's routes of `routes` on `app`. */
export function mountClientRoutes(
  app: OpenAPIHono,
  routes: ClientRoutes,
  handlers: JobHandlers,
  sockets: JobSockets,
): void {
  const { prefix } = routes;
  /** `{job_id, status, result}` of a done job, streamed; 409 before. */
  const result = (c: Context) => {
    const id = idOf(c);
    const view = handlers.find(c, id);
    if (view instanceof Response) return view;
    if (view.status !== "done") {
      return detail(
        c,
        409,
        view.error
          ? `Job ${id} is ${view.status}: ${view.error}`
          : `Job ${id} is ${view.status}; no result yet`,
      );
    }
    return streamed(c, { job_id: id, status: view.status, result: view.result });
  };
  for (const path of routes.submit) app.post(`${prefix}${path}`, handlers.submit);
  app.get(`${prefix}/status/:id`, handlers.status(routes.statusResult));
  app.get(`${prefix}/result/:id`, result);
  app.delete(`${prefix}/jobs/:id`, handlers.cancel);
  app.get(`${prefix}/ws/:id`, (c) => sockets.open(c, c.req.param("id")));
}
