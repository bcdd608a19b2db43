/**
 * The worker of `password_pool.ts`: runs bcrypt (bcryptjs: pure JavaScript, slow by design) off
 * the main thread, so that password checks never hold up other requests. It answers each
 * PasswordJob with a PasswordAnswer of the same id.
 */
import bcrypt from "bcryptjs";
import type { PasswordAnswer, PasswordJob } from "./password_pool.ts";

/** The worker's global scope, as far as it is used here. */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<PasswordJob>) => void) | null;
  postMessage(answer: PasswordAnswer): void;
};

scope.onmessage = (event) => {
  const job = event.data;
  let answer: PasswordAnswer;
  try {
    // The synchronous forms: the worker has nothing else to do, so there is no point in yielding.
    const value = job.op === "compare"
      ? bcrypt.compareSync(job.password, job.hash)
      : bcrypt.hashSync(job.password, job.cost);
    answer = { id: job.id, ok: true, value };
  } catch (error) {
    answer = {
      id: job.id,
      ok: false,
      error: error instanceof Error ? error.message : String(error),
    };
  }
  scope.postMessage(answer);
};
