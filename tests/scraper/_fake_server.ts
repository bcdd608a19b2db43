/**
 * A local fake HTTP server for the scraper tests: answers on 127.0.0.1 with the handler's
 * responses and records the requests it received.
 */

/** A running fake server. */
export interface FakeServer {
  /** `http://127.0.0.1:<port>`, the base URL to configure. */
  readonly url: string;
  /** URLs of the requests received, in order. */
  readonly requests: URL[];
  /** Bodies of the requests received (empty string for GET). */
  readonly bodies: string[];
  /** Headers of the requests received. */
  readonly headers: Headers[];
  /** A response that never comes before close(): for timeout tests. */
  hang(): Promise<Response>;
  close(): Promise<void>;
}

/** Starts a fake server with `handler` on a free port. */
export function startFakeServer(
  handler: (request: Request, url: URL) => Response | Promise<Response>,
): FakeServer {
  const requests: URL[] = [];
  const bodies: string[] = [];
  const headers: Headers[] = [];
  const released = Promise.withResolvers<void>();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    async (request) => {
      const url = new URL(request.url);
      requests.push(url);
      headers.push(request.headers);
      bodies.push(await request.text());
      return handler(request, url);
    },
  );
  const { port } = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    bodies,
    headers,
    hang: () => released.promise.then(() => new Response(null, { status: 503 })),
    async close() {
      released.resolve();
      await server.shutdown();
    },
  };
}

/** A JSON response. */
export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}

/** Reads a fixture from `tests/fixtures/scraper/`. */
export function fixture(name: string): Promise<string> {
  return Deno.readTextFile(new URL(`../fixtures/scraper/${name}`, import.meta.url));
}
