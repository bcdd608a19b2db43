/**
 * Batched appends for log-like rows (job events, run logs, simulation output): rows are kept in
 * memory and written with one `Store.appendRows` call per batch, instead of one statement each.
 */
import type { SqlValue, Store } from "./store.ts";

/** When a batch is written. */
export interface BatchAppenderOptions {
  /** Rows that make a batch: reaching it writes them at once (default 500). */
  readonly maxRows?: number;
  /** Longest a row waits in memory before its batch is written, in ms (default 1000). */
  readonly maxDelayMs?: number;
}

/** Buffers rows of one table and writes them in batches; see createBatchAppender. */
export interface BatchAppender {
  /**
   * Buffers `row` (values in the order of `columns`). Throws a TypeError for a row of the wrong
   * length and an Error once close() was called; write errors come from flush() and close().
   */
  append(row: readonly SqlValue[]): void;
  /**
   * Writes the buffered rows now and resolves once every batch started so far is written.
   * Rejects with the error of each batch that failed since the last flush() or close() (an
   * AggregateError if several did); the rows of a failed batch are not retried.
   */
  flush(): Promise<void>;
  /** Refuses further rows and flushes; calling it again returns the same promise. */
  close(): Promise<void>;
}

const DEFAULT_MAX_ROWS = 500;
const DEFAULT_MAX_DELAY_MS = 1000;

/**
 * An appender that writes rows of `table` in batches of at most `maxRows` rows, each at most
 * `maxDelayMs` after its first row arrived, with one `store.appendRows(table, columns, batch)`
 * call per batch. Rows reach the table in append order: the store's writer queue runs the
 * batches in the order they were started. `columns` names every column of `table`, as
 * appendRows requires. Use it for rows whose insert cannot be refused (no unique key to
 * check); a row that must report whether it was stored needs its own statement.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openStore } from "./store.ts";
 * const store = await openStore(":memory:");
 * await store.run("CREATE TABLE job_events (job_id TEXT, time TEXT, message TEXT)");
 * const log = createBatchAppender(store, "job_events", ["job_id", "time", "message"]);
 * log.append(["job-1", new Date().toISOString(), "solver started"]);
 * await log.close(); // before the job reports that it has finished
 * assert.deepEqual(await store.all("SELECT message FROM job_events"), [
 *   { message: "solver started" },
 * ]);
 * await store.close();
 * ```
 */
export function createBatchAppender(
  store: Pick<Store, "appendRows">,
  table: string,
  columns: readonly string[],
  options: BatchAppenderOptions = {},
): BatchAppender {
  const maxRows = options.maxRows ?? DEFAULT_MAX_ROWS;
  const maxDelayMs = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  if (!Number.isSafeInteger(maxRows) || maxRows < 1) {
    throw new RangeError(`createBatchAppender(${table}): maxRows must be a whole number >= 1`);
  }
  if (!Number.isFinite(maxDelayMs) || maxDelayMs < 0) {
    throw new RangeError(`createBatchAppender(${table}): maxDelayMs must be a number >= 0`);
  }
  if (columns.length === 0) {
    throw new TypeError(`createBatchAppender(${table}): columns must name the table's columns`);
  }

  let buffer: SqlValue[][] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closing: Promise<void> | undefined;
  const writing = new Set<Promise<void>>();
  const failures: Error[] = [];

  const write = () => {
    clearTimeout(timer);
    timer = undefined;
    if (buffer.length === 0) return;
    const batch = buffer;
    buffer = [];
    // Never rejects: a failure is kept for the next flush() or close() to report.
    const done = store.appendRows(table, columns, batch).then(() => undefined, (error) => {
      const reason = error instanceof Error ? error.message : String(error);
      failures.push(
        new Error(`${table}: a batch of ${batch.length} rows was not written: ${reason}`, {
          cause: error,
        }),
      );
    });
    writing.add(done);
    void done.then(() => writing.delete(done));
  };

  const flush = async (): Promise<void> => {
    write();
    await Promise.all(writing);
    const errors = failures.splice(0);
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) {
      throw new AggregateError(errors, `${table}: ${errors.length} batches were not written`);
    }
  };

  return {
    append(row) {
      if (closing) throw new Error(`BatchAppender for ${table} is closed`);
      if (row.length !== columns.length) {
        throw new TypeError(
          `BatchAppender for ${table}: row has ${row.length} values, expected ${columns.length}`,
        );
      }
      buffer.push([...row]);
      if (buffer.length >= maxRows) write();
      else timer ??= setTimeout(write, maxDelayMs);
    },
    flush,
    close() {
      closing ??= flush();
      return closing;
    },
  };
}
