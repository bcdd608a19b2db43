/**
 * A model run's events (the runner's jobs and the backend's) as server-sent events, framed
 * exactly as the existing frontend parses them (`EventSource` with only `onmessage`): a
 * `: connected` comment first, then each event as one unnamed `data: <json>` line and a blank
 * line (no `event:` or `id:` lines: named events would never reach that client), a `: keepalive`
 * comment whenever a while passes without a frame. The response ends right after a `done` or
 * `error` event, when the client goes away, or when the service stops (the client then gets a
 * last `error` event saying so).
 */
import { dataFrame, replayedEventStream } from "./replay_stream.ts";
import { isFinal, type RunEvent } from "../../lib/runner/run_events.ts";

/** How a stream ends from outside, and how often it speaks when idle. */
export interface RunStreamOptions {
  /** The service's shutdown signal. */
  shutdown: AbortSignal;
  /** A `: keepalive` comment after this long without a frame, ms. */
  keepaliveMs: number;
}

/** The first frame of every stream. */
export const CONNECTED_FRAME = ": connected\n\n";

/** The idle frame. */
export { KEEPALIVE_FRAME } from "./replay_stream.ts";

/** The message of the last event of a stream ended by a stop. */
export const SHUTDOWN_MESSAGE = "The runner service is stopping";

/** The wire form of one event: one `data:` line (JSON has no raw newlines) and a blank line. */
export function formatFrame(event: RunEvent): string {
  return dataFrame(event);
}

/**
 * Where a stream's events come from: a job's `JobEventLog`, or any source that hands a listener
 * the history and then the live events (synchronously or later, e.g. read from Redis).
 */
export interface RunEventSource {
  subscribe(listener: (event: RunEvent) => void): () => void;
}

/** The event-stream response of one job's events, history first. */
export function runEventStream(events: RunEventSource, options: RunStreamOptions): Response {
  return replayedEventStream<RunEvent>({
    subscribe: (listener) => events.subscribe(listener),
    isFinal,
    shutdownFrame: { type: "error", error: SHUTDOWN_MESSAGE },
    shutdown: options.shutdown,
    keepaliveMs: options.keepaliveMs,
    opening: CONNECTED_FRAME,
  });
}
