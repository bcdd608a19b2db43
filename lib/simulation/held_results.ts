/**
 * The memory finished jobs hold: each counts its record and its result, and beyond
 * `maxHeldBytes` the oldest results are dropped first (their job remembers it, at most
 * `maxDroppedKept` of them). Both lists are kept in finishing order, so a drop only reads the
 * jobs it removes; the job engine forgets expired jobs and tells `release`.
 */

/** Bytes counted for any finished job besides its result (its record, frames, id). */
export const JOB_OVERHEAD_BYTES = 2048;

/** What the owner does when a result goes or a job is to be forgotten. */
export interface HeldResultsHandlers {
  /** Drops the result and bulky frames of a finished job (it stays readable). */
  drop(id: string): void;
  /** Forgets a finished job (beyond `maxDroppedKept`). */
  forget(id: string): void;
}

/** The finished jobs of one manager and the bytes they hold. */
export class HeldResults {
  /** Finished jobs that hold their result and frames, with their bytes, in finishing order. */
  readonly #finished = new Map<string, number>();
  /** Finished jobs whose result was dropped, in that order. */
  readonly #dropped = new Set<string>();
  #bytes = 0;

  constructor(
    readonly maxHeldBytes: number,
    readonly maxDroppedKept: number,
    private readonly handlers: HeldResultsHandlers,
  ) {}

  /** Bytes the finished jobs hold. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Counts a job that just finished, then drops the oldest results beyond `maxHeldBytes`. */
  hold(id: string, resultBytes: number): void {
    const bytes = JOB_OVERHEAD_BYTES + resultBytes;
    this.#bytes += bytes;
    this.#finished.set(id, bytes);
    this.#bound();
  }

  /** A finished job was forgotten: its bytes are no longer counted. */
  release(id: string): void {
    const bytes = this.#finished.get(id);
    if (bytes !== undefined) {
      this.#finished.delete(id);
      this.#bytes -= bytes;
    }
    this.#dropped.delete(id);
  }

  /** Drops the oldest results while the finished jobs hold more than `maxHeldBytes`. */
  #bound(): void {
    for (const [id, bytes] of this.#finished) {
      if (this.#bytes <= this.maxHeldBytes) break;
      this.#finished.delete(id);
      this.#bytes -= bytes;
      this.handlers.drop(id);
      this.#dropped.add(id);
    }
    for (const id of this.#dropped) {
      if (this.#dropped.size <= this.maxDroppedKept) break;
      this.#dropped.delete(id);
      this.handlers.forget(id);
    }
  }
}
