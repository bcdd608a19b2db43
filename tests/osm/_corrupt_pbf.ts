/**
 * Corrupt `.osm.pbf` files for the tests: the kinds of bytes a download server or a broken disk
 * hands over. The first four took the whole process down inside osm-pbf-parser's stream
 * callbacks before issue 18; the HTML page and the half extract were imported as if they were
 * fine (no data, part of the data); flipped bytes were refused already.
 */
import { deflateSync } from "node:zlib";
import { LIECHTENSTEIN_PBF } from "./_fake_geofabrik.ts";

function varint(value: number): number[] {
  const out: number[] = [];
  while (value >= 0x80) {
    out.push((value % 0x80) | 0x80);
    value = Math.floor(value / 0x80);
  }
  out.push(value);
  return out;
}

/** A length-delimited protobuf field. */
function bytesField(field: number, bytes: Uint8Array): number[] {
  return [...varint(field * 8 + 2), ...varint(bytes.length), ...bytes];
}

/** A block's length and BlobHeader {type, datasize}, without its Blob. */
export function blockHead(type: string, dataSize: number): Uint8Array<ArrayBuffer> {
  const header = new Uint8Array([
    ...bytesField(1, new TextEncoder().encode(type)),
    ...varint(3 * 8),
    ...varint(dataSize),
  ]);
  const size = new Uint8Array(4);
  new DataView(size.buffer).setUint32(0, header.length);
  return concat(size, header);
}

/** One file block: length, BlobHeader {type, datasize}, Blob `blob`. */
export function block(type: string, blob: Uint8Array): Uint8Array<ArrayBuffer> {
  return concat(blockHead(type, blob.length), blob);
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The Liechtenstein extract's first block (its OSMHeader), as it is in the file. */
function liechtensteinHeaderBlock(file: Uint8Array): Uint8Array<ArrayBuffer> {
  const view = new DataView(file.buffer, file.byteOffset);
  const headerLength = view.getUint32(0);
  // The datasize is the BlobHeader's last field in Geofabrik's files: parse it properly.
  const header = file.subarray(4, 4 + headerLength);
  let at = 0, dataSize = 0;
  while (at < header.length) {
    const key = header[at++]!;
    if (key % 8 === 2) {
      let length = 0, shift = 0, byte;
      do {
        byte = header[at++]!;
        length += (byte & 0x7f) * 2 ** shift;
        shift += 7;
      } while (byte >= 0x80);
      at += length;
    } else {
      let value = 0, shift = 0, byte;
      do {
        byte = header[at++]!;
        value += (byte & 0x7f) * 2 ** shift;
        shift += 7;
      } while (byte >= 0x80);
      if (key === 3 * 8) dataSize = value;
    }
  }
  return file.slice(0, 4 + headerLength + dataSize);
}

/** Random-looking but reproducible bytes. */
function noise(n: number, seed = 7): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    out[i] = x >> 16;
  }
  return out;
}

/** The corrupt files by name, in the order of the comment above. */
export function corruptExtracts(): Record<string, Uint8Array<ArrayBuffer>> {
  const file = Deno.readFileSync(LIECHTENSTEIN_PBF);
  const head = liechtensteinHeaderBlock(file);
  const flipped = file.slice();
  for (let i = 2000; i < flipped.length; i += 997) flipped[i]! ^= 0xff;
  return {
    // A BlobHeader that is not a protobuf message (a throw in the parser's write callback).
    "a broken BlobHeader": new Uint8Array([0, 0, 0, 10, ...new Array(10).fill(0xff), 1, 2, 3]),
    // A data block without zlib data ("No zlib data", thrown as a string).
    "an uncompressed data block": concat(
      head,
      block("OSMData", new Uint8Array(bytesField(1, noise(64)))),
    ),
    // Data that inflates to garbage (a throw inside the zlib callback).
    "a data block of garbage": concat(
      head,
      block("OSMData", new Uint8Array(bytesField(3, deflateSync(noise(4000))))),
    ),
    // A data block before any header (the parser reads the missing header's features).
    "a data block first": block("OSMData", new Uint8Array([...varint(2 * 8), ...varint(5)])),
    "an HTML error page": new TextEncoder().encode(
      "<html><body><h1>503 Service Unavailable</h1></body></html>\n".repeat(20),
    ),
    "the first half of the extract": file.slice(0, file.length >> 1),
    "flipped bytes": flipped,
  };
}
