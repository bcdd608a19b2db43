/**
 * The HTTP handlers over a service's jobs, shared by the documented routes and the client's:
 * submit (body read within its bounds, payload checked by the model and against the result
 * limits, 503 when the queue is full), status, cancel, and the lookup they share (404 for an
 * unknown or expired job, 410 for a dropped result).
 */
import type { Context } from "hono";
import type { SimulationJobView } from "../../lib/simulation/simulation_job.ts";
import { QueueFullError, type SimulationJobs } from "../../lib/simulation/simulation_jobs.ts";
import type { SimulationModel } from "../../lib/simulation/simulation_model.ts";
import { detail, mib, streamed } from "./answers.ts";
import type { SimulationSettings } from "./config.ts";
import { readJson } from "./read_json.ts";
import { weightProblems } from "./weight_problems.ts";

/** The handlers of one service. */
export interface JobHandlers {
  /** Queues a payload: 202 with `{job_id, status: "queued", message}`. */
  submit(c: Context): Promise<Response>;
  /** A job's view; its result streamed once done when `withResult`, else `result: null`. */
  status(withResult: boolean): (c: Context) => Response;
  /** Cancels a job and answers its view. */
  cancel(c: Context): Response;
  /** The job of `id`, or the answer for it: 404 unknown or expired, 410 result dropped. */
  find(c: Context, id: string): SimulationJobView | Response;
  /** The 404 answer for an unknown or expired job. */
  unknown(c: Context, id: string): Response;
}

/** The job id of a route's `:id`. */
export function idOf(c: Context): string {
  return c.req.param("id") ?? "";
}

/** The handlers over `jobs` of `model`. */
export function jobHandlers<Payload>(
  model: SimulationModel<Payload>,
  settings: Pick<SimulationSettings, "maxBodyBytes" | "maxResultValues" | "maxResultsBytes">,
  jobs: SimulationJobs<Payload>,
): JobHandlers {
  const submit = async (c: Context) => {
    const read = await readJson(c, settings.maxBodyBytes);
    if ("response" in read) return read.response;
    const parsed = model.payloadSchema.safeParse(read.value);
    if (!parsed.success) {
      return detail(
        c,
        422,
        parsed.error.issues.map((issue) => ({
          loc: ["body", ...issue.path.map((p) => typeof p === "symbol" ? String(p) : p)],
          msg: issue.message,
          type: issue.code,
        })),
      );
    }
    const problems = [
      ...model.limits(parsed.data),
      ...weightProblems(model, settings, parsed.data),
    ];
    if (problems.length > 0) return detail(c, 422, problems.join("; "));
    let view: SimulationJobView;
    try {
      view = jobs.submit(parsed.data);
    } catch (error) {
      if (error instanceof QueueFullError) {
        c.header("Retry-After", "10");
        return detail(
          c,
          503,
          `Queue full: ${error.maxRunning} job(s) run and ${error.maxQueued} wait, the most ` +
            `this service queues (SIM_MAX_JOBS = ${error.maxRunning}, SIM_MAX_QUEUED = ` +
            `${error.maxQueued}); retry when one has finished`,
        );
      }
      return detail(c, 503, error instanceof Error ? error.message : String(error));
    }
    // Only these three keys: a `time_s` or `electrolyzer` here would read as a finished result.
    return c.json({
      job_id: view.job_id,
      status: "queued" as const,
      message: `${model.title}: job queued; follow it at /jobs/${view.job_id} or the WebSocket`,
    }, 202);
  };

  const unknown = (c: Context, id: string) => detail(c, 404, `Unknown or expired job: ${id}`);
  const dropped = (c: Context, id: string) =>
    detail(
      c,
      410,
      `Job ${id} finished, but its result was dropped to keep the memory finished results hold ` +
        `under SIM_MAX_RESULTS_MB = ${mib(settings.maxResultsBytes)} (oldest first); submit ` +
        "the payload again",
    );
  const find = (c: Context, id: string): SimulationJobView | Response => {
    const view = jobs.get(id);
    if (!view) return unknown(c, id);
    if (view.result_dropped) return dropped(c, id);
    return view;
  };
  /** A job's view: the result, when there is one, streamed. */
  const viewAnswer = (c: Context, view: SimulationJobView, withResult = true) => {
    if (!view.result) return c.json(view);
    return withResult ? streamed(c, view) : c.json({ ...view, result: null });
  };
  const status = (withResult: boolean) => (c: Context) => {
    const found = find(c, idOf(c));
    return found instanceof Response ? found : viewAnswer(c, found, withResult);
  };
  const cancel = (c: Context) => {
    const id = idOf(c);
    const view = jobs.cancel(id);
    return view ? viewAnswer(c, view) : unknown(c, id);
  };
  return { submit, status, cancel, find, unknown };
}
