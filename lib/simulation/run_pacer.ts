/**
 * The pace of a run: its steps are advanced in slices of about `sliceMs` of computation (the
 * job manager yields to the event loop between two slices), in chunks adapted so that one
 * advance call takes about 1 ms, with a progress frame about every 1 % of the steps and no
 * closer than `minFrameIntervalMs`.
 */
import type { SimulationRun } from "./simulation_model.ts";

/** What the pacer reports to the job manager. */
export interface RunPaceHooks {
  /** Time spent advancing the run, ms. */
  computed(ms: number): void;
  /** Sends a progress frame begun at `start` (`performance.now()`); answers when it was sent. */
  progress(start: number): number;
}

/** Advances one run slice by slice. */
export class RunPacer {
  readonly #run: SimulationRun;
  readonly #total: number;
  readonly #sliceMs: number;
  readonly #minFrameIntervalMs: number;
  readonly #hooks: RunPaceHooks;
  readonly #frameEvery: number;
  #nextFrameStep: number;
  #lastFrameAt = -Infinity;
  /** Steps per advance call, adapted so one call takes about 1 ms. */
  #chunk = 16;

  constructor(
    run: SimulationRun,
    pace: { sliceMs: number; minFrameIntervalMs: number },
    hooks: RunPaceHooks,
  ) {
    this.#run = run;
    this.#total = run.totalSteps;
    this.#sliceMs = pace.sliceMs;
    this.#minFrameIntervalMs = pace.minFrameIntervalMs;
    this.#hooks = hooks;
    // A frame about every 1 % of the steps, no closer than minFrameIntervalMs.
    this.#frameEvery = Math.max(1, Math.ceil(this.#total / 100));
    this.#nextFrameStep = this.#frameEvery;
  }

  /** Whether every step is done. */
  get ended(): boolean {
    return this.#run.stepsDone >= this.#total;
  }

  /**
   * Advances the run for about `sliceMs` (or to its last step); answers false when it stalled
   * (an advance call did no step).
   */
  slice(): boolean {
    const run = this.#run;
    const total = this.#total;
    const sliceStart = performance.now();
    let now = sliceStart;
    while (run.stepsDone < total && now - sliceStart < this.#sliceMs) {
      const before = performance.now();
      const want = Math.min(this.#chunk, Math.max(1, this.#nextFrameStep - run.stepsDone));
      const did = run.advance(want);
      now = performance.now();
      this.#hooks.computed(now - before);
      if (did === 0) return false;
      if (did === want && now - before < 0.5) this.#chunk = Math.min(this.#chunk * 2, 1 << 20);
      else if (now - before > 2 && this.#chunk > 1) this.#chunk = Math.max(1, this.#chunk >> 1);
      if (run.stepsDone >= this.#nextFrameStep) {
        if (now - this.#lastFrameAt >= this.#minFrameIntervalMs && run.stepsDone < total) {
          now = this.#lastFrameAt = this.#hooks.progress(now);
        }
        while (this.#nextFrameStep <= run.stepsDone) this.#nextFrameStep += this.#frameEvery;
      }
    }
    return true;
  }
}
