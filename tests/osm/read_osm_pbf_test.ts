import assert from "node:assert/strict";
import { MAX_BLOB_HEADER_BYTES, protobufFields, readOsmPbf } from "../../lib/osm/read_osm_pbf.ts";
import { block, blockHead, corruptExtracts } from "./_corrupt_pbf.ts";
import { LIECHTENSTEIN_PBF } from "./_fake_geofabrik.ts";

async function readAll(path: string) {
  const counts = { node: 0, way: 0, relation: 0 };
  for await (const batch of readOsmPbf(path)) {
    for (const element of batch) counts[element.type]++;
  }
  return counts;
}

// The same counts as the osm-pbf-parser stream pipeline this reader replaced.
Deno.test("readOsmPbf() reads every element of the Liechtenstein extract", async () => {
  const counts = await readAll(LIECHTENSTEIN_PBF.pathname);
  assert.deepEqual(counts, { node: 318592, way: 34073, relation: 921 });
});

Deno.test("readOsmPbf() refuses corrupt bytes with a SyntaxError naming the problem (issue 18)", async (t) => {
  const dir = await Deno.makeTempDir();
  const expected: Record<string, RegExp> = {
    "a broken BlobHeader": /varint/,
    "an uncompressed data block": /OSMData block: /,
    "a data block of garbage": /OSMData block: /,
    "a data block first": /first block is "OSMData", not OSMHeader/,
    "an HTML error page": /BlobHeader of \d+ bytes \(at most 64 KiB\)/,
    "the first half of the extract": /ends inside a block/,
    "flipped bytes": /cannot be inflated/,
  };
  try {
    const extracts = {
      ...corruptExtracts(),
      "an empty file": new Uint8Array(0),
      "a lz4 block": block("OSMHeader", new Uint8Array([6 * 8 + 2, 1, 0])),
      "a Blob over 32 MiB": blockHead("OSMHeader", 33 * 1024 * 1024),
    };
    expected["an empty file"] = /no OSMHeader block/;
    expected["a lz4 block"] = /lz4 compression is not supported/;
    expected["a Blob over 32 MiB"] = /a Blob of 34603008 bytes \(at most 32 MiB\)/;
    for (const [name, bytes] of Object.entries(extracts)) {
      await t.step(name, async () => {
        const file = `${dir}/x.osm.pbf`;
        await Deno.writeFile(file, bytes);
        const error = await readAll(file).then(() => undefined, (e) => e);
        assert.ok(error instanceof SyntaxError, `${name}: ${error}`);
        assert.match(error.message, /^not a valid OSM PBF file: /);
        if (expected[name]) assert.match(error.message, expected[name]!);
        // The server's paths stay out of messages that reach clients.
        assert.doesNotMatch(error.message, new RegExp(dir));
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readOsmPbf(): a caller that stops early leaves no open file and no failure behind", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // The block after the first one is cut off: its read-ahead fails after the caller stopped.
    const file = `${dir}/x.osm.pbf`;
    await Deno.writeFile(file, corruptExtracts()["the first half of the extract"]!);
    for await (const batch of readOsmPbf(file)) {
      assert.ok(batch.length > 0);
      break;
    }
    // The test's resource and op sanitizers check that the file is closed and nothing runs.
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readOsmPbf() refuses a block header over 64 KiB before reading it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/x.osm.pbf`;
    const size = new Uint8Array(4);
    new DataView(size.buffer).setUint32(0, MAX_BLOB_HEADER_BYTES + 1);
    await Deno.writeFile(file, size);
    await assert.rejects(readAll(file), /BlobHeader of 65537 bytes/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("protobufFields() reads varints and bytes and refuses a broken message", () => {
  const fields = protobufFields(new Uint8Array([0x0a, 2, 0x41, 0x42, 0x18, 0xac, 0x02]));
  assert.deepEqual([...fields.get(1) as Uint8Array], [0x41, 0x42]);
  assert.equal(fields.get(3), 300);
  assert.throws(() => protobufFields(new Uint8Array([0x0a, 5, 1])), /past the end/);
  assert.throws(() => protobufFields(new Uint8Array([0x0b])), /wire type 3/);
});

Deno.test("a corrupt extract fails its import and the process lives on (issue 18, child process)", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./_import_child.ts", import.meta.url).pathname],
    cwd: new URL("../../", import.meta.url).pathname,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  // Before the fix: exit code 1, "Uncaught (in promise) RangeError: Could not decode varint".
  assert.equal(output.code, 0, stderr.slice(0, 2000));
  const lines = new TextDecoder().decode(output.stdout).trim().split("\n").map((l) =>
    JSON.parse(l) as { name: string; error: string | null }
  );
  assert.deepEqual(lines.map((l) => l.name), Object.keys(corruptExtracts()));
  for (const { name, error } of lines) {
    assert.match(error ?? "imported", /^SyntaxError: not a valid OSM PBF file: /, name);
  }
});
