/** Small fakes of the catalogue-proxy tests: a server on a free port, a recording fetch. */

/** A server on a free local port; `close()` stops it. */
export interface Served {
  url: string;
  close(): Promise<void>;
}

/** Serves `handler` on a free port of 127.0.0.1. */
export function serve(handler: (request: Request) => Response | Promise<Response>): Served {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** A response's status, headers and parsed JSON body (text when not JSON). */
export async function reply(res: Response) {
  const text = await res.text();
  const type = res.headers.get("content-type") ?? "";
  // deno-lint-ignore no-explicit-any
  const body: any = type.includes("json") && text !== "" ? JSON.parse(text) : text;
  return { status: res.status, headers: res.headers, body };
}

/** A fetch that records the request it gets and answers `answer`. */
export function recordingFetch(answer: () => Response) {
  const seen: Request[] = [];
  const fetchFn: typeof fetch = (input, init) => {
    seen.push(new Request(input, init));
    return Promise.resolve(answer());
  };
  return { seen, fetchFn };
}
