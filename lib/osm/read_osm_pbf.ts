/**
 * Streams the elements of an `.osm.pbf` file, block by block. The file's framing (a 4-byte
 * length, a BlobHeader, a Blob) is read here with the format's size limits and the blocks are
 * inflated here; npm osm-pbf-parser decodes each block's primitives. Every problem, corrupt or
 * truncated bytes included, is a SyntaxError thrown to the caller: the package's own stream
 * pipeline throws from stream callbacks, where nothing catches it and the process exits.
 *
 * Format: https://wiki.openstreetmap.org/wiki/PBF_Format ("File format").
 */
import parseOSM from "osm-pbf-parser";
import { Buffer } from "node:buffer";
import { inflate } from "node:zlib";
import type { OsmElement, OsmMember, OsmTags } from "./osm_element.ts";

/** Largest BlobHeader the format allows, bytes ("must be less than 64 KiB"). */
export const MAX_BLOB_HEADER_BYTES = 64 * 1024;

/** Largest Blob, compressed or not, the format allows, bytes ("must be less than 32 MiB"). */
export const MAX_BLOB_BYTES = 32 * 1024 * 1024;

/** Required features this reader understands; a file needing another is refused. */
const KNOWN_FEATURES = new Set(["OsmSchema-V0.6", "DenseNodes", "HistoricalInformation"]);

interface RawItem {
  type: string;
  id: number;
  lat?: number;
  lon?: number;
  tags?: OsmTags;
  refs?: number[];
  members?: { type: string; id: number; role?: string }[];
}

/** The part of the package's block decoder used here (a readable-stream Transform). */
interface PrimitivesParser {
  _osmheader?: { required_features?: string[] };
  push(items: RawItem[]): boolean;
  _transform(
    chunk: { type: string; data: Buffer },
    encoding: unknown,
    done: (error?: unknown) => void,
  ): void;
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
  return undefined; // other items
}

/** A problem with the file's bytes. */
function corrupt(at: number, problem: string): SyntaxError {
  return new SyntaxError(`not a valid OSM PBF file: ${problem} (at byte ${at})`);
}

/** Reads exactly `n` bytes; fewer only at the end of the file. */
async function readFull(file: Deno.FsFile, n: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(n);
  let got = 0;
  while (got < n) {
    const read = await file.read(bytes.subarray(got));
    if (read === null) break;
    got += read;
  }
  return got === n ? bytes : bytes.subarray(0, got);
}

/**
 * The fields of a protobuf message: varints (wire type 0) as numbers, length-delimited ones
 * (wire type 2) as bytes; fixed-width fields are skipped. Throws a string for a broken message.
 */
export function protobufFields(bytes: Uint8Array): Map<number, number | Uint8Array> {
  const fields = new Map<number, number | Uint8Array>();
  let at = 0;
  const varint = (): number => {
    let value = 0;
    for (let shift = 0; shift < 64; shift += 7) {
      if (at >= bytes.length) throw "a varint runs past the end of its message";
      const byte = bytes[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
    throw "a varint is longer than 10 bytes";
  };
  while (at < bytes.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (wire === 0) fields.set(field, varint());
    else if (wire === 2) {
      const length = varint();
      if (at + length > bytes.length) throw `field ${field} runs past the end of its message`;
      fields.set(field, bytes.subarray(at, at + length));
      at += length;
    } else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else throw `field ${field} has the unsupported wire type ${wire}`;
  }
  if (at > bytes.length) throw "the last field runs past the end of its message";
  return fields;
}

function inflated(data: Uint8Array): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    inflate(data, { maxOutputLength: MAX_BLOB_BYTES }, (error, result) => {
      if (error) reject(error);
      else resolve(result);
    });
  });
}

/** A Blob's uncompressed bytes: raw or zlib; the other compressions are refused. */
async function blobData(blob: Map<number, number | Uint8Array>): Promise<Buffer> {
  const raw = blob.get(1);
  if (raw instanceof Uint8Array) return Buffer.from(raw.buffer, raw.byteOffset, raw.length);
  const zlib = blob.get(3);
  if (zlib instanceof Uint8Array) {
    try {
      return await inflated(zlib);
    } catch (error) {
      throw `zlib data cannot be inflated: ${(error as Error)?.message ?? String(error)}`;
    }
  }
  const other = [[4, "lzma"], [5, "bzip2"], [6, "lz4"], [7, "zstd"]].find(([f]) =>
    blob.has(f as number)
  );
  throw other ? `${other[1]} compression is not supported` : "a Blob without data";
}

/** One block read and inflated: its type, its bytes and where it starts. */
interface Block {
  readonly type: "OSMHeader" | "OSMData";
  readonly data: Buffer;
  readonly at: number;
}

