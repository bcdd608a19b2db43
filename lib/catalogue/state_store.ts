/**
 * The catalogue service's user state (submissions, reviews, approved additions, scraper runs and
 * candidates) lives in its own DuckDB file, `STATE_PATH` (default `data/state.duckdb`), apart
 * from the store that `pipelines/build_store.ts` rebuilds from the source files: a rebuild writes
 * a fresh store and renames it into place, which would drop any table written by users.
 *
 * One connection serves every caller. DuckDB runs one statement at a time on it, but a
 * transaction spans several statements, and any statement another caller sends meanwhile would
 * join (and be rolled back with) that transaction. `serialStore` therefore queues every call and
 * lets a transaction hold the connection alone.
 */
import type { Store } from "../store/store.ts";

/** Runs tasks one after another, in call order. */
export type Mutex = <T>(task: () => Promise<T>) => Promise<T>;

/** A mutex: each task starts when the one before it has settled. */
export function createMutex(): Mutex {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task);
    tail = run.then(() => undefined, () => undefined);
    return run;
  };
}

/** A store whose calls are queued, with a way to run several statements alone. */
export interface SerialStore {
  /** The store; each call waits for the calls and exclusive sections queued before it. */
  readonly store: Store;
  /**
   * Runs `task` with the connection to itself; `task` must use the store it is given (the queued
   * one would wait for `task` to end). Use it for transactions.
   */
  exclusive<T>(task: (store: Store) => Promise<T>): Promise<T>;
  /** Runs `task` alone inside BEGIN ... COMMIT, rolled back when it throws. */
  transaction<T>(task: (store: Store) => Promise<T>): Promise<T>;
}

/** Wraps `raw` so that its users never interleave inside a transaction. */
export function serialStore(raw: Store): SerialStore {
  const queue = createMutex();
  const store: Store = {
    path: raw.path,
    run: (sql, params) => queue(() => raw.run(sql, params)),
    all: <T>(sql: string, params?: Parameters<Store["all"]>[1]) =>
      queue(() => raw.all<T>(sql, params)),
    appendRows: (table, columns, rows) => queue(() => raw.appendRows(table, columns, rows)),
    close: () => raw.close(),
  };
  const exclusive = <T>(task: (store: Store) => Promise<T>) => queue(() => task(raw));
  return {
    store,
    exclusive,
    transaction: (task) =>
      exclusive(async (s) => {
        await s.run("BEGIN TRANSACTION");
        try {
          const result = await task(s);
          await s.run("COMMIT");
          return result;
        } catch (error) {
          await s.run("ROLLBACK");
          throw error;
        }
      }),
  };
}
