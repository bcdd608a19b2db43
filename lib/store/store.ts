/**
 * The DuckDB store: one small typed API over `@duckdb/node-api`.
 *
 * Queries return plain JS values (numbers, strings, booleans, null), so callers never see
 * DuckDB value classes or bigints.
 */
import {
  type DuckDBAppender,
  type DuckDBConnection,
  DuckDBInstance,
  type DuckDBResultReader,
  type DuckDBType,
  DuckDBTypeId,
  StatementType,
} from "@duckdb/node-api";
import { type Enqueue, serialQueue } from "../concurrency/serial_queue.ts";

/** A value that can be bound to a query parameter or appended to a table. */
export type SqlValue = string | number | boolean | null;

/** A plain JS value read back from the store. */
export type PlainValue = SqlValue | PlainValue[] | { [key: string]: PlainValue };

/** Reader connections of a store unless openStore() is told otherwise. */
export const DEFAULT_READERS = 2;

/**
 * An open store: one writer connection whose calls run one at a time in call order, and a few
 * reader connections for plain reads, so a long write never holds up a read.
 *
 * Statements running on one DuckDB connection at the same time mix up their results (seen with
 * @duckdb/node-api 1.5.5: a VARCHAR column read back as another statement's column name), and a
 * transaction spans several statements that another caller's statement would join. So every
 * connection has its own queue (`serialQueue()`), and `exclusive` / `transaction` hold the
 * writer for several statements.
 *
 * Reads see every write that resolved before the read was called (each statement outside a
 * transaction commits when it resolves); a read called while a write is still pending may run
 * before it. Reads on the shared store never see a running transaction's uncommitted writes:
 * only the store handed to the task does.
 */
export interface Store {
  /** File path of the store, or `:memory:`. */
  readonly path: string;
  /** Runs statements that return no rows (DDL, INSERT, ...) on the writer queue. */
  run(sql: string, params?: readonly SqlValue[]): Promise<void>;
  /**
   * Runs one read-only statement on the least busy reader connection and returns its rows as
   * plain objects. DuckDB's parser checks that it is one SELECT before it runs; anything else is
   * refused with a TypeError (use `write` for `INSERT/UPDATE ... RETURNING`). Inside
   * `exclusive` and `transaction` it runs on the writer connection.
   */
  all<T = Record<string, PlainValue>>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /**
   * Runs a statement that changes the store and returns rows (`INSERT ... RETURNING`,
   * `UPDATE ... RETURNING`) on the writer queue, like `run`.
   */
  write<T = Record<string, PlainValue>>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /**
   * Appends rows to an existing table in one call on the writer queue; `columns` names every
   * table column, in any order.
   */
  appendRows(
    table: string,
    columns: readonly string[],
    rows: Iterable<readonly SqlValue[]>,
  ): Promise<number>;
  /**
   * Runs `task` with the writer connection to itself: writes queued meanwhile wait until it
   * ends, reads do not. Every call of the store given to `task`, reads included, runs on the
   * writer connection; `task` must use that store (the shared one's writes would wait for
   * `task`, its reads would not see `task`'s uncommitted writes).
   */
  exclusive<T>(task: (store: Store) => Promise<T>): Promise<T>;
  /** Runs `task` like `exclusive`, inside BEGIN ... COMMIT; rolled back when it throws. */
  transaction<T>(task: (store: Store) => Promise<T>): Promise<T>;
  /**
   * Closes the store: new calls fail at once; resolves once the calls made before have
   * settled and every connection and the database are closed, a writable file store
   * checkpointed (no `.wal` file is left; rejects if one is). Calling it again returns the same
   * promise. With no call pending it has closed before any timer or I/O callback runs, so a
   * caller that does not await it still leaves nothing running.
   */
  close(): Promise<void>;
}

/** Options for openStore. */
export interface StoreOptions {
  /** Open an existing file read-only (several processes may read at once). */
  readonly readOnly?: boolean;
  /**
   * Reader connections that run `all()` reads beside the writer (default DEFAULT_READERS);
   * 0 runs every call on the writer queue.
   */
  readonly readers?: number;
  /**
   * DuckDB's memory limit, e.g. "1GB" (default: DuckDB's, 80 % of RAM). Beyond it DuckDB
   * spills to a temporary directory beside the file, which bounds an import's memory.
   */
  readonly memoryLimit?: string;
}

/** Quotes an SQL identifier (table or column name) for DuckDB. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Converts a DuckDB JS value to a plain value: BIGINT to number, DATE/TIMESTAMP to ISO text. */
export function toPlain(value: unknown): PlainValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
      return value;
    case "bigint": {
      const n = Number(value);
      if (!Number.isSafeInteger(n)) {
        throw new RangeError(`Store value ${value} does not fit a JS number exactly`);
      }
      return n;
    }
  }
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(toPlain);
  if (value instanceof Uint8Array) {
    throw new TypeError("Store query returned binary data; select it as text instead");
  }
  if (typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlain(v)]));
  }
  throw new TypeError(`Store returned an unsupported value: ${String(value)}`);
}

