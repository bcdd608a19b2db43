import assert from "node:assert/strict";
import { join } from "node:path";
import { tabulaStep } from "../../lib/heat/tabula/tabula_step.ts";
import type { BuildStep } from "../../lib/store/build_step.ts";
import {
  ensureStore,
  fingerprint,
  FINGERPRINT_KEY,
  PIPELINE_VERSION,
} from "../../lib/store/build_store.ts";
import { readMeta } from "../../lib/store/meta.ts";
import { openStore } from "../../lib/store/store.ts";
import { DataValidationError } from "../../lib/validation/problems.ts";
import { countVariants, withTemp } from "./_built_store.ts";

const FIXTURES = new URL("../fixtures/tabula/", import.meta.url).pathname;

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyDir(join(from, e.name), join(to, e.name));
    else await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

const files = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();

Deno.test("ensureStore builds once, then only when a source changes", async () => {
  await withTemp(async (dir) => {
    const sources = join(dir, "tabula");
    await copyDir(join(FIXTURES, "good"), sources);
    const path = join(dir, "store", "test.duckdb");
    const steps = [tabulaStep(sources)];

    const first = await ensureStore(path, { steps });
    assert.equal(first.built, true);
    assert.equal(await countVariants(path), 5);
    assert.deepEqual(files(join(dir, "store")), ["test.duckdb"], "no temp file left");

    const second = await ensureStore(path, { steps });
    assert.equal(second.built, false);
    assert.equal(second.fingerprint, first.fingerprint);

    // Drop the last German row: new contents, new fingerprint, rebuild.
    const germany = join(sources, "city2tabula", "germany.csv");
    const lines = (await Deno.readTextFile(germany)).trimEnd().split("\n");
    await Deno.writeTextFile(germany, lines.slice(0, -1).join("\n") + "\n");
    const third = await ensureStore(path, { steps });
    assert.equal(third.built, true);
    assert.notEqual(third.fingerprint, first.fingerprint);
    assert.equal(await countVariants(path), 4);

    const forced = await ensureStore(path, { steps, force: true });
    assert.equal(forced.built, true);
    assert.equal(forced.fingerprint, third.fingerprint);

    const store = await openStore(path, { readOnly: true });
    try {
      assert.equal(await readMeta(store, FINGERPRINT_KEY), third.fingerprint);
      assert.equal(await readMeta(store, "pipeline_version"), PIPELINE_VERSION);
    } finally {
      store.close();
    }
  });
});

Deno.test("ensureStore rebuilds a file that is not a store", async () => {
  await withTemp(async (dir) => {
    const path = join(dir, "store.duckdb");
    await Deno.writeTextFile(path, "not a database");
    const result = await ensureStore(path, { steps: [tabulaStep(join(FIXTURES, "good"))] });
    assert.equal(result.built, true);
    assert.equal(await countVariants(path), 5);
  });
});

Deno.test("a failed build writes nothing and keeps the old store", async () => {
  await withTemp(async (dir) => {
    const path = join(dir, "store.duckdb");
    const broken = [tabulaStep(join(FIXTURES, "broken"))];
    await assert.rejects(() => ensureStore(path, { steps: broken }), (error: unknown) => {
      assert.ok(error instanceof DataValidationError);
      assert.equal(error.problems.length, 7);
      return true;
    });
    assert.deepEqual(files(dir), [], "no store, no temp file");

    const good = await ensureStore(path, { steps: [tabulaStep(join(FIXTURES, "good"))] });
    await assert.rejects(() => ensureStore(path, { steps: broken }), DataValidationError);
    assert.deepEqual(files(dir), ["store.duckdb"]);
    assert.equal(await countVariants(path), 5);
    const again = await ensureStore(path, { steps: [tabulaStep(join(FIXTURES, "good"))] });
    assert.equal(again.built, false, "the old store is intact and current");
    assert.equal(again.fingerprint, good.fingerprint);
  });
});

Deno.test("a failing step of another data set also leaves no store", async () => {
  await withTemp(async (dir) => {
    const path = join(dir, "store.duckdb");
    const failing: BuildStep = {
      name: "catalogue",
      sources: [join(FIXTURES, "README.md")],
      load: () => Promise.reject(new Error("catalogue broken")),
    };
    await assert.rejects(
      () => ensureStore(path, { steps: [tabulaStep(join(FIXTURES, "good")), failing] }),
      /catalogue broken/,
    );
    assert.deepEqual(files(dir), []);
  });
});

Deno.test("fingerprint covers relative paths and contents, not the location", async () => {
  await withTemp(async (dir) => {
    await copyDir(join(FIXTURES, "good"), join(dir, "a"));
    await copyDir(join(FIXTURES, "good"), join(dir, "b"));
    const step = (sub: string): BuildStep => ({ ...tabulaStep(join(dir, sub)) });
    const a = await fingerprint([step("a")]);
    assert.match(a, /^[0-9a-f]{64}$/);
    assert.equal(await fingerprint([step("b")]), a);
    await Deno.rename(join(dir, "b", "tsib", "episcope.csv"), join(dir, "b", "tsib", "other.csv"));
    assert.notEqual(await fingerprint([step("b")]), a, "a renamed file changes it");
    await Deno.writeTextFile(join(dir, "a", "city2tabula", "notes.txt"), "x");
    assert.notEqual(await fingerprint([step("a")]), a, "an added file changes it");
  });
});
