import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { main as exportMain } from "../../pipelines/model_export.ts";
import { main as importMain, parseModelImportArgs } from "../../pipelines/model_import.ts";
import { modelConfigSchema } from "../../lib/model/model_config.ts";

const NATIONAL = fileURLToPath(
  new URL("../../data/models/calliope_national_scale", import.meta.url),
);

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("parseModelImportArgs() reads -o values as YAML", () => {
  assert.deepEqual(
    parseModelImportArgs([
      "dir",
      "--scenario",
      "time_resampling",
      "-o",
      "model.subset_time=[2005-01-01, 2005-01-02]",
      "-o",
      "run.bigM=1e5",
      "--out",
      "m.json",
    ]),
    {
      dir: "dir",
      out: "m.json",
      scenario: "time_resampling",
      overrides: { "model.subset_time": ["2005-01-01", "2005-01-02"], "run.bigM": 1e5 },
    },
  );
  assert.throws(() => parseModelImportArgs(["dir"]), /usage/);
  assert.throws(() => parseModelImportArgs(["dir", "-o", "novalue", "--out", "x"]), /key=value/);
});

Deno.test("model-import and model-export CLIs round-trip the national-scale example", async () => {
  await withTemp(async (dir) => {
    const json = join(dir, "model.json");
    const cli = fileURLToPath(new URL("../../pipelines/model_import.ts", import.meta.url));
    const imported = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", cli, NATIONAL, "-o", "model.subset_time=2005-01-01", "--out", json],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(imported.code, 0, new TextDecoder().decode(imported.stderr));
    assert.match(new TextDecoder().decode(imported.stdout), /6 technologies, 5 locations, 4 links/);
    const model = modelConfigSchema.parse(JSON.parse(await Deno.readTextFile(json)));
    assert.equal(model.parameters.subset_time, "2005-01-01");

    const out = join(dir, "calliope");
    assert.equal(await exportMain([json, "--out", out]), 0);
    const again = join(dir, "again.json");
    assert.equal(await importMain([out, "--out", again]), 0);
    assert.deepEqual(
      JSON.parse(await Deno.readTextFile(again)),
      JSON.parse(await Deno.readTextFile(json)),
    );
  });
});

Deno.test("model-import and model-export fail with exit code 1 and say why", async () => {
  await withTemp(async (dir) => {
    const json = join(dir, "m.json");
    assert.equal(await importMain([NATIONAL, "-o", "run.mode=design", "--out", json]), 1);
    assert.equal(await importMain([NATIONAL, "--scenario", "nope", "--out", json]), 1);
    assert.equal(await importMain([NATIONAL]), 2);
    await Deno.writeTextFile(
      json,
      JSON.stringify({ locations: [], technologies: [{ name: "x" }] }),
    );
    assert.equal(await exportMain([json, "--out", join(dir, "o")]), 1);
    assert.equal(await exportMain([join(dir, "missing.json"), "--out", join(dir, "o")]), 1);
  });
});
