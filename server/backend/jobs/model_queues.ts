/**
 * One queue per model for the work that must not interleave: a model's deletion and the
 * submissions of its runs. A submission records its job only while the model exists, and a
 * deletion ends the model's jobs before any later submission of it gets in (issue 18).
 */
import { type Enqueue, serialQueue } from "../../../lib/concurrency/serial_queue.ts";

/** Serial queues keyed by model id, each kept only while it has work. */
export class ModelQueues {
  readonly #queues = new Map<string, { enqueue: Enqueue; users: number }>();

  /** Runs `task` after every earlier task of the same model has settled. */
  async run<T>(modelId: string, task: () => Promise<T>): Promise<T> {
    let queue = this.#queues.get(modelId);
    if (!queue) {
      queue = { enqueue: serialQueue(), users: 0 };
      this.#queues.set(modelId, queue);
    }
    queue.users++;
    try {
      return await queue.enqueue(task);
    } finally {
      if (--queue.users === 0) this.#queues.delete(modelId);
    }
  }
}