function append(
  appender: DuckDBAppender,
  type: DuckDBType,
  value: SqlValue,
  column: string,
): void {
  if (value === null) return appender.appendNull();
  switch (type.typeId) {
    case DuckDBTypeId.DOUBLE:
      if (typeof value !== "number") break;
      return appender.appendDouble(value);
    case DuckDBTypeId.INTEGER:
      if (typeof value !== "number" || !Number.isInteger(value)) break;
      return appender.appendInteger(value);
    case DuckDBTypeId.BIGINT:
      if (typeof value !== "number" || !Number.isSafeInteger(value)) break;
      return appender.appendBigInt(BigInt(value));
    case DuckDBTypeId.BOOLEAN:
      if (typeof value !== "boolean") break;
      return appender.appendBoolean(value);
    case DuckDBTypeId.VARCHAR:
      if (typeof value !== "string") break;
      return appender.appendVarchar(value);
    default:
      throw new TypeError(`Column ${column}: appending to ${type} columns is not supported`);
  }
  throw new TypeError(`Column ${column} (${type}): cannot append ${JSON.stringify(value)}`);
}

/** A connection and the queue that runs its calls one at a time. */
interface Lane {
  readonly connection: DuckDBConnection;
  readonly queue: Enqueue;
  /** Calls queued or running on the lane. */
  pending: number;
}

function lane(connection: DuckDBConnection): Lane {
  return { connection, queue: serialQueue(), pending: 0 };
}

function onLane<T>(lane: Lane, task: () => Promise<T>): Promise<T> {
  lane.pending++;
  return lane.queue(task).finally(() => lane.pending--);
}

/** The rows of a finished query as plain objects. */
function plainRows<T>(reader: DuckDBResultReader): T[] {
  // Converting column by column is several times faster than getRowObjectsJS() on wide tables.
  const names = reader.deduplicatedColumnNames();
  const columns = reader.getColumnsJS().map((column) => column.map(toPlain));
  const rows: T[] = [];
  for (let i = 0; i < reader.currentRowCount; i++) {
    const row: Record<string, PlainValue> = {};
    for (let j = 0; j < names.length; j++) row[names[j] as string] = columns[j]?.[i] ?? null;
    rows.push(row as T);
  }
  return rows;
}

/**
 * Runs `sql` on a reader connection if DuckDB's parser calls it one SELECT statement; undefined
 * (and nothing run) otherwise.
 */
async function readOn<T>(
  connection: DuckDBConnection,
  sql: string,
  params: readonly SqlValue[],
): Promise<T[] | undefined> {
  const statements = await connection.extractStatements(sql);
  if (statements.count !== 1) return undefined;
  const prepared = await statements.prepare(0);
  try {
    if (prepared.statementType !== StatementType.SELECT) return undefined;
    prepared.bind([...params]);
    return plainRows<T>(await prepared.runAndReadAll());
  } finally {
    prepared.destroySync();
  }
}

/**
 * Opens (or creates) a DuckDB store at `path`, or an in-memory one for `:memory:`, with one
 * writer connection and `options.readers` reader connections (default DEFAULT_READERS).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const store = await openStore(":memory:", { readers: 2 });
 * await store.run("CREATE TABLE t (v INTEGER)");
 * await store.run("INSERT INTO t VALUES (1)");
 * assert.deepEqual(await store.all("SELECT v FROM t"), [{ v: 1 }]); // read on a reader connection
 * await store.close();
 * ```
 */
