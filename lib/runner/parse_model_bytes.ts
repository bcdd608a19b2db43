/**
 * A model body's bytes as a JSON value, where the run happens (its Worker for the service):
 * UTF-8 as a browser sends it (a leading BOM is dropped, invalid sequences become U+FFFD, as
 * `Request.json()` reads them), and text that is not JSON becomes a problem of the model.
 */
import type { ModelProblem } from "../model/model_problem.ts";

/** The parsed value, or the reason it is not JSON as a problem at the model's root. */
export type ParsedBody =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly problems: readonly ModelProblem[] };

/** Parses a JSON body; never throws. */
export function parseModelBytes(bytes: Uint8Array): ParsedBody {
  const text = new TextDecoder().decode(bytes);
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, problems: [{ path: "", message: `Malformed JSON: ${message}` }] };
  }
}
