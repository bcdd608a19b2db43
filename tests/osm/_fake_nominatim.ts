/**
 * A local fake Nominatim: `/search?q=...&format=jsonv2&limit=1` answered in Nominatim's real
 * jsonv2 shape (lat/lon and boundingbox as strings, boundingbox [minLat, maxLat, minLon, maxLon]).
 * It records each request's query, User-Agent and arrival time.
 */

/** Nominatim's jsonv2 answer for "Vaduz" (trimmed to the members a client reads, plus some). */
export const VADUZ_JSONV2 = [{
  place_id: 150224957,
  licence: "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright",
  osm_type: "relation",
  osm_id: 1155956,
  lat: "47.1392862",
  lon: "9.5227962",
  category: "boundary",
  type: "administrative",
  place_rank: 16,
  importance: 0.5669,
  addresstype: "town",
  name: "Vaduz",
  display_name: "Vaduz, Liechtenstein",
  boundingbox: ["47.0951000", "47.1800000", "9.4800000", "9.6300000"],
}];

/** One request the fake saw. */
export interface SeenRequest {
  q: string | null;
  format: string | null;
  limit: string | null;
  userAgent: string | null;
  at: number;
}

/** A running fake: its base URL, the requests seen, and how to stop it. */
export interface FakeNominatim {
  url: string;
  seen: SeenRequest[];
  /** Time each answer takes, ms (default 0). */
  delayMs: number;
  close(): Promise<void>;
}

/**
 * Starts the fake on a free port; a query containing "vaduz" (an address such as "Städtle 1,
 * Vaduz" too) is found as Vaduz, "fail" answers 503, anything else `[]`.
 */
export function startFakeNominatim(): FakeNominatim {
  const seen: SeenRequest[] = [];
  // Delayed answers are cut short when the fake closes.
  const timers = new Map<ReturnType<typeof setTimeout>, () => void>();
  const fake: FakeNominatim = {
    url: "",
    seen,
    delayMs: 0,
    close: () => {
      for (const [timer, resolve] of timers) {
        clearTimeout(timer);
        resolve();
      }
      return server.shutdown();
    },
  };
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (request) => {
    const url = new URL(request.url);
    const q = url.searchParams.get("q");
    seen.push({
      q,
      format: url.searchParams.get("format"),
      limit: url.searchParams.get("limit"),
      userAgent: request.headers.get("user-agent"),
      at: performance.now(),
    });
    if (fake.delayMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, fake.delayMs);
        timers.set(timer, resolve);
      });
    }
    if (url.pathname !== "/search") return new Response("not found", { status: 404 });
    if (q === "fail") return new Response("overloaded", { status: 503 });
    const body = q?.toLowerCase().includes("vaduz") ? VADUZ_JSONV2 : [];
    return Response.json(body);
  });
  fake.url = `http://127.0.0.1:${server.addr.port}`;
  return fake;
}

/** A base URL on a port nobody listens on (taken, then released). */
export function closedPortUrl(): string {
  const listener = Deno.listen({ port: 0, hostname: "127.0.0.1" });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return `http://127.0.0.1:${port}`;
}