export async function openStore(path: string, options: StoreOptions = {}): Promise<Store> {
  const readerCount = options.readers ?? DEFAULT_READERS;
  if (!Number.isSafeInteger(readerCount) || readerCount < 0) {
    throw new RangeError(
      `openStore(${path}): readers must be a whole number >= 0, got ${readerCount}`,
    );
  }
  const instance = await DuckDBInstance.create(path, {
    ...(options.readOnly ? { access_mode: "READ_ONLY" } : {}),
    // DuckDB 1.5.5 bug: with late materialization (ORDER BY ... LIMIT n <= 50, rows fetched
    // again by rowid), a read on one connection while another connection inserts into the
    // table returns rows of garbage strings ("v", "I", "r10\0"), in Node as in Deno: about 1
    // in 50 reads of `SELECT * FROM t ORDER BY k DESC LIMIT 1` beside single-row INSERTs.
    // With the optimizer off: none in 7,200 reads (1.2 million rows) of TopN, filter, key
    // lookup and full scans beside INSERTs, UPDATEs and appends (tests/store/readers_test.ts).
    disabled_optimizers: "late_materialization",
    ...(options.memoryLimit ? { memory_limit: options.memoryLimit } : {}),
  });
  const connection = await instance.connect();
  const writer = lane(connection);
  const readers: Lane[] = [];
  for (let i = 0; i < readerCount; i++) readers.push(lane(await instance.connect()));
  let open = true;
  const live = () => {
    if (!open) throw new Error(`Store ${path} is closed`);
  };

  const all = async <T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> => {
    live();
    return plainRows<T>(await connection.runAndReadAll(sql, [...params]));
  };

  // The writer connection itself: used inside the writer queue only.
  const raw: Omit<Store, "exclusive" | "transaction" | "close"> = {
    path,
    async run(sql, params = []) {
      live();
      await connection.run(sql, [...params]);
    },
    all,
    write: all,
    async appendRows(table, columns, rows) {
      live();
      const order = (await all<{ name: string }>(
        "SELECT column_name AS name FROM information_schema.columns WHERE table_name = $1" +
          " ORDER BY ordinal_position",
        [table],
      )).map((c) => c.name);
      if (order.length === 0) throw new TypeError(`Table ${table} does not exist`);
      const position = new Map(columns.map((c, i) => [c, i]));
      const missing = order.filter((c) => !position.has(c));
      const unknown = columns.filter((c) => !order.includes(c));
      if (missing.length || unknown.length || columns.length !== order.length) {
        throw new TypeError(
          `appendRows(${table}): columns must name every table column once; missing ` +
            `[${missing.join(", ")}], unknown [${unknown.join(", ")}]`,
        );
      }
      const source = order.map((c) => position.get(c) as number);
      const appender = await connection.createAppender(table);
      // One native call per column, not per value: columnType() builds a new object each time.
      const types = order.map((_, i) => appender.columnType(i));
      let count = 0;
      try {
        for (const row of rows) {
          if (row.length !== columns.length) {
            throw new TypeError(
              `appendRows(${table}): row ${count + 1} has ${row.length} values, expected ` +
                `${columns.length}`,
            );
          }
          for (let i = 0; i < source.length; i++) {
            const from = source[i] as number;
            append(appender, types[i] as DuckDBType, row[from] ?? null, order[i] as string);
          }
          appender.endRow();
          count++;
        }
        appender.flushSync();
      } catch (error) {
        // Drop the buffered rows so a failed append leaves the table as it was before the call.
        appender.clear();
        throw error;
      } finally {
        appender.closeSync();
      }
      return count;
    },
  };

  let closing: Promise<void> | undefined;
  const refused = () => Promise.reject(new Error(`Store ${path} is closed`));
  const onWriter = <T>(task: () => Promise<T>): Promise<T> =>
    closing ? refused() : onLane(writer, task);
  // The least busy reader; the first of equals.
  const pickReader = (): Lane | undefined =>
    readers.reduce<Lane | undefined>(
      (best, r) => (!best || r.pending < best.pending ? r : best),
      undefined,
    );
  const read = async <T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> => {
    const reader = pickReader();
    if (closing || !reader) return onWriter(() => all<T>(sql, params));
    const rows = await onLane(reader, () => readOn<T>(reader.connection, sql, params));
    if (rows) return rows;
    throw new TypeError(
      "Store.all() runs one read-only statement (a SELECT); use Store.write() for a statement " +
        `that changes the store and returns rows: ${sql.slice(0, 80)}`,
    );
  };
  // Inside exclusive sections every call goes straight to the writer connection.
  const direct: Store = {
    ...raw,
    exclusive: (task) => task(direct),
    transaction: (task) => inTransaction(direct, task),
    close: () => Promise.reject(new Error("Store.close() cannot run inside exclusive()")),
  };
  const closeAll = async (): Promise<void> => {
    await Promise.all(readers.map((r) => r.queue(() => Promise.resolve())));
    await writer.queue(() => Promise.resolve());
    open = false;
    for (const r of readers) r.connection.closeSync();
    connection.closeSync();
    // DuckDB checkpoints a file database when its last connection and the instance close:
    // synchronously, inside closeSync(). An explicit `CHECKPOINT` before would be native work
    // on another thread, which crashes the process (SIGSEGV) when it exits meanwhile, as
    // `deno test` does after its last test if a test did not await close().
    instance.closeSync();
    const wal = `${path}.wal`;
    if (!options.readOnly && path !== "" && !path.startsWith(":memory:") && exists(wal)) {
      throw new Error(`Store ${path} closed without a checkpoint: ${wal} is left`);
    }
  };
  return {
    path,
    run: (sql, params) => onWriter(() => raw.run(sql, params)),
    all: read,
    write: (sql, params) => onWriter(() => raw.write(sql, params)),
    appendRows: (table, columns, rows) => onWriter(() => raw.appendRows(table, columns, rows)),
    exclusive: (task) => onWriter(() => task(direct)),
    transaction: (task) => onWriter(() => inTransaction(direct, task)),
    close() {
      // New calls fail at once; the connections close once the calls before them have settled,
      // since closing under a running statement can crash the native library.
      closing ??= closeAll();
      return closing;
    },
  };
}

function exists(file: string): boolean {
  try {
    Deno.statSync(file);
    return true;
  } catch {
    return false;
  }
}

/** Runs `task` inside BEGIN ... COMMIT on `store`, rolled back when it throws. */
async function inTransaction<T>(store: Store, task: (store: Store) => Promise<T>): Promise<T> {
  await store.run("BEGIN TRANSACTION");
  try {
    const result = await task(store);
    await store.run("COMMIT");
    return result;
  } catch (error) {
    await store.run("ROLLBACK");
    throw error;
  }
}
