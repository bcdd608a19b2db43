/**
 * How our solves follow HiGHS: its log split into lines, and a stop check polled at HiGHS's
 * interrupt points. Shared by one-off solves (solve_lp.ts) and operate's persistent model
 * (persistent_lp.ts).
 */
import type { Highs } from "./highs_loader.ts";

/**
 * Splits HiGHS log messages into lines. A message may hold several lines or end mid-line, so
 * the unfinished tail waits for the next message; empty lines are dropped.
 */
export class LineRelay {
  #carry = "";
  constructor(private readonly onLine: ((line: string) => void) | undefined) {}

  push(text: string): void {
    if (this.onLine === undefined) return;
    const parts = (this.#carry + text).split("\n");
    this.#carry = parts.pop() ?? "";
    for (const part of parts) this.#emit(part);
  }

  flush(): void {
    const rest = this.#carry;
    this.#carry = "";
    this.#emit(rest);
  }

  #emit(part: string): void {
    const line = part.endsWith("\r") ? part.slice(0, -1) : part;
    if (line.trim() !== "") this.onLine?.(line);
  }
}

/**
 * Registers on `model`'s raw instance (so that it also covers solves after run(), such as the
 * IIS search): log messages go to `onLog`, and the simplex, interior-point (and, for a MIP,
 * branch-and-bound) checkpoints interrupt the solve when `stop()` is true.
 */
export function watchSolve(
  highs: Highs,
  model: ReturnType<Highs["createModel"]>,
  onLog: (message: string) => void,
  stop: () => boolean,
  isMip = false,
): void {
  const { callbackType } = highs.constants;
  model.raw.setCallback((event) => {
    if (event.type === callbackType.logging) {
      onLog(event.message);
    } else if (
      (event.type === callbackType.simplexInterrupt ||
        event.type === callbackType.ipmInterrupt ||
        event.type === callbackType.mipInterrupt) &&
      stop()
    ) {
      event.interrupt();
    }
    return undefined;
  });
  for (
    const type of [
      callbackType.logging,
      callbackType.simplexInterrupt,
      callbackType.ipmInterrupt,
      ...(isMip ? [callbackType.mipInterrupt] : []),
    ]
  ) {
    model.raw.startCallback(type);
  }
}
