/**
 * Streams the elements of an `.osm.pbf` file with npm osm-pbf-parser, block by block.
 */
import parseOSM from "osm-pbf-parser";
import { createReadStream } from "node:fs";
import { PassThrough } from "node:stream";
import type { OsmElement, OsmMember, OsmTags } from "./osm_element.ts";

interface RawItem {
  type: string;
  id: number;
  lat?: number;
  lon?: number;
  tags?: OsmTags;
  refs?: number[];
  members?: { type: string; id: number; role?: string }[];
}

function toElement(item: RawItem): OsmElement | undefined {
  const tags = item.tags ?? {};
  switch (item.type) {
    case "node":
      return { type: "node", id: item.id, lon: item.lon ?? NaN, lat: item.lat ?? NaN, tags };
    case "way":
      return { type: "way", id: item.id, refs: item.refs ?? [], tags };
    case "relation":
      return {
        type: "relation",
        id: item.id,
        tags,
        members: (item.members ?? []).map((m): OsmMember => ({
          type: m.type === "node" || m.type === "way" ? m.type : "relation",
          ref: m.id,
          role: m.role ?? "",
        })),
      };
  }
  return undefined; // header blocks and other non-element items
}

/**
 * Yields the elements of the PBF file at `path` one file block (about 8,000 elements) at a
 * time. The file is read as a stream: only the blocks not yet consumed are held in memory, and
 * the parser pauses while the caller awaits (backpressure through the piped PassThrough).
 */
export async function* readOsmPbf(path: string): AsyncGenerator<OsmElement[]> {
  const source = createReadStream(path);
  const parser = parseOSM();
  // osm-pbf-parser builds on readable-stream 2, which has no async iterator; a node:stream
  // PassThrough in object mode has one and passes backpressure back through pipe().
  const pass = new PassThrough({ objectMode: true, highWaterMark: 2 });
  source.on("error", (e: Error) => pass.destroy(e));
  parser.on("error", (e: Error) => pass.destroy(new SyntaxError(`${path}: ${e.message}`)));
  source.pipe(parser).pipe(pass);
  try {
    for await (const items of pass as AsyncIterable<RawItem[]>) {
      const batch: OsmElement[] = [];
      for (const item of items) {
        const element = toElement(item);
        if (element) batch.push(element);
      }
      if (batch.length > 0) yield batch;
    }
  } finally {
    source.destroy();
    pass.destroy();
  }
}
