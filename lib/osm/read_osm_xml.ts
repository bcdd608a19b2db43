/**
 * Streams the elements of an OSM XML (`.osm`) file. OSM XML is flat and regular (node, way and
 * relation elements with tag, nd and member children), so a small tag scanner over the decoded
 * text stream is enough; it holds one chunk and one unfinished element at a time.
 */
import type { OsmElement, OsmMember, OsmTags } from "./osm_element.ts";

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, name: string) => {
    if (name.startsWith("#x")) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return ENTITIES[name] ?? whole;
  });
}

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/([\w:.-]+)\s*=\s*("([^"]*)"|'([^']*)')/g)) {
    out[m[1] as string] = decodeEntities(m[3] ?? m[4] ?? "");
  }
  return out;
}

interface Open {
  type: "node" | "way" | "relation";
  attrs: Record<string, string>;
  tags: OsmTags;
  refs: number[];
  members: OsmMember[];
}

function number(value: string | undefined, what: string): number {
  const n = Number(value);
  if (value === undefined || !Number.isFinite(n)) {
    throw new SyntaxError(`OSM XML: ${what} is not a number: ${JSON.stringify(value)}`);
  }
  return n;
}

function finish(open: Open): OsmElement {
  const id = number(open.attrs.id, `${open.type} id`);
  switch (open.type) {
    case "node":
      return {
        type: "node",
        id,
        lon: number(open.attrs.lon, `node ${id} lon`),
        lat: number(open.attrs.lat, `node ${id} lat`),
        tags: open.tags,
      };
    case "way":
      return { type: "way", id, refs: open.refs, tags: open.tags };
    case "relation":
      return { type: "relation", id, members: open.members, tags: open.tags };
  }
}

/**
 * Yields the elements of the OSM XML file at `path` in batches of about `batchSize` elements.
 * Throws a SyntaxError for malformed element attributes.
 */
export async function* readOsmXml(path: string, batchSize = 8000): AsyncGenerator<OsmElement[]> {
  using file = await Deno.open(path);
  const text = file.readable.pipeThrough(new TextDecoderStream());
  let buffer = "";
  let open: Open | undefined;
  let batch: OsmElement[] = [];
  for await (const chunk of text) {
    buffer += chunk;
    let at = 0;
    while (true) {
      const start = buffer.indexOf("<", at);
      if (start < 0) {
        at = buffer.length;
        break;
      }
      const end = buffer.indexOf(">", start);
      if (end < 0) {
        at = start;
        break;
      }
      at = end + 1;
      const tag = buffer.slice(start + 1, end);
      if (tag.startsWith("?") || tag.startsWith("!")) continue;
      if (tag.startsWith("/")) {
        const name = tag.slice(1).trim();
        if (open && name === open.type) {
          batch.push(finish(open));
          open = undefined;
        }
        continue;
      }
      const selfClosing = tag.endsWith("/");
      const body = selfClosing ? tag.slice(0, -1) : tag;
      const name = /^[\w:-]+/.exec(body)?.[0] ?? "";
      if (name === "node" || name === "way" || name === "relation") {
        open = { type: name, attrs: attributes(body), tags: {}, refs: [], members: [] };
        if (selfClosing) {
          batch.push(finish(open));
          open = undefined;
        }
      } else if (open && name === "tag") {
        const a = attributes(body);
        if (a.k !== undefined) open.tags[a.k] = a.v ?? "";
      } else if (open && name === "nd") {
        open.refs.push(number(attributes(body).ref, `way ${open.attrs.id} nd ref`));
      } else if (open && name === "member") {
        const a = attributes(body);
        open.members.push({
          type: a.type === "node" || a.type === "way" ? a.type : "relation",
          ref: number(a.ref, `relation ${open.attrs.id} member ref`),
          role: a.role ?? "",
        });
      }
    }
    buffer = buffer.slice(at);
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (open) {
    throw new SyntaxError(`OSM XML ${path}: file ends inside ${open.type} ${open.attrs.id}`);
  }
  if (batch.length > 0) yield batch;
}
