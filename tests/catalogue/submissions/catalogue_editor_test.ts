import assert from "node:assert/strict";
import { serialQueue } from "../../../lib/concurrency/serial_queue.ts";
import {
  type CatalogueService,
  createCatalogueService,
} from "../../../lib/catalogue/served/catalogue_service.ts";
import { createCatalogueEditor } from "../../../lib/catalogue/submissions/catalogue_editor.ts";
import {
  createDuckDbCatalogueEditRepository,
  EDITS_TABLE,
} from "../../../lib/catalogue/submissions/catalogue_edit_repository.ts";
import { createSubmissionDesk } from "../../../lib/catalogue/submissions/submission_desk.ts";
import type { Person } from "../../../lib/catalogue/submissions/submission_record.ts";
import { createDuckDbSubmissionRepository } from "../../../lib/catalogue/submissions/submission_repository.ts";
import { servedSubmittedProfile } from "../../../lib/catalogue/submissions/timeseries_submission.ts";
import { storedTechnology } from "../../../lib/catalogue/submissions/technology_patch.ts";
import { catalogueTechnologySchema } from "../../../lib/catalogue/schema/technology_schema.ts";
import { openStore, type Store } from "../../../lib/store/store.ts";

const CATALOGUE = new URL("../../../catalogues", import.meta.url).pathname;
const ADMIN: Person = { subject: "admin:admin@example.org", name: "Administrator" };
const RESEARCHER: Person = { subject: "0000-0002-1825-0097", name: "Josiah Carberry" };

/** The served catalogue as the server builds it at start: files plus everything stored. */
async function serviceFrom(store: Store): Promise<CatalogueService> {
  const submissions = await createDuckDbSubmissionRepository(store);
  const edits = await createDuckDbCatalogueEditRepository(store);
  return await createCatalogueService({
    catalogueDir: CATALOGUE,
    profilesDir: `${CATALOGUE}/profiles`,
    additions: await submissions.additions(),
    submittedProfiles: (await submissions.approvedTimeseries()).map(servedSubmittedProfile),
    edits: await edits.edits(),
  });
}

/** A store, the served catalogue over it, and the desk and editor on one queue. */
async function setup(store?: Store) {
  const db = store ?? await openStore(":memory:");
  const repository = await createDuckDbCatalogueEditRepository(db);
  const submissions = await createDuckDbSubmissionRepository(db);
  const catalogue = await serviceFrom(db);
  let n = 0;
  const now = () => new Date(Date.UTC(2026, 1, 1, 0, 0, n++));
  const serial = serialQueue();
  const editor = createCatalogueEditor({ repository, catalogue, now, serial });
  const desk = createSubmissionDesk({ repository: submissions, catalogue, now, serial });
  return { store: db, repository, catalogue, editor, desk };
}

Deno.test("CatalogueEditor.edit() stores the edit; a restarted service serves it", async () => {
  const { store, repository, catalogue, editor } = await setup();
  try {
    const before = catalogue.current();
    const wind = before.technology("onshore_wind");
    assert.ok(wind);
    const result = await editor.edit("onshore_wind", {
      technology_name: "Onshore wind, edited",
      instances: wind.instances.map((i, k) => k === 0 ? { ...i, capex_usd_per_kw: 999.5 } : i),
    }, ADMIN);
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.value.technology_name, "Onshore wind, edited");
    assert.equal(result.value.instances[0]?.capex_usd_per_kw, 999.5);
    assert.deepEqual(result.value.instances[0]?.missing_fields, wind.instances[0]?.missing_fields);
    assert.deepEqual(catalogue.current().technology("onshore_wind"), result.value);
    assert.notEqual(catalogue.current().version, before.version);

    const stored = await repository.edits();
    assert.equal(stored.length, 1);
    assert.deepEqual(
      { ...stored[0], seq: undefined },
      {
        seq: undefined,
        kind: "edit",
        technology_id: "onshore_wind",
        technology: storedTechnology(result.value),
        edited_at: "2026-02-01T00:00:00.000Z",
        edited_by: ADMIN.subject,
      },
    );

    const restarted = await serviceFrom(store);
    assert.deepEqual(restarted.current().technology("onshore_wind"), result.value);
    assert.equal(restarted.current().version, catalogue.current().version);
  } finally {
    await store.close();
  }
});

