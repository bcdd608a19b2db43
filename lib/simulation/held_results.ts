/**
 * The memory finished jobs hold: each counts its record and its result, and beyond
 * `maxHeldBytes` the oldest results are dropped first (their job remembers it, at most
 * `maxDroppedKept` of them); finished jobs older than the time to live are forgotten. Both lists
 * are kept in finishing order, so a sweep or a drop only reads the jobs it removes.
 */
import { droppedFrame, framed } from "./simulation_frames.ts";
import type { JobRecord } from "./simulation_job.ts";

/** Bytes counted for any finished job besides its result (its record, frames, id). */
export const JOB_OVERHEAD_BYTES = 2048;

type Job = JobRecord<unknown>;

/** The finished jobs of one manager and the bytes they hold. */
export class HeldResults {
  /** Finished jobs that hold their result and frames, in the order they finished. */
  readonly #finished = new Map<string, Job>();
  /** Finished jobs whose result was dropped (or that were pushed out), in that order. */
  readonly #dropped = new Map<string, Job>();
  #bytes = 0;

  /** `forget` removes a job from the manager (expired, or beyond `maxDroppedKept`). */
  constructor(
    readonly maxHeldBytes: number,
    readonly maxDroppedKept: number,
    private readonly forget: (id: string) => void,
  ) {}

  /** Bytes the finished jobs hold. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Counts a job that just finished, then drops the oldest results beyond `maxHeldBytes`. */
  hold(job: Job, resultBytes: number): void {
    job.heldBytes = JOB_OVERHEAD_BYTES + resultBytes;
    this.#bytes += job.heldBytes;
    this.#finished.set(job.id, job);
    this.#bound();
  }

  /** Forgets finished jobs that finished `ttlMs` or more before `now`. */
  sweep(now: number, ttlMs: number): void {
    for (const list of [this.#finished, this.#dropped]) {
      for (const [id, job] of list) {
        if (now - job.finishedAt! < ttlMs) break;
        this.#release(list, id, job);
        this.forget(id);
      }
    }
  }

  /** Takes a job out of a list, its bytes no longer counted. */
  #release(list: Map<string, Job>, id: string, job: Job): void {
    list.delete(id);
    this.#bytes -= job.heldBytes;
    job.heldBytes = 0;
  }

  /** Drops the oldest results while the finished jobs hold more than `maxHeldBytes`. */
  #bound(): void {
    for (const [id, job] of this.#finished) {
      if (this.#bytes <= this.maxHeldBytes) break;
      this.#release(this.#finished, id, job);
      delete job.latest;
      if (job.status === "done") {
        delete job.result;
        job.resultDropped = true;
        job.final = framed(droppedFrame(id, this.maxHeldBytes));
      }
      this.#dropped.set(id, job);
    }
    for (const [id] of this.#dropped) {
      if (this.#dropped.size <= this.maxDroppedKept) break;
      this.#dropped.delete(id);
      this.forget(id);
    }
  }
}
