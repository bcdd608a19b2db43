/**
 * The log lines of the backend's jobs: kept with the job while it runs, sent as its `log`
 * events, and written to the store in batches (one statement per batch, not per line).
 */
import { type BackendStore, JOB_LOG_COLUMNS } from "../../../lib/backend/backend_store.ts";
import { type BatchAppender, createBatchAppender } from "../../../lib/store/batch_appender.ts";
import type { ActiveJob } from "./active_job.ts";
import { errorMessage } from "../../../lib/jobs/job_engine.ts";

/** When a batch of log lines is written (default: 500 rows or 250 ms). */
export interface JobLogBatch {
  maxRows?: number;
  maxDelayMs?: number;
}

/** Writes the log lines of every job of one backend. */
export class JobLogWriter {
  readonly #appender: BatchAppender;
  readonly #log: (message: string) => void;

  constructor(store: BackendStore, batch: JobLogBatch | undefined, log: (message: string) => void) {
    this.#appender = createBatchAppender(store.store, "job_logs", JOB_LOG_COLUMNS, {
      maxRows: batch?.maxRows ?? 500,
      maxDelayMs: batch?.maxDelayMs ?? 250,
    });
    this.#log = log;
  }

  /** Adds a line to the job's log: kept, batched for the store, and sent as an event. */
  add(job: ActiveJob, line: string): void {
    job.lines.push(line);
    try {
      this.#appender.append([job.row.id, job.lines.length, line]);
    } catch {
      // closed: the backend is stopping and the job is being ended
    }
    job.events.append({ type: "log", line });
  }

  /** Writes the batched lines now; a failure goes to the server log. */
  async flush(): Promise<void> {
    await this.#appender.flush().catch((error) => this.#log(`job logs: ${errorMessage(error)}`));
  }

  /** Refuses further lines and writes the last ones; a failure goes to the server log. */
  async close(): Promise<void> {
    await this.#appender.close().catch((error) => this.#log(errorMessage(error)));
  }
}
