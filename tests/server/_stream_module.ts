/**
 * A service module for the start/stop tests: `GET /events` is an endless event stream (one
 * `tick` every 50 ms) made with the shared event-stream helper, the way job logs are streamed;
 * `close()` records that it ran. It stands in for no part under test: main.ts and the helper
 * are the real ones.
 */
import { eventStreamResponse } from "../../server/middleware/event_stream.ts";
import type { ServiceModule } from "../../server/service_module.ts";
import { port } from "../../server/env.ts";

/** Modules built by streamModule() record their closes here. */
export const closed: string[] = [];

/** A module named `stream` on STREAM_PORT (default 0). */
export const streamModule: ServiceModule = {
  name: "stream",
  configure(env) {
    return {
      port: port("STREAM_PORT", env["STREAM_PORT"], 0),
      start(context) {
        return Promise.resolve({
          fetch(request) {
            if (new URL(request.url).pathname !== "/events") {
              return new Response("not found", { status: 404 });
            }
            return eventStreamResponse({ shutdown: context.shutdown }, (sink) => {
              let n = 0;
              const timer = setInterval(() => sink.send({ event: "tick", data: ++n }), 50);
              return () => clearInterval(timer);
            });
          },
          close() {
            closed.push("stream");
            context.log("closed");
            return Promise.resolve();
          },
        });
      },
    };
  },
};
