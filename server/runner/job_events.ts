/**
 * The events of one job, kept in order: a client that connects late first gets every event it
 * missed, then the live ones; any number of clients each get all of them (the predecessor had
 * one queue per job, so a second listener stole events from the first). The log ends with the
 * first `done` or `error` event.
 */

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

/** Called with each event; history first, then live. */
export type EventListener = (event: RunEvent) => void;

/** Events kept per job by default; later non-final events reach live listeners only. */
export const DEFAULT_HISTORY_LIMIT = 50_000;

/** The ordered event log of one job. */
export class JobEventLog {
  readonly #events: RunEvent[] = [];
  readonly #listeners = new Set<EventListener>();
  readonly #historyLimit: number;
  #ended = false;
  #truncated = false;

  /** `historyLimit` bounds the memory of a job that logs without end. */
  constructor(historyLimit = DEFAULT_HISTORY_LIMIT) {
    this.#historyLimit = historyLimit;
  }

  /** Whether a `done` or `error` event has been appended. */
  get ended(): boolean {
    return this.#ended;
  }

  /** The events kept so far, in order. */
  get events(): readonly RunEvent[] {
    return this.#events;
  }

  /** Keeps the event and hands it to every listener; ignored once the log has ended. */
  append(event: RunEvent): void {
    if (this.#ended) return;
    if (isFinal(event)) this.#ended = true;
    if (this.#events.length < this.#historyLimit || isFinal(event)) {
      this.#events.push(event);
    } else if (!this.#truncated) {
      // A late client learns that lines are missing instead of silently seeing fewer.
      this.#truncated = true;
      this.#events.push({
        type: "log",
        line: `[runner] more than ${this.#historyLimit} events; later ones were sent live only`,
      });
    }
    for (const listener of [...this.#listeners]) listener(event);
    if (this.#ended) this.#listeners.clear();
  }

  /**
   * Replays every kept event to `listener` at once, then passes on live events until the log
   * ends or the returned function is called.
   */
  subscribe(listener: EventListener): () => void {
    for (const event of [...this.#events]) listener(event);
    if (this.#ended) return () => {};
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Live listeners now attached. */
  get listenerCount(): number {
    return this.#listeners.size;
  }
}
