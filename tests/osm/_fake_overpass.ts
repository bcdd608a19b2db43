/**
 * A local fake Overpass API: `POST /api/interpreter` with a form field `data` (or GET `?data=`)
 * answered in Overpass's real `[out:json]` + `out geom` format,
 * `{version, generator, osm3s, elements}`: nodes with lat/lon, ways with `nodes` and
 * `geometry: [{lat, lon}]`, relations with `members: [{type, ref, role, geometry}]`.
 *
 * The elements are real Liechtenstein data: the power nodes and ways of
 * data/geo/liechtenstein/osm/liechtenstein_power.osm, and the admin relations of the
 * cross-check layers communes.geojson and districts.geojson, each ring split into two member
 * ways (their geometry is real; the member way ids are made up, negative). The fake selects
 * elements by the query's tag filters (power values, admin_level) but NOT by its bbox: every
 * box gets Liechtenstein's elements, so a test can ask for a box elsewhere and still see the
 * conversion. It records every query, and can answer an HTTP error, stall, or drop the
 * connection on demand.
 */
import { readOsmXml } from "../../lib/osm/read_osm_xml.ts";
import type { OsmNode, OsmWay } from "../../lib/osm/osm_element.ts";

const DIR = new URL("../../data/geo/liechtenstein/", import.meta.url);

/** How the fake answers the next requests. */
export type FakeOverpassMode =
  | "ok"
  | { status: number }
  | "stall"
  | "invalid JSON"
  | "runtime error";

/** A running fake. */
export interface FakeOverpass {
  /** The interpreter URL (what OVERPASS_URL names). */
  readonly url: string;
  /** Overpass QL queries received, in order. */
  readonly queries: string[];
  /** Current answer mode (default "ok"). */
  mode: FakeOverpassMode;
  close(): Promise<void>;
}

type Point = { lat: number; lon: number };
type Element = Record<string, unknown> & {
  type: string;
  id: number;
  tags?: Record<string, string>;
};

function bounds(points: readonly Point[]) {
  return {
    minlat: Math.min(...points.map((p) => p.lat)),
    minlon: Math.min(...points.map((p) => p.lon)),
    maxlat: Math.max(...points.map((p) => p.lat)),
    maxlon: Math.max(...points.map((p) => p.lon)),
  };
}

async function powerElements(): Promise<Element[]> {
  const nodes = new Map<number, OsmNode>();
  const ways: OsmWay[] = [];
  for await (const batch of readOsmXml(new URL("osm/liechtenstein_power.osm", DIR).pathname)) {
    for (const e of batch) {
      if (e.type === "node") nodes.set(e.id, e);
      else if (e.type === "way") ways.push(e);
    }
  }
  const out: Element[] = [];
  for (const n of nodes.values()) {
    if (n.tags.power) out.push({ type: "node", id: n.id, lat: n.lat, lon: n.lon, tags: n.tags });
  }
  for (const w of ways) {
    const geometry = w.refs.map((r) => {
      const n = nodes.get(r);
      return n ? { lat: n.lat, lon: n.lon } : null;
    });
    const known = geometry.filter((p): p is Point => p !== null);
    out.push({
      type: "way",
      id: w.id,
      bounds: bounds(known),
      nodes: [...w.refs],
      geometry,
      tags: w.tags,
    });
  }
  return out;
}