Deno.test("CatalogueEditor.remove() hides the technology from lookups, lists and counts", async () => {
  const { store, catalogue, editor } = await setup();
  try {
    const before = catalogue.current();
    const wind = before.technology("onshore_wind");
    assert.ok(wind);
    const removed = await editor.remove("onshore_wind", ADMIN);
    assert.deepEqual(removed, {
      ok: true,
      value: { technology_id: "onshore_wind", technology_name: wind.technology_name },
    });
    for (const snapshot of [catalogue.current(), (await serviceFrom(store)).current()]) {
      assert.equal(snapshot.technology("onshore_wind"), undefined);
      assert.ok(!snapshot.summaries.some((s) => s.technology_id === "onshore_wind"));
      assert.equal(snapshot.counts.technologies, before.counts.technologies - 1);
      assert.equal(snapshot.counts.instances, before.counts.instances - wind.instances.length);
    }

    const notFound = {
      ok: false,
      reason: "not_found",
      message: 'Technology "onshore_wind" not found',
    };
    assert.deepEqual(
      await editor.edit("onshore_wind", { technology_name: "Back" }, ADMIN),
      notFound,
    );
    assert.deepEqual(await editor.remove("onshore_wind", ADMIN), notFound);
    assert.equal((await editor.remove("no_such_tech", ADMIN)).ok, false);
  } finally {
    await store.close();
  }
});

Deno.test("CatalogueEditor.edit() refuses invalid edits and stores nothing", async (t) => {
  const { store, repository, catalogue, editor } = await setup();
  try {
    const version = catalogue.current().version;
    const wind = catalogue.current().technology("onshore_wind");
    assert.ok(wind);
    const [first, second] = wind.instances;
    assert.ok(first && second);
    const cases: [string, Record<string, unknown>, string[]][] = [
      ["negative capex", { instances: [{ ...first, capex_usd_per_kw: -1 }] }, [
        "instances[0].capex_usd_per_kw: Too small: expected number to be >=0",
      ]],
      ["an unknown member", { domain: "storage" }, ["domain: unknown member"]],
      ["duplicate instance ids", {
        instances: [first, { ...second, instance_id: first.instance_id }],
      }, [
        `instances[1].instance_id: "${first.instance_id}" is also instances[0]`,
      ]],
      ["an empty name", { technology_name: "" }, ["technology_name: must not be empty"]],
    ];
    for (const [name, patch, problems] of cases) {
      await t.step(name, async () => {
        const result = await editor.edit("onshore_wind", patch, ADMIN);
        assert.ok(!result.ok && result.reason === "invalid", JSON.stringify(result));
        assert.deepEqual(result.problems, problems);
        assert.equal(
          result.message,
          `The edit of technology "onshore_wind" is not a valid technology: ${problems.join("; ")}`,
        );
      });
    }
    assert.deepEqual(await repository.edits(), []);
    assert.equal(catalogue.current().version, version);
  } finally {
    await store.close();
  }
});

Deno.test("CatalogueService.reload() keeps the edits and deletes", async () => {
  const { store, catalogue, editor } = await setup();
  try {
    assert.ok((await editor.edit("pem_electrolyzer", { description: "Edited." }, ADMIN)).ok);
    assert.ok((await editor.remove("onshore_wind", ADMIN)).ok);
    const version = catalogue.current().version;
    const reloaded = await catalogue.reload();
    assert.ok(reloaded.ok);
    assert.equal(reloaded.snapshot.technology("pem_electrolyzer")?.description, "Edited.");
    assert.equal(reloaded.snapshot.technology("onshore_wind"), undefined);
    assert.equal(reloaded.snapshot.version, version);
  } finally {
    await store.close();
  }
});

