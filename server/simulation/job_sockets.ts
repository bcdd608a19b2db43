/**
 * The WebSockets that follow jobs: a socket follows the job of its route (or the job a
 * `{job_id}` message names), gets the job's frames and closes after the final one. A result too
 * large for one frame comes as `result_ready` with the URL to read it from; a socket with more
 * than the buffer bound (SIM_WS_MAX_BUFFER_MB) unsent is closed with 1008 instead of buffered
 * for.
 */
import type { Context } from "hono";
import type { SimulationJobs } from "../../lib/simulation/simulation_jobs.ts";
import { detail, mib } from "./answers.ts";
import type { JobHandlers } from "./job_handlers.ts";

/** Longest WebSocket message read (a `{job_id}`), characters. */
const MAX_MESSAGE_CHARS = 1024;

/** The sockets of one service. */
export interface JobSockets {
  /** Answers a WebSocket upgrade following `jobId` (or the job a `{job_id}` message names). */
  open(c: Context, jobId: string | undefined): Response;
  /** Sockets open (a socket closed for not reading leaves at once). */
  readonly size: number;
  /** Closes every open socket. */
  closeAll(code: number, reason: string): void;
}

/** The sockets over `jobs`; results too large for a frame are read below `prefix`. */
export function jobSockets<Payload>(options: {
  jobs: SimulationJobs<Payload>;
  prefix: string;
  /** Most bytes a socket may have unsent (SIM_WS_MAX_BUFFER_MB). */
  bufferBound: number;
  find: JobHandlers["find"];
}): JobSockets {
  const { jobs, prefix, bufferBound, find } = options;
  const sockets = new Set<WebSocket>();

  /**
   * Sends a text unless the socket has more than the bound waiting: a client that does not
   * read is closed (1008) instead of buffered for. False when nothing was sent.
   */
  const send = (socket: WebSocket, text: string): boolean => {
    if (socket.readyState !== WebSocket.OPEN) return false;
    if (socket.bufferedAmount + text.length > bufferBound) {
      socket.close(
        1008,
        `over ${mib(bufferBound)} MiB unsent (SIM_WS_MAX_BUFFER_MB): the client does not read`,
      );
      sockets.delete(socket);
      return false;
    }
    socket.send(text);
    return true;
  };
  const sendError = (socket: WebSocket, error: string) =>
    send(socket, JSON.stringify({ type: "error", error }));

  const open = (c: Context, jobId: string | undefined) => {
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
      return detail(c, 426, "WebSocket upgrade expected at this path");
    }
    if (jobId !== undefined) {
      const found = find(c, jobId);
      if (found instanceof Response) return found;
    }
    const { socket, response } = Deno.upgradeWebSocket(c.req.raw);
    let unsubscribe: (() => void) | undefined;
    const follow = (id: string) => {
      unsubscribe?.();
      unsubscribe = jobs.subscribe(id, (frame, text) => {
        if (frame.type === "result_ready") {
          // Too large for a frame: the client's polling fallback reads it, streamed.
          text = JSON.stringify({
            ...frame,
            job_id: id,
            result_url: `${prefix}/result/${id}`,
            detail: `${frame.detail}: GET ${prefix}/result/${id} or /jobs/${id}`,
          });
        }
        if (!send(socket, text)) throw new Error("socket closed or not reading");
        // The final frame ends the conversation; the client then has all it needs.
        if (frame.type !== "progress") socket.close(1000, "job finished");
      });
      if (!unsubscribe) {
        sendError(socket, `Unknown or expired job: ${id}`);
        socket.close(1008, "unknown job");
      }
    };
    socket.onopen = () => {
      sockets.add(socket);
      if (jobId !== undefined) follow(jobId);
    };
    socket.onmessage = (event) => {
      if (socket.readyState !== WebSocket.OPEN) return; // closing: nothing more is sent
      if (event.data === "ping") return void send(socket, "pong");
      let id: unknown;
      // Only a short `{job_id}` is expected: anything longer is not parsed.
      if (typeof event.data === "string" && event.data.length <= MAX_MESSAGE_CHARS) {
        try {
          const message = JSON.parse(event.data);
          id = message?.job_id ?? message?.jobId ?? message?.id;
        } catch {
          id = undefined;
        }
      }
      if (typeof id === "string" && id !== "") follow(id);
      else {
        sendError(
          socket,
          `Send {"job_id": "..."} (at most ${MAX_MESSAGE_CHARS} characters) or "ping"`,
        );
      }
    };
    socket.onclose = () => {
      unsubscribe?.();
      sockets.delete(socket);
    };
    socket.onerror = () => {};
    return response;
  };

  return {
    open,
    get size() {
      return sockets.size;
    },
    closeAll(code: number, reason: string) {
      for (const socket of sockets) {
        try {
          socket.close(code, reason);
        } catch {
          // already closing
        }
      }
      sockets.clear();
    },
  };
}
