/** A refused submission or review as the HTTP error it answers with: 404, or 409 with problems. */
import type { DeskResult, Refusal } from "../../lib/catalogue/submission_desk.ts";
import { httpError } from "../middleware/errors.ts";

/** Throws the 404 or 409 of a refusal; a 409 lists its problems in `details`. */
export function throwRefusal(refusal: Refusal): never {
  if (refusal.reason === "not_found") throw httpError(404, refusal.message);
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