Deno.test("A deleted technology comes back with a later approved submission of its id", async () => {
  const { store, repository, catalogue, editor, desk } = await setup();
  try {
    const wind = catalogue.current().technology("onshore_wind");
    assert.ok(wind);
    assert.ok((await editor.remove("onshore_wind", ADMIN)).ok);
    const record = catalogueTechnologySchema.parse({
      technology_id: "onshore_wind",
      technology_name: "Onshore wind, resubmitted",
      domain: "generation",
      carrier: "electricity",
      oeo_class: wind.oeo_uri,
      description: null,
      instances: [{
        instance_id: "onshore_wind-community-2030",
        instance_name: "Community wind park, 2030",
        typical_capacity_mw: 3,
        capex_usd_per_kw: 1400,
        opex_fixed_usd_per_kw_yr: 35,
        opex_var_usd_per_mwh: null,
        efficiency_percent: null,
        lifetime_years: 25,
        co2_emission_factor_operational_g_per_kwh: 0,
        ramping_rate_percent_per_min: null,
        reference_source: "Test study (2026)",
      }],
    });
    const submitted = await desk.submitTechnology(record, RESEARCHER);
    assert.ok(submitted.ok, JSON.stringify(submitted));
    assert.equal(submitted.value.merge, "new_technology");
    const approved = await desk.reviewTechnology(submitted.value.submission_id, "approve", ADMIN);
    assert.ok(approved.ok, JSON.stringify(approved));

    for (const snapshot of [catalogue.current(), (await serviceFrom(store)).current()]) {
      const back = snapshot.technology("onshore_wind");
      assert.equal(back?.technology_name, "Onshore wind, resubmitted");
      assert.deepEqual(back?.instances.map((i) => i.instance_id), ["onshore_wind-community-2030"]);
      assert.deepEqual(snapshot.skipped, []);
    }
    // One sequence orders both tables: the delete came first.
    const [deleted] = await repository.edits();
    const additions = await (await createDuckDbSubmissionRepository(store)).additions();
    assert.ok(deleted && additions[0] && deleted.seq < additions[0].seq);
  } finally {
    await store.close();
  }
});

Deno.test("CatalogueEditor runs on the desk's queue, in call order", async () => {
  const { store, editor } = await setup();
  try {
    const [removed, edited] = await Promise.all([
      editor.remove("onshore_wind", ADMIN),
      editor.edit("onshore_wind", { technology_name: "Too late" }, ADMIN),
    ]);
    assert.ok(removed.ok);
    assert.equal(!edited.ok && edited.reason, "not_found");
  } finally {
    await store.close();
  }
});

Deno.test("createDuckDbCatalogueEditRepository() keeps rows and numbers across opens", async () => {
  const store = await openStore(":memory:");
  try {
    const first = await createDuckDbCatalogueEditRepository(store);
    const technology = storedTechnology(
      (await serviceFrom(store)).current().technology("onshore_wind") ??
        assert.fail("onshore_wind is served"),
    );
    const odd = { ...technology.instances[0], capex_usd_per_kw: 0.1 + 0.2 };
    const edit = await first.insertEdit({
      kind: "edit",
      technology_id: "onshore_wind",
      technology: { ...technology, instances: [odd as typeof technology.instances[0]] },
      edited_at: "2026-02-01T00:00:00.000Z",
      edited_by: ADMIN.subject,
    });
    const again = await createDuckDbCatalogueEditRepository(store);
    assert.deepEqual(await again.edits(), [edit]);
    assert.equal(edit.technology?.instances[0]?.capex_usd_per_kw, 0.1 + 0.2);
    await assert.rejects(
      store.run(
        `INSERT INTO ${EDITS_TABLE} (kind, technology_id, technology_json, edited_at, edited_by) ` +
          "VALUES ('delete', 'x', '{}', 'now', 'me')",
      ),
      /CHECK/i,
    );
  } finally {
    await store.close();
  }
});
