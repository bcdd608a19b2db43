/**
 * The states of a job and the moves between them, as one table. Every job of every service goes
 * queued -> running -> succeeded | failed | cancelled; a queued job may also end without running
 * (cancelled, or failed when its service stops or restarts). Each service names the states in
 * its own words at its edge (`StatusWords`), so its wire format stays its own.
 */

/** Every state, in lifecycle order. */
export const JOB_STATES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;

/** Where a job is. */
export type JobState = typeof JOB_STATES[number];

/** The states each state may move to; a final state moves nowhere. */
export const JOB_TRANSITIONS: Readonly<Record<JobState, readonly JobState[]>> = {
  queued: ["running", "failed", "cancelled"],
  running: ["succeeded", "failed", "cancelled"],
  succeeded: [],
  failed: [],
  cancelled: [],
};

/** Whether a state is final (the job holds its result or error from then on). */
export function isFinalState(state: JobState): boolean {
  return JOB_TRANSITIONS[state].length === 0;
}

/** Whether a job in `from` may move to `to`. */
export function canMove(from: JobState, to: JobState): boolean {
  return JOB_TRANSITIONS[from].includes(to);
}

/** A move the table does not allow: a fault in the code that asked for it. */
export class JobTransitionError extends Error {
  constructor(readonly from: JobState, readonly to: JobState) {
    super(`A job cannot move from ${from} to ${to}`);
    this.name = "JobTransitionError";
  }
}

/** A service's word for each state, e.g. the runner's `pending` for `queued`. */
export type StatusWords<Word extends string> = Readonly<Record<JobState, Word>>;