/**
 * Reads the next OSMHeader or OSMData block from `at` (blocks of other types are skipped, as
 * the format says) and inflates it; null at the end of the file.
 */
async function readBlock(
  file: Deno.FsFile,
  from: number,
): Promise<Block & { next: number } | null> {
  for (let at = from;;) {
    const size = await readFull(file, 4);
    if (size.length === 0) return null;
    if (size.length < 4) throw corrupt(at, "the file ends inside a block's length");
    const headerLength = new DataView(size.buffer).getUint32(0);
    if (headerLength > MAX_BLOB_HEADER_BYTES) {
      throw corrupt(at, `a BlobHeader of ${headerLength} bytes (at most 64 KiB)`);
    }
    const headerBytes = await readFull(file, headerLength);
    if (headerBytes.length < headerLength) throw corrupt(at, "the file ends inside a block");
    let type: string, dataSize: number;
    try {
      const header = protobufFields(headerBytes);
      const typeBytes = header.get(1);
      const declared = header.get(3);
      if (!(typeBytes instanceof Uint8Array)) throw "a BlobHeader without a type";
      if (typeof declared !== "number") throw "a BlobHeader without a datasize";
      type = new TextDecoder("utf-8", { fatal: true }).decode(typeBytes);
      dataSize = declared;
    } catch (problem) {
      throw corrupt(at, String(problem));
    }
    if (dataSize > MAX_BLOB_BYTES) {
      throw corrupt(at, `a Blob of ${dataSize} bytes (at most 32 MiB)`);
    }
    if (at === 0 && type !== "OSMHeader") {
      throw corrupt(at, `the first block is ${JSON.stringify(type)}, not OSMHeader`);
    }
    const blobBytes = await readFull(file, dataSize);
    if (blobBytes.length < dataSize) throw corrupt(at, "the file ends inside a block");
    const next = at + 4 + headerLength + dataSize;
    if (type === "OSMHeader" || type === "OSMData") {
      try {
        return { type, data: await blobData(protobufFields(blobBytes)), at, next };
      } catch (problem) {
        throw corrupt(at, `${type} block: ${String(problem)}`);
      }
    }
    at = next;
  }
}

/**
 * Yields the elements of the PBF file at `path` one file block (about 8,000 elements) at a
 * time. The next block is read and inflated while the caller works on the current one; only
 * those two are held in memory. Throws a SyntaxError naming the problem and its byte offset
 * for bytes that are not a complete, valid PBF file (a missing OSMHeader block, a size beyond
 * the format's limits, a broken message, data that does not inflate, a file that ends inside a
 * block, a required feature this reader does not know).
 */
export async function* readOsmPbf(path: string): AsyncGenerator<OsmElement[]> {
  const file = await Deno.open(path, { read: true });
  // deno-lint-ignore no-explicit-any
  const primitives: PrimitivesParser = new (parseOSM as any).PrimitivesParser();
  let items: RawItem[] = [];
  primitives.push = (pushed) => {
    items = pushed;
    return true;
  };
  // A read-ahead whose failure is seen when it is awaited; the no-op handler keeps a failure
  // after the caller has stopped (or the file closed under it) from being an unhandled one.
  const ahead = (from: number) => {
    const read = readBlock(file, from);
    read.catch(() => {});
    return read;
  };
  let pending = ahead(0);
  try {
    for (;;) {
      const block = await pending;
      if (block === null) break;
      pending = ahead(block.next);
      const { type, data, at } = block;
      items = [];
      let failed: unknown;
      try {
        // Synchronous: its callback has run when it returns.
        primitives._transform({ type, data }, null, (error) => failed = error);
      } catch (error) {
        failed = error;
      }
      if (failed !== undefined && failed !== null) {
        const message = failed instanceof Error ? failed.message : String(failed);
        throw corrupt(at, `${type} block: ${message}`);
      }
      if (type === "OSMHeader") {
        const unknown = (primitives._osmheader?.required_features ?? [])
          .filter((f) => !KNOWN_FEATURES.has(f));
        if (unknown.length > 0) {
          throw corrupt(at, `the file requires features this reader lacks: ${unknown.join(", ")}`);
        }
        continue;
      }
      const batch: OsmElement[] = [];
      for (const item of items) {
        const element = toElement(item);
        if (element) batch.push(element);
      }
      if (batch.length > 0) yield batch;
    }
    if (primitives._osmheader === undefined) throw corrupt(0, "no OSMHeader block");
  } finally {
    // The file closes once a read-ahead still running has settled (its failure is not news).
    await pending.catch(() => {});
    file.close();
  }
}
