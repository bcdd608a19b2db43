/**
 * The jobs as the routes see them, whoever keeps them: this process (`registryJobStore`, over
 * the in-process `JobRegistry`) or Redis and a BullMQ queue shared by any number of service
 * instances and worker processes (`queue/redis_job_store.ts`). Every method is asynchronous,
 * as a store across machines must be; the in-process one answers at once.
 */
import { hostname } from "node:os";
import type { RunEvent } from "../../lib/runner/run_events.ts";
import {
  type JobRegistry,
  type JobStatus,
  type JobStatusView,
  jobStatusView,
  type Refused,
} from "./jobs.ts";

/** Accepted with its id, or why not. */
export type StoreSubmitOutcome =
  | { readonly ok: true; readonly id: string }
  | { readonly ok: false; readonly reason: Refused };

/** What a cancel did; `status` is the job's status after it. */
export type StoreCancelOutcome =
  | { readonly outcome: "cancelled" | "finished"; readonly status: JobStatus }
  | { readonly outcome: "unknown" };

/** A job's result, or its status when it has none. */
export type StoreResult =
  | { readonly status: "completed"; readonly json: Uint8Array<ArrayBuffer> }
  | { readonly status: JobStatus; readonly json?: undefined; readonly error: string | null };

/** Follows a job's events: history first, then live ones; answers the unsubscribe function. */
export type EventSubscription = (listener: (event: RunEvent) => void) => () => void;

/** Where the runner's jobs live. */
export interface RunJobStore {
  /** Why a body of `bytes` would be refused now (asked before the body is read). */
  refusal(bytes?: number): Promise<Refused | undefined>;
  /** Queues a checked model body; the store owns the bytes from here on. */
  submit(body: Uint8Array): Promise<StoreSubmitOutcome>;
  /** The status record, unless the job is unknown or expired. */
  status(id: string): Promise<JobStatusView | undefined>;
  /** The result bytes of a completed job, else its status; undefined when unknown. */
  result(id: string): Promise<StoreResult | undefined>;
  /** The job's event stream, or undefined when the job is unknown. */
  events(id: string): Promise<EventSubscription | undefined>;
  cancel(id: string): Promise<StoreCancelOutcome>;
  /** Jobs running and waiting now. */
  counts(): Promise<{ running: number; queued: number }>;
  /** Stops taking jobs and lets go of what the store holds. */
  close(): Promise<void>;
}

/** `host:pid` of this process: the `worker` of the jobs it solves. */
export function processName(): string {
  return `${hostname()}:${Deno.pid}`;
}

/** The in-process registry behind the store interface: behaviour as before, answered at once. */
export function registryJobStore(jobs: JobRegistry): RunJobStore {
  const self = processName();
  return {
    refusal: (bytes) => Promise.resolve(jobs.refusal(bytes)),
    submit(body) {
      const submitted = jobs.submit(body);
      return Promise.resolve(
        submitted.ok ? { ok: true, id: submitted.job.id } : submitted,
      );
    },
    status(id) {
      const job = jobs.get(id);
      if (job === undefined) return Promise.resolve(undefined);
      return Promise.resolve(jobStatusView(job, self));
    },
    result(id) {
      const job = jobs.get(id);
      if (job === undefined) return Promise.resolve(undefined);
      if (job.status === "completed" && job.result !== undefined) {
        return Promise.resolve({ status: "completed", json: job.result.json });
      }
      return Promise.resolve({ status: job.status, error: job.error });
    },
    events(id) {
      const job = jobs.get(id);
      if (job === undefined) return Promise.resolve(undefined);
      return Promise.resolve((listener) => job.events.subscribe(listener));
    },
    cancel(id) {
      const outcome = jobs.cancel(id);
      return Promise.resolve(
        outcome.outcome === "unknown"
          ? outcome
          : { outcome: outcome.outcome, status: outcome.job.status },
      );
    },
    counts: () => Promise.resolve(jobs.counts()),
    close: () => jobs.close(),
  };
}
