/**
 * An optional in-process schedule (off unless configured): calls `run` every `intervalMs`,
 * skipping a tick while the previous run is still going, so runs never overlap.
 */

/** Options of startSchedule. */
export interface ScheduleOptions {
  /** Time between runs, in milliseconds. */
  intervalMs: number;
  /** Starts one run; the schedule waits for it before the next. */
  run: () => Promise<unknown>;
  /** Called with a run's error; runs record their own errors, so the default ignores it. */
  onError?: ((error: unknown) => void) | undefined;
  /** Current time in epoch milliseconds. */
  now?: () => number;
}

/** A running schedule. */
export interface Schedule {
  /** Stops the schedule and resolves when a run in progress has ended. */
  stop(): Promise<void>;
  /** When the next run is due; undefined once stopped. */
  nextRun(): Date | undefined;
  /** True while a scheduled run is in progress. */
  busy(): boolean;
}

/** Starts calling `run` every `intervalMs`; the first run is one interval from now. */
export function startSchedule(options: ScheduleOptions): Schedule {
  if (!Number.isFinite(options.intervalMs) || options.intervalMs <= 0) {
    throw new RangeError(`startSchedule: intervalMs must be positive, got ${options.intervalMs}`);
  }
  const now = options.now ?? Date.now;
  let stopped = false;
  let due = now() + options.intervalMs;
  let inFlight: Promise<void> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const tick = () => {
    due += options.intervalMs;
    // Ticks missed while the process slept are not made up for: the next one is in the future.
    if (due <= now()) due = now() + options.intervalMs;
    timer = setTimeout(tick, Math.max(0, due - now()));
    if (inFlight) return;
    inFlight = Promise.resolve()
      .then(options.run)
      .then(() => undefined, (error) => options.onError?.(error))
      .finally(() => inFlight = undefined);
  };
  timer = setTimeout(tick, options.intervalMs);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
    },
    nextRun: () => stopped ? undefined : new Date(due),
    busy: () => inFlight !== undefined,
  };
}
