/**
 * A local fake of Geofabrik's download server: serves the Liechtenstein extract at
 * `/europe/liechtenstein-latest.osm.pbf` (the URL path of the regions db built with the fake's
 * URL as base) with a Content-Length, and its `.md5` as Geofabrik writes it
 * (`<hash>  <filename>\n`). The mode, settable between requests, makes it misbehave; `extract`
 * serves other bytes (a corrupt file) under the same name, with their own `.md5`.
 */
import { createHash } from "node:crypto";
import { LAYER_NAMES, type LayerName } from "../../lib/osm/osm_store.ts";

/** The extract served. */
export const LIECHTENSTEIN_PBF = new URL(
  "../../data/geo/liechtenstein/osm/liechtenstein-2024-03-04.osm.pbf",
  import.meta.url,
);

/** Feature counts per map layer of the independently derived cross-check layers. */
export function crossCheckCounts(): Record<LayerName, number> {
  const dir = new URL("../../data/geo/liechtenstein/layers/", import.meta.url);
  return Object.fromEntries(LAYER_NAMES.map((layer) => [
    layer,
    JSON.parse(Deno.readTextFileSync(new URL(`${layer}.geojson`, dir))).features.length,
  ])) as Record<LayerName, number>;
}

/** The URL path of the Liechtenstein extract. */
export const LIECHTENSTEIN_PATH = "/europe/liechtenstein-latest.osm.pbf";

/**
 * How the fake answers: `correct`; `wrong-checksum` (the .md5 names another hash); `no-md5`
 * (the .md5 is 404); `broken` (Content-Length sent, half the bytes written, then the stream
 * aborted); `slow` (the file in small chunks over about `slowMs`); `missing` (the extract 404);
 * `hang` (the extract's request is never answered); `hang-md5` (the `.md5` request is never
 * answered); `stall` (headers and a quarter of the bytes, then nothing); `no-length` (the
 * file in chunks without Content-Length). Requests left hanging end when the fake closes.
 */
export type FakeMode =
  | "correct"
  | "wrong-checksum"
  | "no-md5"
  | "broken"
  | "slow"
  | "missing"
  | "hang"
  | "hang-md5"
  | "stall"
  | "no-length";

/** A running fake. */
export interface FakeGeofabrik {
  /** Base URL, e.g. http://127.0.0.1:12345 (pass as GEOFABRIK_URL). */
  readonly url: string;
  /** The current mode. */
  mode: FakeMode;
  /** Time the `slow` mode takes for the whole file, ms (default 1500). */
  slowMs: number;
  /** Bytes served instead of the Liechtenstein extract (with their own `.md5`); default none. */
  extract: Uint8Array<ArrayBuffer> | undefined;
  /** Paths requested, in order. */
  readonly seen: string[];
  /** Ends the served streams and stops the server. */
  close(): Promise<void>;
}

/** Starts the fake on a free port. */
export async function startFakeGeofabrik(): Promise<FakeGeofabrik> {
  const liechtenstein = await Deno.readFile(LIECHTENSTEIN_PBF);
  const timers = new Set<ReturnType<typeof setTimeout>>();
  // Hanging requests and stalled bodies wait on this; closing the fake ends them.
  let closing!: () => void;
  const closed = new Promise<void>((resolve) => closing = resolve);
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });
  const fake: FakeGeofabrik = {
    url: "",
    mode: "correct",
    slowMs: 1500,
    extract: undefined,
    seen: [],
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      closing();
      await server.shutdown();
    },
  };

  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (request) => {
    const path = new URL(request.url).pathname;
    fake.seen.push(path);
    const mode = fake.mode;
    const bytes = fake.extract ?? liechtenstein;
    const md5 = createHash("md5").update(bytes).digest("hex");
    const headers = {
      "Content-Type": "application/octet-stream",
      "Content-Length": String(bytes.length),
    };
    if (path === `${LIECHTENSTEIN_PATH}.md5`) {
      if (mode === "hang-md5") {
        await closed;
        return new Response("closing", { status: 503 });
      }
      if (mode === "no-md5") return new Response("Not Found", { status: 404 });
      const hash = mode === "wrong-checksum" ? "0".repeat(32) : md5;
      return new Response(`${hash}  liechtenstein-latest.osm.pbf\n`);
    }
    if (path !== LIECHTENSTEIN_PATH || mode === "missing") {
      return new Response("Not Found", { status: 404 });
    }
    if (mode === "hang") {
      await closed;
      return new Response("closing", { status: 503 });
    }
    if (mode === "stall") {
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(bytes.subarray(0, Math.floor(bytes.length / 4)));
          await closed;
          controller.error(new Error("closing"));
        },
      });
      return new Response(body, { headers });
    }
    if (mode === "no-length") {
      let offset = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (offset >= bytes.length) return controller.close();
          controller.enqueue(bytes.slice(offset, offset + 65536));
          offset += 65536;
        },
      });
      return new Response(body, { headers: { "Content-Type": "application/octet-stream" } });
    }
    if (mode === "broken") {
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(bytes.subarray(0, Math.floor(bytes.length / 2)));
          await sleep(50);
          controller.error(new Error("connection lost"));
        },
      });
      return new Response(body, { headers });
    }
    if (mode === "slow") {
      const chunks = 30;
      const size = Math.ceil(bytes.length / chunks);
      let offset = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (offset >= bytes.length) return controller.close();
          await sleep(fake.slowMs / chunks);
          controller.enqueue(bytes.subarray(offset, offset + size));
          offset += size;
        },
      });
      return new Response(body, { headers });
    }
    return new Response(bytes, { headers });
  });
  (fake as { url: string }).url = `http://127.0.0.1:${server.addr.port}`;
  return fake;
}
