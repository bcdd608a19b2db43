/**
 * A refused submission, review or edit as the HTTP error it answers with: 404, 400 (an invalid
 * edit) or 409 with problems, or 429 for a submitter at the pending limit.
 */
import type { DeskResult, Refusal } from "../../lib/catalogue/submissions/submission_desk.ts";
import { httpError } from "../middleware/errors.ts";

/** Throws the 404, 400, 409 or 429 of a refusal; a 400 or 409 lists its problems in `details`. */
export function throwRefusal(refusal: Refusal): never {
  if (refusal.reason === "not_found") throw httpError(404, refusal.message);
  if (refusal.reason === "limit") throw httpError(429, refusal.message);
  if (refusal.reason === "invalid") {
    throw httpError(400, refusal.message, { problems: refusal.problems });
  }
  throw httpError(
    409,
    refusal.message,
    refusal.problems.length > 0 ? { problems: refusal.problems } : undefined,
  );
}

/** The value of a desk result; throws the HTTP error of a refusal. */
export function valueOrRefusal<T>(result: DeskResult<T>): T {
  if (!result.ok) throwRefusal(result);
  return result.value;
}