async function adminElements(): Promise<Element[]> {
  let wayId = -1;
  const out: Element[] = [];
  for (const layer of ["communes", "districts"]) {
    const collection = JSON.parse(await Deno.readTextFile(new URL(`layers/${layer}.geojson`, DIR)));
    for (const f of collection.features) {
      const polygons: number[][][][] = f.geometry.type === "Polygon"
        ? [f.geometry.coordinates]
        : f.geometry.coordinates;
      const members: unknown[] = [];
      const all: Point[] = [];
      for (const rings of polygons) {
        rings.forEach((ring, i) => {
          const points = ring.map(([lon, lat]) => ({ lat: lat as number, lon: lon as number }));
          all.push(...points);
          // Two member ways per ring, meeting at their ends, as boundary relations have.
          const half = Math.floor(points.length / 2);
          for (const part of [points.slice(0, half + 1), points.slice(half)]) {
            members.push({
              type: "way",
              ref: wayId--,
              role: i === 0 ? "outer" : "inner",
              geometry: part,
            });
          }
        });
      }
      const { osm_id: osmId, ...tags } = f.properties as Record<string, string>;
      out.push({
        type: "relation",
        id: Number(String(osmId).split("/")[1]),
        bounds: bounds(all),
        members,
        // The cross-check's export drops the relation's `type` tag; boundary relations have it.
        tags: { type: "boundary", ...tags },
      });
    }
  }
  return out;
}

/** The elements the query asks for, by its tag filters. */
function select(query: string, elements: readonly Element[]): Element[] {
  const admin = /\["admin_level"="(\d+)"\]/.exec(query);
  if (admin) {
    return elements.filter((e) => e.type === "relation" && e.tags?.admin_level === admin[1]);
  }
  const power = /\["power"~"\^\(([^)]*)\)\$"\]/.exec(query);
  if (!power) return [];
  const values = (power[1] as string).split("|");
  const types = ["node", "way", "relation"].filter((t) =>
    new RegExp(`(^|[(;])${t}\\[`).test(query)
  );
  return elements.filter((e) => types.includes(e.type) && values.includes(e.tags?.power ?? ""));
}

/** Starts the fake on a free port. */
export async function startFakeOverpass(): Promise<FakeOverpass> {
  const elements = [...await powerElements(), ...await adminElements()];
  const queries: string[] = [];
  const stalled = new Set<() => void>();
  const fake: FakeOverpass = {
    url: "",
    queries,
    mode: "ok",
    close: async () => {
      for (const release of stalled) release();
      await server.shutdown();
    },
  };
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (request) => {
    const url = new URL(request.url);
    const query = request.method === "POST"
      ? (await request.formData()).get("data")?.toString() ?? ""
      : url.searchParams.get("data") ?? "";
    queries.push(query);
    const mode = fake.mode;
    if (typeof mode === "object") {
      return new Response(`<html><body>Error ${mode.status}</body></html>`, {
        status: mode.status,
        headers: { "Content-Type": "text/html" },
      });
    }
    if (mode === "stall") {
      // Never answers in time; released when the fake closes.
      await new Promise<void>((resolve) => stalled.add(resolve));
      return new Response("late", { status: 200 });
    }
    if (mode === "invalid JSON") {
      return new Response("<?xml version='1.0'?><osm/>", {
        headers: { "Content-Type": "text/xml" },
      });
    }
    const body = {
      version: 0.6,
      generator: "Overpass API 0.7.62.1 084b4234",
      osm3s: {
        timestamp_osm_base: "2024-03-04T21:21:35Z",
        copyright: "The data included in this document is from www.openstreetmap.org. " +
          "The data is made available under ODbL.",
      },
      elements: mode === "runtime error" ? [] : select(query, elements),
      ...(mode === "runtime error"
        ? { remark: 'runtime error: Query timed out in "query" at line 1 after 41 seconds.' }
        : {}),
    };
    return Response.json(body);
  });
  (fake as { url: string }).url = `http://127.0.0.1:${server.addr.port}/api/interpreter`;
  return fake;
}

/** A server that accepts connections and closes them without answering; its URL and close. */
export function startDroppingServer(): { url: string; close(): void } {
  const listener = Deno.listen({ port: 0, hostname: "127.0.0.1" });
  (async () => {
    try {
      for await (const conn of listener) {
        // Read the start of the request, then hang up: the client sees the connection reset.
        conn.read(new Uint8Array(1024)).finally(() => conn.close()).catch(() => {});
      }
    } catch {
      // The listener closed.
    }
  })();
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}/api/interpreter`,
    close: () => listener.close(),
  };
}
