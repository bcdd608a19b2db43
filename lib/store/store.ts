/**
 * The DuckDB store: one small typed API over `@duckdb/node-api`.
 *
 * Queries return plain JS values (numbers, strings, booleans, null), so callers never see
 * DuckDB value classes or bigints.
 */
import {
  type DuckDBAppender,
  DuckDBInstance,
  type DuckDBType,
  DuckDBTypeId,
} from "@duckdb/node-api";
import { serialQueue } from "../concurrency/serial_queue.ts";

/** A value that can be bound to a query parameter or appended to a table. */
export type SqlValue = string | number | boolean | null;

/** A plain JS value read back from the store. */
export type PlainValue = SqlValue | PlainValue[] | { [key: string]: PlainValue };

/**
 * An open store; every method runs on one connection, one call at a time in call order.
 *
 * Statements running on one DuckDB connection at the same time mix up their results (seen with
 * @duckdb/node-api 1.5.5: a VARCHAR column read back as another statement's column name), and a
 * transaction spans several statements that another caller's statement would join. So every
 * call is queued, and `exclusive` / `transaction` hold the connection for several statements.
 */
export interface Store {
  /** File path of the store, or `:memory:`. */
  readonly path: string;
  /** Runs statements that return no rows (DDL, INSERT, ...). */
  run(sql: string, params?: readonly SqlValue[]): Promise<void>;
  /** Runs a query and returns its rows as plain objects. */
  all<T = Record<string, PlainValue>>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** Appends rows to an existing table; `columns` names every table column, in any order. */
  appendRows(
    table: string,
    columns: readonly string[],
    rows: Iterable<readonly SqlValue[]>,
  ): Promise<number>;
  /**
   * Runs `task` with the connection to itself: calls queued meanwhile wait until it ends.
   * `task` must use the store it is given (the shared one would wait for `task`).
   */
  exclusive<T>(task: (store: Store) => Promise<T>): Promise<T>;
  /** Runs `task` alone inside BEGIN ... COMMIT; rolled back when it throws. */
  transaction<T>(task: (store: Store) => Promise<T>): Promise<T>;
  /** Closes the connection and the database; the store cannot be used afterwards. */
  close(): void;
}

/** Options for openStore. */
export interface StoreOptions {
  /** Open an existing file read-only (several processes may read at once). */
  readonly readOnly?: boolean;
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

/** Opens (or creates) a DuckDB store at `path`, or an in-memory one for `:memory:`. */
export async function openStore(path: string, options: StoreOptions = {}): Promise<Store> {
  const instance = await DuckDBInstance.create(
    path,
    options.readOnly ? { access_mode: "READ_ONLY" } : {},
  );
  const connection = await instance.connect();
  let open = true;
  const live = () => {
    if (!open) throw new Error(`Store ${path} is closed`);
  };

  const all = async <T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> => {
    live();
    const reader = await connection.runAndReadAll(sql, [...params]);
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
  };

  const raw: Omit<Store, "exclusive" | "transaction"> = {
    path,
    async run(sql, params = []) {
      live();
      await connection.run(sql, [...params]);
    },
    all,
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
    close() {
      open = false;
      connection.closeSync();
      instance.closeSync();
    },
  };

  const queue = serialQueue();
  let closing = false;
  const queued = <T>(task: () => Promise<T>): Promise<T> =>
    closing ? Promise.reject(new Error(`Store ${path} is closed`)) : queue(task);
  // Inside exclusive sections the calls go straight to the connection.
  const direct: Store = {
    ...raw,
    exclusive: (task) => task(direct),
    transaction: (task) => inTransaction(direct, task),
  };
  return {
    path,
    run: (sql, params) => queued(() => raw.run(sql, params)),
    all: <T>(sql: string, params?: readonly SqlValue[]) => queued(() => raw.all<T>(sql, params)),
    appendRows: (table, columns, rows) => queued(() => raw.appendRows(table, columns, rows)),
    exclusive: (task) => queued(() => task(direct)),
    transaction: (task) => queued(() => inTransaction(direct, task)),
    close() {
      // New calls fail at once; the connection closes once the calls before it have settled,
      // since closing under a running statement can crash the native library.
      if (closing) return;
      closing = true;
      void queue(() => Promise.resolve(raw.close()));
    },
  };
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
