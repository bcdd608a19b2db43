/**
 * One local fake for all three literature APIs, serving the fixtures under `/openalex`,
 * `/crossref` and `/arxiv`, with per-source failure modes for the pipeline tests.
 */
import type { SourceName } from "../../lib/scraper/source.ts";
import { createSourceClients } from "../../lib/scraper/source_clients.ts";
import type { SourceClient } from "../../lib/scraper/source.ts";
import { type FakeServer, fixture, json, startFakeServer } from "./_fake_server.ts";

/** How a fake source answers. */
export type Behaviour = "ok" | "http500" | "hang" | "bad_payload";

/** The fake sources and clients bound to them. */
export interface FakeSources {
  server: FakeServer;
  clients: Record<SourceName, SourceClient>;
  /** Changes how a source answers from now on. */
  set(source: SourceName, behaviour: Behaviour): void;
  /** Number of requests a source received. */
  count(source: SourceName): number;
  close(): Promise<void>;
}

/** Starts the fake sources; requests time out after `timeoutMs`. */
export async function startFakeSources(timeoutMs = 2_000): Promise<FakeSources> {
  const bodies: Record<SourceName, string> = {
    openalex: await fixture("openalex_works.json"),
    crossref: await fixture("crossref_works.json"),
    arxiv: await fixture("arxiv_query.xml"),
  };
  const behaviours: Record<SourceName, Behaviour> = { openalex: "ok", crossref: "ok", arxiv: "ok" };
  const server: FakeServer = startFakeServer((_request, url) => {
    const source = url.pathname.split("/")[1] as SourceName;
    switch (behaviours[source]) {
      case "http500":
        return new Response("Internal Server Error", { status: 500 });
      case "hang":
        return server.hang();
      case "bad_payload":
        return source === "arxiv" ? new Response("Rate exceeded.") : json({ unexpected: true });
      default:
        return new Response(bodies[source]);
    }
  });
  const clients = createSourceClients({
    baseUrls: {
      openalex: `${server.url}/openalex`,
      crossref: `${server.url}/crossref`,
      arxiv: `${server.url}/arxiv`,
    },
    // No pause between arXiv requests: the fake has no rate limit and the tests no time.
    requestIntervalMs: { arxiv: 0 },
    timeoutMs,
  });
  return {
    server,
    clients,
    set: (source, behaviour) => behaviours[source] = behaviour,
    count: (source) => server.requests.filter((u) => u.pathname.startsWith(`/${source}/`)).length,
    close: () => server.close(),
  };
}
