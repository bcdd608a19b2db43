import assert from "node:assert/strict";
import { join } from "node:path";
import { copy } from "../../catalogue/copy_dir.ts";
import {
  ADMIN,
  bearer,
  call,
  CATALOGUE_DIR,
  PROFILES_DIR,
  RESEARCHER,
  testApp,
  tokenFor,
} from "./_catalogue.ts";

const admin = await tokenFor(ADMIN);

Deno.test("GET /health gives versions and counts, outside the prefix", async () => {
  const built = await testApp();
  try {
    const { status, body } = await call(built.app, "/health");
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(body), [
      "status",
      "version",
      "catalogue_version",
      "technologies",
      "instances",
      "profiles",
    ]);
    assert.equal(body.status, "ok");
    assert.equal(body.version, "1.0.0");
    assert.match(body.catalogue_version, /^1\.0\.0\+[0-9a-f]{12}$/);
    assert.deepEqual([body.technologies, body.instances, body.profiles], [39, 240, 57]);
    assert.equal((await call(built.app, "/api/v1/health")).status, 404);
  } finally {
    await built.dispose();
  }
});

Deno.test("GET /api/v1/debug/data lists every data file (admin only)", async () => {
  const built = await testApp();
  try {
    const { status, body } = await call(built.app, "/api/v1/debug/data", bearer(admin));
    assert.equal(status, 200);
    assert.equal(body.files.length, 4 + 57 + 1);
    const formats = new Set(body.files.map((f: { format: string }) => f.format));
    assert.deepEqual([...formats].sort(), ["catalogue", "profile", "profile_index"]);
    assert.ok(body.files.every((f: { errors: string[] }) => f.errors.length === 0));
    assert.equal(body.technologies, 39);
    assert.equal(body.last_reload, null);
    assert.deepEqual(body.additions, {
      applied: 0,
      instances_added: 0,
      profiles_added: 0,
      skipped: [],
    });
    assert.equal((await call(built.app, "/api/v1/debug/data")).status, 401);
    const user = await call(built.app, "/api/v1/debug/data", bearer(await tokenFor(RESEARCHER)));
    assert.equal(user.status, 403);
  } finally {
    await built.dispose();
  }
});

Deno.test("POST /api/v1/debug/reload swaps valid files and keeps serving on invalid ones", async (t) => {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(join(dir, "profiles"));
  await copy(CATALOGUE_DIR, dir);
  await copy(PROFILES_DIR, join(dir, "profiles"));
  const built = await testApp({
    config: { catalogueDir: dir, profilesDir: join(dir, "profiles") },
  });
  const reload = () =>
    call(built.app, "/api/v1/debug/reload", { method: "POST", ...bearer(admin) });
  try {
    const before = (await call(built.app, "/health")).body;
    const generation = join(dir, "generation.json");
    const original = await Deno.readTextFile(generation);

    await t.step(
      "a broken file: 422 with every problem, the old catalogue still served",
      async () => {
        const file = JSON.parse(original);
        file.technologies[0].instances[0].capex_usd_per_kw = -5;
        delete file.technologies[1].technology_name;
        await Deno.writeTextFile(generation, JSON.stringify(file));
        await Deno.writeTextFile(join(dir, "profiles", "DE_load_2016.json"), "{");
        const reply = await reload();
        assert.equal(reply.status, 422);
        assert.match(
          reply.body.error,
          /^Reload refused: 3 problem\(s\) in the data files; the previous/,
        );
        assert.equal(reply.body.details.catalogue_version, before.catalogue_version);
        const paths = reply.body.details.problems.map((p: { file: string; path: string }) =>
          `${p.file.slice(dir.length + 1)}:${p.path}`
        );
        assert.deepEqual(paths.sort(), [
          "generation.json:technologies[0].instances[0].capex_usd_per_kw",
          "generation.json:technologies[1].technology_name",
          "profiles/DE_load_2016.json:",
        ]);
        const health = (await call(built.app, "/health")).body;
        assert.deepEqual(health, before);
        assert.equal((await call(built.app, "/api/v1/technologies/onshore_wind")).status, 200);
        const data = await call(built.app, "/api/v1/debug/data", bearer(admin));
        assert.equal(data.body.last_reload.ok, false);
        assert.equal(data.body.last_reload.problems.length, 3);
        assert.ok(
          data.body.files.every((f: { errors: string[] }) => f.errors.length === 0),
          "served files",
        );
      },
    );

    await t.step("fixed files: 200, the new catalogue is served", async () => {
      const file = JSON.parse(original);
      file.technologies.push({ ...file.technologies[0], technology_id: "copied_tech" });
      await Deno.writeTextFile(generation, JSON.stringify(file));
      await Deno.copyFile(
        join(PROFILES_DIR, "DE_load_2016.json"),
        join(dir, "profiles", "DE_load_2016.json"),
      );
      const reply = await reload();
      assert.equal(reply.status, 200);
      assert.equal(reply.body.status, "reloaded");
      assert.equal(reply.body.previous_version, before.catalogue_version);
      assert.notEqual(reply.body.catalogue_version, before.catalogue_version);
      assert.equal(reply.body.technologies, 40);
      // The 1 s reload target is measured by benchmarks/catalogue_bench.ts.
      assert.equal(typeof reply.body.ms, "number");
      assert.equal((await call(built.app, "/api/v1/technologies/copied_tech")).status, 200);
      const data = await call(built.app, "/api/v1/debug/data", bearer(admin));
      assert.equal(data.body.last_reload.ok, true);
    });

    await t.step("admin only", async () => {
      const none = await call(built.app, "/api/v1/debug/reload", { method: "POST" });
      assert.equal(none.status, 401);
    });
  } finally {
    await built.dispose();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("POST /api/v1/debug/reload answers 422 naming a data file the manifest lists but lacks", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(join(dir, "profiles"));
  await copy(CATALOGUE_DIR, dir);
  await copy(PROFILES_DIR, join(dir, "profiles"));
  const built = await testApp({
    config: { catalogueDir: dir, profilesDir: join(dir, "profiles") },
  });
  const reload = () =>
    call(built.app, "/api/v1/debug/reload", { method: "POST", ...bearer(admin) });
  try {
    const before = (await call(built.app, "/health")).body;
    await Deno.remove(join(dir, "conversion.json"));
    const reply = await reload();
    assert.equal(reply.status, 422);
    assert.match(reply.body.error, /^Reload refused: 1 problem\(s\) in the data files/);
    assert.deepEqual(reply.body.details.problems, [{
      file: join(dir, "conversion.json"),
      path: "",
      message: "listed in manifest.json but missing: restore it, or remove it from " +
        "manifest.json to stop serving it",
    }]);
    const report = reply.body.details.files.find((f: { path: string }) =>
      f.path === join(dir, "conversion.json")
    );
    assert.equal(report.errors.length, 1);
    assert.deepEqual((await call(built.app, "/health")).body, before, "still the whole catalogue");

    const manifest = JSON.parse(await Deno.readTextFile(join(dir, "manifest.json")));
    manifest.technologies = manifest.technologies.filter((f: string) => f !== "conversion.json");
    await Deno.writeTextFile(join(dir, "manifest.json"), JSON.stringify(manifest));
    const accepted = await reload();
    assert.equal(accepted.status, 200, "removed from the manifest: served without it");
    assert.ok(accepted.body.technologies < before.technologies);
  } finally {
    await built.dispose();
    await Deno.remove(dir, { recursive: true });
  }
});
