/**
 * A job's events as server-sent events, framed exactly as the existing frontend parses them
 * (`EventSource` with only `onmessage`): a `: connected` comment first, then each event as one
 * unnamed `data: <json>` line and a blank line (no `event:` or `id:` lines: named events would
 * never reach that client), a `: keepalive` comment whenever a while passes without a frame.
 * The response ends right after a `done` or `error` event, when the client goes away, or when
 * the service stops (the client then gets a last `error` event saying so).
 */
import { isFinal, type JobEventLog, type RunEvent } from "./job_events.ts";

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
export const KEEPALIVE_FRAME = ": keepalive\n\n";

/** The message of the last event of a stream ended by a stop. */
export const SHUTDOWN_MESSAGE = "The runner service is stopping";

/** The wire form of one event: one `data:` line (JSON has no raw newlines) and a blank line. */
export function formatFrame(event: RunEvent): string {
  return `data: ${JSON.stringify(event)}\n\n`;
}

const encoder = new TextEncoder();

/** The event-stream response of one job's events, history first. */
export function runEventStream(events: JobEventLog, options: RunStreamOptions): Response {
  const { shutdown, keepaliveMs } = options;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let ended = false;
  let keepalive: ReturnType<typeof setTimeout> | undefined;
  let unsubscribe: () => void = () => {};

  const end = () => {
    if (ended) return;
    ended = true;
    clearTimeout(keepalive);
    shutdown.removeEventListener("abort", onShutdown);
    unsubscribe();
    try {
      controller.close();
    } catch {
      // already closed by a cancelled reader
    }
  };
  const write = (text: string) => {
    if (ended) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      end();
      return;
    }
    clearTimeout(keepalive);
    keepalive = setTimeout(() => write(KEEPALIVE_FRAME), keepaliveMs);
  };
  const onEvent = (event: RunEvent) => {
    write(formatFrame(event));
    if (isFinal(event)) end();
  };
  const onShutdown = () => {
    write(formatFrame({ type: "error", error: SHUTDOWN_MESSAGE }));
    end();
  };

  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      end();
    },
  });
  write(CONNECTED_FRAME);
  if (shutdown.aborted) {
    onShutdown();
  } else {
    shutdown.addEventListener("abort", onShutdown, { once: true });
    // The history is replayed synchronously, and may already end the stream.
    const stop = events.subscribe(onEvent);
    if (ended) stop();
    else unsubscribe = stop;
  }
  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache",
      "X-Accel-Buffering": "no",
    },
  });
}
