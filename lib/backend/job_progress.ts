/**
 * A job's progress as one integer 0-100 from what the runner reports, by this rule:
 *
 * - waiting (submitted, not yet started by a runner worker): 0;
 * - building the linear program (runner `progress` phase `build`, pct p): 0-10, `p / 10`;
 * - solving (phase `solve`): 10-95. The runner says 0 at the start and 100 at the end only,
 *   so in between the value moves with the solver's work: u = solver log lines since the
 *   solve began + seconds since it began, and progress = 10 + 85 * u / (u + 60), which moves
 *   quickly at first, slows down, and never reaches 95 before the runner says the solve ended;
 * - solve ended (phase `solve`, pct 100): 95 (reading the result back);
 * - finished (`done`): 100. A failed or cancelled job keeps the last value.
 *
 * The value never goes down.
 */

/** Where the run is, as the runner said. */
export type RunPhase = "waiting" | "build" | "solve" | "solved" | "done";

/** Half the solve band is reached after this many units (log lines + seconds). */
export const SOLVE_HALF_UNITS = 60;

/** Follows one job's events; `value(now)` is its progress. */
export class JobProgress {
  #phase: RunPhase = "waiting";
  #buildPct = 0;
  #solveStartMs = 0;
  #solveLines = 0;
  #last = 0;

  /** The current phase. */
  get phase(): RunPhase {
    return this.#phase;
  }

  /** A runner `progress` event. */
  onProgress(phase: string, pct: number, nowMs: number): void {
    if (phase === "build" && (this.#phase === "waiting" || this.#phase === "build")) {
      this.#phase = "build";
      this.#buildPct = Math.max(this.#buildPct, clampPct(pct));
    } else if (phase === "solve") {
      if (pct >= 100) this.#phase = "solved";
      else if (this.#phase !== "solve" && this.#phase !== "solved" && this.#phase !== "done") {
        this.#phase = "solve";
        this.#solveStartMs = nowMs;
      }
    }
  }

  /** A runner log line: during the solve it counts as work done. */
  onLog(): void {
    if (this.#phase === "solve") this.#solveLines++;
  }

  /** The run ended with a result. */
  onDone(): void {
    this.#phase = "done";
  }

  /** Progress now, an integer 0-100 that never decreases. */
  value(nowMs: number): number {
    let raw: number;
    switch (this.#phase) {
      case "waiting":
        raw = 0;
        break;
      case "build":
        raw = this.#buildPct / 10;
        break;
      case "solve": {
        const units = this.#solveLines + Math.max(0, nowMs - this.#solveStartMs) / 1000;
        raw = 10 + 85 * units / (units + SOLVE_HALF_UNITS);
        break;
      }
      case "solved":
        raw = 95;
        break;
      case "done":
        raw = 100;
        break;
    }
    this.#last = Math.max(this.#last, Math.min(this.#phase === "done" ? 100 : 95, Math.floor(raw)));
    return this.#last;
  }
}

function clampPct(pct: number): number {
  return Number.isFinite(pct) ? Math.min(100, Math.max(0, pct)) : 0;
}
