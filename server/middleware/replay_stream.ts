/**
 * A server-sent event stream over a producer that replays its history to a new subscriber and
 * then sends live frames (a runner job's events, a region download's progress): each frame one
 * unnamed `data: <json>` line and a blank line, as the existing frontend parses them, and a
 * `: keepalive` comment whenever a while passes without a frame. The response ends right after
 * a final frame, when the client goes away (the producer goes on), or when the service stops
 * (the client then gets a last frame saying so).
 */

/** The idle frame. */
export const KEEPALIVE_FRAME = ": keepalive\n\n";

/** The wire form of one frame: one `data:` line (JSON has no raw newlines) and a blank line. */
export function dataFrame(frame: unknown): string {
  return `data: ${JSON.stringify(frame)}\n\n`;
}

/** The producer and the rules of one stream. */
export interface ReplayStreamOptions<F> {
  /**
   * Calls `listener` with every frame so far (synchronously, before it returns) and then with
   * each new one; answers the unsubscribe function.
   */
  subscribe(listener: (frame: F) => void): () => void;
  /** Whether a frame is the last of the producer (the stream ends after it). */
  isFinal(frame: F): boolean;
  /** The last frame a client gets when the service stops. */
  shutdownFrame: F;
  /** The service's shutdown signal. */
  shutdown: AbortSignal;
  /** A `: keepalive` comment after this long without a frame, ms. */
  keepaliveMs: number;
  /** Text sent before the history (e.g. a `: connected` comment). */
  opening?: string;
  /** Headers besides the event-stream ones. */
  headers?: Record<string, string>;
}

const encoder = new TextEncoder();

/** The event-stream response: `opening`, the history, then live frames. */
export function replayedEventStream<F>(options: ReplayStreamOptions<F>): Response {
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
  const onFrame = (frame: F) => {
    write(dataFrame(frame));
    if (options.isFinal(frame)) end();
  };
  const onShutdown = () => {
    write(dataFrame(options.shutdownFrame));
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
  if (options.opening) write(options.opening);
  if (shutdown.aborted) onShutdown();
  else {
    shutdown.addEventListener("abort", onShutdown, { once: true });
    // The history is replayed synchronously and may already end the stream.
    const stop = options.subscribe(onFrame);
    if (ended) stop();
    else unsubscribe = stop;
  }
  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache",
      "X-Accel-Buffering": "no",
      ...options.headers,
    },
  });
}
