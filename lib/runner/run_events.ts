/**
 * The events of a model run, as the runner's stream and the backend's job stream send them (the
 * frontend reads both), and the log that keeps a job's events (`EventLog` of the job engine):
 * a late client first gets every event it missed, then the live ones; the log ends with the
 * first `done` or `error` event.
 */
import { DEFAULT_HISTORY_LIMIT, EventLog } from "../jobs/event_log.ts";

export { DEFAULT_HISTORY_LIMIT };

/** One solver or runner log line. */
export interface LogEvent {
  readonly type: "log";
  readonly line: string;
}

/** Where a run is. */
export interface ProgressEvent {
  readonly type: "progress";
  readonly phase: "build" | "solve";
  /** 0..100 */
  readonly pct: number;
}

/** CPU and memory figures, sent every few seconds while a job runs. */
export interface StatsEvent {
  readonly type: "stats";
  /** `42s` or `1m 05s`: a string, as the frontend shows it. */
  readonly elapsed: string;
  /** CPU time of this process over the last interval, % of one core; null when unknown. */
  readonly cpu_pct: number | null;
  /** Resident memory of this process, MiB. */
  readonly proc_ram_mb: number | null;
  /** GiB */
  readonly sys_ram_used_gb: number | null;
  /** GiB */
  readonly sys_ram_total_gb: number | null;
  readonly sys_ram_pct: number | null;
}

/** The run finished with a result (optimal or not); the full result is stored already. */
export interface DoneEvent {
  readonly type: "done";
  /** The result without its time series (see `summarizeResult`). */
  readonly result: Readonly<Record<string, unknown>>;
  readonly objective: number | null;
  readonly termination: string;
  readonly success: boolean;
}

/** The run failed or was cancelled (`error: "cancelled"`). */
export interface ErrorEvent {
  readonly type: "error";
  readonly error: string;
  /** For an invalid model: its first problems by JSON path (the message names 20). */
  readonly problems?: readonly { readonly path: string; readonly message: string }[];
}

/** Any event of a job's stream. */
export type RunEvent = LogEvent | ProgressEvent | StatsEvent | DoneEvent | ErrorEvent;

/** Whether an event ends the stream. */
export function isFinal(event: RunEvent): event is DoneEvent | ErrorEvent {
  return event.type === "done" || event.type === "error";
}

/** The event log of one run: every event up to `historyLimit`, then live ones only. */
export class JobEventLog extends EventLog<RunEvent> {
  /** `historyLimit` bounds the memory of a job that logs without end. */
  constructor(historyLimit = DEFAULT_HISTORY_LIMIT) {
    super({
      isFinal,
      historyLimit,
      // A late client learns that lines are missing instead of silently seeing fewer.
      truncated: (limit) => ({
        type: "log",
        line: `[runner] more than ${limit} events; later ones were sent live only`,
      }),
    });
  }
}
