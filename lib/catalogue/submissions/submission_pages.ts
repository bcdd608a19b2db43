/**
 * Reading the submission tables a page at a time: which rows (`SubmissionFilter`: a status, a
 * submitter, newest first), the page (`PageRequest`) and the count, for the DuckDB repository.
 *
 * A page reads its ids first (`LIMIT`/`OFFSET` over the small columns), then the rows of those
 * ids, so the JSON text of rows outside the page is never read.
 */
import type { SqlValue, Store } from "../../store/store.ts";
import type { SubmissionStatus } from "./submission_record.ts";

/** Which part of a list to read: `skip` items, then at most `limit`. */
export interface PageRequest {
  skip: number;
  limit: number;
}

/** Which submissions a list or count reads. */
export interface SubmissionFilter {
  status?: SubmissionStatus | undefined;
  /** Only those of this submitter (token subject). */
  subject?: string | undefined;
  /** Newest first instead of submission order. */
  newestFirst?: boolean;
}

function whereOf(filter: SubmissionFilter): [string, SqlValue[]] {
  const terms: string[] = [];
  const params: SqlValue[] = [];
  if (filter.status !== undefined) {
    params.push(filter.status);
    terms.push(`status = $${params.length}`);
  }
  if (filter.subject !== undefined) {
    params.push(filter.subject);
    terms.push(`json_extract_string(submitted_by, '$.subject') = $${params.length}`);
  }
  return [terms.length ? ` WHERE ${terms.join(" AND ")}` : "", params];
}

/** Throws RangeError unless `skip` and `limit` are non-negative safe integers. */
export function checkPage(page: PageRequest, what: string): void {
  for (const key of ["skip", "limit"] as const) {
    const value = page[key];
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`${what}: ${key} must be a non-negative integer, got ${value}`);
    }
  }
}

/** Submission order, and its reverse. */
const ORDER = " ORDER BY submitted_at, submission_id";
const NEWEST_FIRST = " ORDER BY submitted_at DESC, submission_id DESC";

/**
 * The rows of `select` (a `SELECT ... FROM table`) in submission order, all or one page. A page
 * reads its ids first (`LIMIT`/`OFFSET` over the small columns), then the rows of those ids, so
 * the JSON text of rows outside the page is never read.
 */
export async function listRows<T>(
  store: Store,
  table: string,
  select: string,
  filter: SubmissionFilter,
  page: PageRequest | undefined,
): Promise<T[]> {
  const [where, params] = whereOf(filter);
  const order = filter.newestFirst ? NEWEST_FIRST : ORDER;
  if (page === undefined) return await store.all<T>(`${select}${where}${order}`, params);
  checkPage(page, `list ${table}`);
  const ids = await store.all<{ submission_id: string }>(
    `SELECT submission_id FROM ${table}${where}${order} LIMIT ${page.limit} OFFSET ${page.skip}`,
    params,
  );
  if (ids.length === 0) return [];
  const list = ids.map((_, i) => `$${i + 1}`).join(", ");
  return await store.all<T>(
    `${select} WHERE submission_id IN (${list})${order}`,
    ids.map((r) => r.submission_id),
  );
}

export async function countRows(
  store: Store,
  table: string,
  filter: SubmissionFilter,
): Promise<number> {
  const [where, params] = whereOf(filter);
  const rows = await store.all<{ n: number }>(`SELECT count(*) AS n FROM ${table}${where}`, params);
  return rows[0]?.n ?? 0;
}
