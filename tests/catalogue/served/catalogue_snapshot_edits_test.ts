import assert from "node:assert/strict";
import type { CatalogueAddition } from "../../../lib/catalogue/served/catalogue_addition.ts";
import type { CatalogueEdit } from "../../../lib/catalogue/served/catalogue_edit.ts";
import { buildSnapshot } from "../../../lib/catalogue/served/catalogue_snapshot.ts";
import { readSources } from "../../../lib/catalogue/served/read_sources.ts";
import { storedTechnology } from "../../../lib/catalogue/submissions/technology_patch.ts";
import type { Instance, Technology } from "../../../lib/catalogue/schema/technology_schema.ts";

const CATALOGUE = new URL("../../../catalogues", import.meta.url).pathname;
const read = await readSources(CATALOGUE, `${CATALOGUE}/profiles`);
assert.ok(read.ok);
const source = read.data;
const plain = buildSnapshot(source, [], []);

/** The stored form of a technology of the files. */
function fileTechnology(id: string): Technology {
  const served = plain.technology(id);
  assert.ok(served, id);
  return storedTechnology(served);
}

function edit(seq: number, technology: Technology): CatalogueEdit {
  return {
    seq,
    kind: "edit",
    technology_id: technology.technology_id,
    technology,
    edited_at: "2026-02-01T00:00:00.000Z",
    edited_by: "admin:a@example.org",
  };
}

function remove(seq: number, technologyId: string): CatalogueEdit {
  return {
    ...edit(seq, fileTechnology("onshore_wind")),
    kind: "delete",
    technology_id: technologyId,
    technology: null,
  };
}

function addition(seq: number, technology: Technology, instances?: Instance[]): CatalogueAddition {
  return {
    seq,
    origin: "technology_submission",
    origin_id: `submission-${seq}`,
    technology_id: technology.technology_id,
    technology,
    instances: instances ?? technology.instances,
    added_at: "2026-02-01T00:00:00.000Z",
    added_by: "admin:a@example.org",
  };
}

const ids = (s: { technologies: readonly { technology_id: string }[] }) =>
  s.technologies.map((t) => t.technology_id);

Deno.test("buildSnapshot() serves an edited technology in its place", () => {
  const wind = fileTechnology("onshore_wind");
  const edited = { ...wind, technology_name: "Wind, edited", instances: wind.instances.slice(1) };
  const snapshot = buildSnapshot(source, [], [], [edit(1, edited)]);
  assert.deepEqual(ids(snapshot), ids(plain));
  assert.equal(snapshot.technology("onshore_wind")?.technology_name, "Wind, edited");
  assert.deepEqual(
    snapshot.technology("onshore_wind")?.instances.map((i) => i.instance_id),
    wind.instances.slice(1).map((i) => i.instance_id),
  );
  const summary = snapshot.summaries.find((s) => s.technology_id === "onshore_wind");
  assert.equal(summary?.technology_name, "Wind, edited");
  assert.equal(summary?.instance_count, wind.instances.length - 1);
  assert.equal(snapshot.counts.instances, plain.counts.instances - 1);
  assert.match(snapshot.technologyJson("onshore_wind") ?? "", /"Wind, edited"/);
  assert.notEqual(snapshot.version, plain.version);
  assert.deepEqual(snapshot.skipped, []);
});

Deno.test("buildSnapshot() hides a deleted technology from lookups, lists and counts", () => {
  const snapshot = buildSnapshot(source, [], [], [remove(1, "onshore_wind")]);
  assert.equal(snapshot.technology("onshore_wind"), undefined);
  assert.equal(snapshot.technologyJson("onshore_wind"), undefined);
  assert.ok(!ids(snapshot).includes("onshore_wind"));
  assert.ok(!snapshot.summaries.some((s) => s.technology_id === "onshore_wind"));
  assert.equal(snapshot.counts.technologies, plain.counts.technologies - 1);
  assert.equal(
    snapshot.counts.instances,
    plain.counts.instances - fileTechnology("onshore_wind").instances.length,
  );
  assert.notEqual(snapshot.version, plain.version);
});

Deno.test("buildSnapshot() with no edits is the snapshot it was before edits existed", () => {
  assert.equal(buildSnapshot(source, [], [], []).version, plain.version);
});

Deno.test("buildSnapshot() skips an edit or delete of a technology that is not there", () => {
  const ghost = { ...fileTechnology("onshore_wind"), technology_id: "ghost_turbine" };
  const snapshot = buildSnapshot(source, [], [], [edit(3, ghost), remove(4, "ghost_turbine")]);
  assert.deepEqual(ids(snapshot), ids(plain));
  assert.deepEqual(snapshot.skipped, [
    {
      origin: "admin_edit",
      origin_id: "3",
      reason: 'admin edit of technology "ghost_turbine": it is not in the catalogue',
    },
    {
      origin: "admin_edit",
      origin_id: "4",
      reason: 'admin delete of technology "ghost_turbine": it is not in the catalogue',
    },
  ]);
});

Deno.test("buildSnapshot() applies additions and edits in one seq order", async (t) => {
  const wind = fileTechnology("onshore_wind");
  const resubmitted = { ...wind, technology_name: "Wind, submitted again" };
  await t.step("a delete, then an approved submission of the same id, re-adds it", () => {
    // Given in any array order: seq decides.
    const snapshot = buildSnapshot(source, [addition(2, resubmitted)], [], [
      remove(1, "onshore_wind"),
    ]);
    assert.equal(snapshot.technology("onshore_wind")?.technology_name, "Wind, submitted again");
    assert.equal(ids(snapshot).at(-1), "onshore_wind");
    assert.equal(snapshot.counts.technologies, plain.counts.technologies);
    assert.deepEqual(snapshot.skipped, []);
  });
  await t.step("an approved submission, then a delete, removes it", () => {
    const snapshot = buildSnapshot(source, [addition(1, resubmitted)], [], [
      remove(2, "onshore_wind"),
    ]);
    assert.equal(snapshot.technology("onshore_wind"), undefined);
  });
  await t.step("instances added after an edit join the edited technology", () => {
    const extra = { ...wind.instances[0] as Instance, instance_id: "onshore_wind-extra" };
    const edited = { ...wind, technology_name: "Wind, edited" };
    const snapshot = buildSnapshot(source, [addition(2, wind, [extra])], [], [edit(1, edited)]);
    const served = snapshot.technology("onshore_wind");
    assert.equal(served?.technology_name, "Wind, edited");
    assert.equal(served?.instances.at(-1)?.instance_id, "onshore_wind-extra");
    assert.equal(served?.instances.length, wind.instances.length + 1);
  });
  await t.step("an edit after added instances replaces them with its own", () => {
    const extra = { ...wind.instances[0] as Instance, instance_id: "onshore_wind-extra" };
    const snapshot = buildSnapshot(source, [addition(1, wind, [extra])], [], [edit(2, wind)]);
    assert.equal(snapshot.technology("onshore_wind")?.instances.length, wind.instances.length);
  });
  await t.step("an edit of a technology an addition brought", () => {
    const fresh = { ...wind, technology_id: "tidal_kite", technology_name: "Tidal kite" };
    const snapshot = buildSnapshot(source, [addition(1, fresh)], [], [
      edit(2, { ...fresh, technology_name: "Tidal kite, edited" }),
    ]);
    assert.equal(snapshot.technology("tidal_kite")?.technology_name, "Tidal kite, edited");
    assert.equal(snapshot.additions.applied, 1);
  });
});
