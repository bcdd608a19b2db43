import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_EXTRACTION_OPTIONS } from "../../lib/extraction/building_record.ts";
import { ExtractionWorker } from "../../lib/extraction/extract_in_worker.ts";
import type { BuildingRecord } from "../../lib/extraction/building_record.ts";
import { box, footprint, PLANE } from "./_footprints.ts";

const [xmin, ymin] = PLANE.toLonLat([-100, -100]);
const [xmax, ymax] = PLANE.toLonLat([100, 100]);
const request = {
  country: "LI",
  bbox: [xmin, ymin, xmax, ymax] as const,
  options: DEFAULT_EXTRACTION_OPTIONS,
};

/** A page of footprints as readFootprintPage writes it. */
function page(...ids: string[]): string {
  return JSON.stringify(ids.map((id, i) => {
    const f = footprint(id, {}, box(i * 10, 0, i * 10 + 10, 8));
    return { id: f.id, tags: f.tags, geometry: { type: "MultiPolygon", coordinates: f.polygons } };
  }));
}

async function* pages(...texts: string[]): AsyncGenerator<string> {
  for (const text of texts) yield text;
}

Deno.test("ExtractionWorker: runs a run's pages in a Worker, writes the buildings as files of JSON lines, and is reused", async () => {
  const dir = await Deno.makeTempDir({ prefix: "extract_in_worker_" });
  const worker = new ExtractionWorker();
  try {
    const progress: number[] = [];
    const run = { request, variants: [], available: ["AT"], dir };
    const result = await worker.run(run, pages(page("way/1", "way/2"), page("way/3")), (f) => {
      progress.push(f);
    });
    assert.deepEqual(progress, [0.7, 1]);
    assert.deepEqual([result.buildings, result.footprints], [3, 3]);
    assert.equal(result.problems, 1);
    assert.match(result.firstProblems[0]!, /^no heat link: LI has no TABULA typology/);
    const [chunk] = result.chunks;
    assert.ok(chunk && "file" in chunk && chunk.file.startsWith(dir));
    const records: BuildingRecord[] = (await Deno.readTextFile(chunk.file)).split("\n")
      .map((line) => JSON.parse(line));
    assert.deepEqual(records.map((b) => b.id), ["way/1", "way/2", "way/3"]);
    assert.equal(chunk.surfaces, records.reduce((n, b) => n + b.surfaces.length, 0));
    // The same Worker takes the next run.
    const again = await worker.run({ ...run, dir: join(dir, ".") }, pages(page("way/9")));
    assert.equal(again.buildings, 1);
  } finally {
    worker.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ExtractionWorker: an error in the Worker fails that run with its message; the next run works", async () => {
  const dir = await Deno.makeTempDir({ prefix: "extract_in_worker_" });
  const worker = new ExtractionWorker();
  try {
    const run = { request, variants: [], available: [], dir };
    await assert.rejects(worker.run(run, pages("{ not json")), /JSON/);
    // Files that cannot be written: the error comes after the extraction.
    await assert.rejects(
      worker.run({ ...run, dir: join(dir, "missing") }, pages(page("way/1"))),
      /No such file or directory|NotFound|os error 2/,
    );
    const ok = await worker.run(run, pages(page("way/1")));
    assert.equal(ok.buildings, 1);
  } finally {
    worker.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ExtractionWorker: close() fails the run in progress; one run at a time", async () => {
  const dir = await Deno.makeTempDir({ prefix: "extract_in_worker_" });
  const worker = new ExtractionWorker();
  try {
    const run = { request, variants: [], available: [], dir };
    let release = () => {};
    const gate = new Promise<void>((resolve) => release = resolve);
    const slow = async function* (): AsyncGenerator<string> {
      yield page("way/1");
      await gate;
      yield page("way/2");
    };
    const pending = worker.run(run, slow());
    await assert.rejects(worker.run(run, pages()), /one run at a time/);
    worker.close();
    release();
    await assert.rejects(pending, /extraction worker closed/);
    // A closed worker starts a new Worker on the next run.
    assert.equal((await worker.run(run, pages(page("way/3")))).buildings, 1);
  } finally {
    worker.close();
    await Deno.remove(dir, { recursive: true });
  }
});
