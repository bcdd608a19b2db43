/**
 * Server-sent events (text/event-stream) that end cleanly: when the client goes away (the body
 * is cancelled), when the producer closes, or when the process stops (the service's shutdown
 * signal). On a stop the
 * client gets a last `shutdown` event before the stream ends, so it can tell a stop from a
 * network fault; the listener's graceful shutdown then has no open stream left to wait for.
 */

/** One event; `data` is sent as JSON. */
export interface ServerSentEvent {
  event?: string;
  data: unknown;
  id?: string | number;
}

/** What a producer writes to. */
export interface EventSink {
  send(event: ServerSentEvent): void;
  /** Ends the stream; further sends are ignored. */
  close(): void;
  /** Aborted once the stream has ended, for whatever reason. */
  readonly signal: AbortSignal;
}

/** What ends a stream from outside, besides the producer. */
export interface EventStreamOptions {
  /** The service's shutdown signal. */
  shutdown: AbortSignal;
  /** A comment line this often keeps proxies from closing an idle stream, ms (default 15 s). */
  heartbeatMs?: number;
}

/** Name of the last event of a stream ended by a stop. */
export const SHUTDOWN_EVENT = "shutdown";

const encoder = new TextEncoder();

/** The wire form of one event (one `data:` line: JSON has no raw newlines). */
export function formatEvent({ event, data, id }: ServerSentEvent): string {
  let text = "";
  if (id !== undefined) text += `id: ${String(id).replace(/[\r\n]/g, "")}\n`;
  if (event !== undefined) text += `event: ${event.replace(/[\r\n]/g, "")}\n`;
  return `${text}data: ${JSON.stringify(data) ?? "null"}\n\n`;
}

/**
 * A streaming response; `start` gets the sink at once and may return a cleanup, called once
 * when the stream ends.
 */
export function eventStreamResponse(
  { shutdown, heartbeatMs = 15_000 }: EventStreamOptions,
  start: (sink: EventSink) => (() => void) | void,
): Response {
  const ended = new AbortController();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cleanup: (() => void) | void;
  let heartbeat: ReturnType<typeof setInterval> | undefined;

  const write = (text: string) => {
    if (ended.signal.aborted) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      end();
    }
  };
  const end = () => {
    if (ended.signal.aborted) return;
    ended.abort();
    clearInterval(heartbeat);
    shutdown.removeEventListener("abort", onShutdown);
    try {
      controller.close();
    } catch {
      // already closed by a cancelled reader
    }
    cleanup?.();
  };
  const onShutdown = () => {
    write(formatEvent({ event: SHUTDOWN_EVENT, data: { reason: "the server is stopping" } }));
    end();
  };
  const sink: EventSink = {
    send: (event) => write(formatEvent(event)),
    close: end,
    signal: ended.signal,
  };

  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      end();
    },
  });
  if (shutdown.aborted) {
    controller.close();
    ended.abort();
  } else {
    shutdown.addEventListener("abort", onShutdown, { once: true });
    heartbeat = setInterval(() => write(": keep-alive\n\n"), heartbeatMs);
    cleanup = start(sink);
    // The producer may have ended the stream during start, before cleanup was known.
    if (ended.signal.aborted) cleanup?.();
  }
  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Accel-Buffering": "no",
    },
  });
}
