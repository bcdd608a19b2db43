/**
 * The frames a job's subscribers receive: progress frames while it runs, then one final frame
 * (the result, `result_ready` when the result is too large for one frame, or an error). Each
 * frame travels with its JSON text, serialised once for every subscriber; a result's text is
 * written in pieces with yields, and only when it fits in one socket frame.
 */
import { jsonPieces } from "./json_pieces.ts";
import type { MeasuredWeight } from "./result_weight.ts";
import type { SimulationRun, StepTelemetry } from "./simulation_model.ts";
import { WorkSlices } from "../concurrency/yield_to_event_loop.ts";

/** A telemetry frame: the progress of the latest step and that step's numbers. */
export type ProgressFrame = {
  type: "progress";
  progress_pct: number;
  step: number;
  t_s: number;
} & StepTelemetry;

/** The last frame of a finished run. */
export type FinalFrame =
  /** The result, when its frame is at most `maxFrameBytes`. */
  | { type: "result"; result: Record<string, unknown> }
  /** Done, but the result is too large for one frame: the client reads it by polling. */
  | { type: "result_ready"; progress_pct: 100; result_values: number; detail: string }
  | {
    type: "error";
    error: string;
    /** `done` with `result_dropped` for a result dropped to bound memory. */
    status: "error" | "cancelled" | "done";
    result_dropped?: true;
  };

/** Any frame a subscriber receives. */
export type SimulationFrame = ProgressFrame | FinalFrame;

/**
 * Receives each frame with its JSON text (serialised once for every subscriber, so 64 sockets
 * on one job cost one serialisation).
 */
export type FrameListener = (frame: SimulationFrame, text: string) => void;

/** A frame with its JSON text. */
export interface Framed<Frame extends SimulationFrame> {
  frame: Frame;
  text: string;
}

/** What a run that reached its end brings: its result, its weight, its frame's text if any. */
export interface DoneResult {
  result: Record<string, unknown>;
  weight: MeasuredWeight;
  /** The result frame's JSON text; undefined when it is longer than `maxFrameBytes`. */
  text: string | undefined;
}

/** A frame with its JSON text, serialised here. */
export function framed<Frame extends SimulationFrame>(frame: Frame): Framed<Frame> {
  return { frame, text: JSON.stringify(frame) };
}

/** Rounds a percentage to 0.01 for the frames. */
function percent(done: number, total: number): number {
  return total === 0 ? 100 : Math.round((done / total) * 10_000) / 100;
}

/** The progress frame of a run's latest step. */
export function progressFrame(run: SimulationRun): ProgressFrame {
  return {
    ...run.telemetry(),
    type: "progress",
    progress_pct: percent(run.stepsDone, run.totalSteps),
    step: run.stepsDone,
    t_s: run.t_s,
  } as ProgressFrame;
}

/**
 * The final frame of a done run: the result when its text fits in `maxFrameBytes`, else
 * `result_ready`, which sends the client to poll.
 */
export function resultFrame(done: DoneResult, maxFrameBytes: number): Framed<FinalFrame> {
  if (done.text !== undefined) {
    return { frame: { type: "result", result: done.result }, text: done.text };
  }
  return framed({
    type: "result_ready",
    progress_pct: 100,
    result_values: done.weight.values,
    detail: `The result (${done.weight.values} values) is larger than one frame may ` +
      `carry (${maxFrameBytes} bytes); read it by polling the job`,
  });
}

/** The final frame of a run that ended without a result. */
export function endFrame(status: "done" | "error" | "cancelled", error: string | null): FinalFrame {
  return {
    type: "error",
    error: error ?? status,
    status: status === "done" ? "error" : status,
  };
}

/** The final frame of a done job whose result was dropped to keep within `maxHeldBytes`. */
export function droppedFrame(id: string, maxHeldBytes: number): FinalFrame {
  return {
    type: "error",
    error: `The result of job ${id} was dropped to bound the memory finished results hold ` +
      `(${maxHeldBytes} bytes); submit the payload again`,
    status: "done",
    result_dropped: true,
  };
}

/**
 * The JSON text of a result frame when it is at most `maxFrameBytes` long, else undefined;
 * written in pieces with a yield every `sliceMs`, and abandoned once past the bound.
 */
export async function resultFrameText(
  frame: FinalFrame,
  weight: MeasuredWeight,
  maxFrameBytes: number,
  sliceMs: number,
): Promise<string | undefined> {
  // Each number takes at least two characters ("0,"): no need to try beyond that.
  if (weight.values * 2 > maxFrameBytes) return undefined;
  const parts: string[] = [];
  let length = 0;
  const slices = new WorkSlices(sliceMs);
  for (const piece of jsonPieces(frame)) {
    length += piece.length;
    if (length > maxFrameBytes) return undefined;
    parts.push(piece);
    await slices.yieldIfDue();
  }
  return parts.join("");
}
