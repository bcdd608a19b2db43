/**
 * The `{detail}` of the simulation services' error answers (the shape their existing client
 * reads: a text, or FastAPI's list `[{loc, msg, type}]` for validation failures), bounded like
 * every other service's errors: at most `MAX_PROBLEMS` listed issues, then one that counts the
 * rest, and never over `MAX_ERROR_BYTES` of JSON (an invalid 6.8 MB body once got a 52 MB
 * answer, one issue per profile point).
 */
import { cutToBytes, MAX_ERROR_BYTES, MAX_PROBLEMS } from "../middleware/errors.ts";

/** One validation issue as FastAPI writes it. */
export interface DetailIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** Room kept for the wrapper `{"detail": ...}` and the closing note. */
const RESERVE = 1024;

const encoder = new TextEncoder();
const bytes = (value: unknown) => encoder.encode(JSON.stringify(value)).length;

/** The longest prefix of `text` whose JSON is at most `max` bytes, marked when cut. */
export function cutText(text: string, max = MAX_ERROR_BYTES - RESERVE): string {
  return bytes(text) <= max ? text : `${cutToBytes(text, max - 16)} ... (cut)`;
}

/** A validation issue list of at most `MAX_PROBLEMS` issues within the byte bound. */
export function boundedIssues(issues: readonly DetailIssue[]): DetailIssue[] {
  const out: DetailIssue[] = [];
  let size = 2;
  for (const issue of issues) {
    if (out.length >= MAX_PROBLEMS) break;
    const item = {
      loc: issue.loc.slice(0, 32).map((part) =>
        typeof part === "string" ? cutText(part, 512) : part
      ),
      msg: cutText(issue.msg, 2048),
      type: cutText(issue.type, 64),
    };
    const itemBytes = bytes(item) + 1;
    if (size + itemBytes > MAX_ERROR_BYTES - RESERVE) break;
    out.push(item);
    size += itemBytes;
  }
  if (out.length < issues.length) {
    out.push({
      loc: ["body"],
      msg: `and ${issues.length - out.length} more problems (the first ${out.length} are listed)`,
      type: "truncated",
    });
  }
  return out;
}

/** Any `detail` bounded: a text cut, an issue list shortened. */
export function boundedDetail(detail: string | readonly DetailIssue[]): string | DetailIssue[] {
  return typeof detail === "string" ? cutText(detail) : boundedIssues(detail);
}
