import assert from "node:assert/strict";
import { join } from "node:path";
import { defaultSteps, REPOSITORY_ROOT } from "../lib/data_sets.ts";

Deno.test("defaultSteps() finds the repository's TABULA, catalogue and profile sources", async () => {
  const steps = defaultSteps();
  assert.deepEqual(steps.map((s) => s.name), ["tabula", "catalogue", "profiles"]);
  const [tabula, catalogue, profiles] = steps;
  assert.deepEqual(tabula!.sources, [join(REPOSITORY_ROOT, "data", "tabula")]);
  assert.deepEqual(profiles!.sources, [join(REPOSITORY_ROOT, "catalogues", "profiles")]);
  assert.ok(catalogue!.sources.length > 0);
  for (const path of [...tabula!.sources, ...catalogue!.sources, ...profiles!.sources]) {
    await Deno.stat(path);
  }
  assert.ok(
    catalogue!.sources.every((p) =>
      p.startsWith(join(REPOSITORY_ROOT, "catalogues") + "/") && p.endsWith(".json") &&
      !p.includes("/profiles/")
    ),
    "only the domain files directly in catalogues/",
  );
});

Deno.test("defaultSteps(root) reads its sources below another root", async () => {
  const root = await Deno.makeTempDir();
  try {
    await Deno.mkdir(join(root, "catalogues", "profiles"), { recursive: true });
    await Deno.writeTextFile(join(root, "catalogues", "storage.json"), "{}");
    await Deno.writeTextFile(join(root, "catalogues", "notes.md"), "");
    const steps = defaultSteps(root);
    assert.deepEqual(steps.map((s) => s.sources), [
      [join(root, "data", "tabula")],
      [join(root, "catalogues", "storage.json")],
      [join(root, "catalogues", "profiles")],
    ]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
