/**
 * Every route's answers and errors that need no solve: models (save exactly as sent, ids as
 * strings, 404 never 200, JSON everywhere), run refusals (400 with every problem by path, no
 * job created), run history, 400 / 404 / 409 / 413, the OpenAPI document and the docs page.
 */
import assert from "node:assert/strict";
import { call, closedUrl, frontendModel, serveBackend } from "./_backend.ts";

Deno.test("backend routes", async (t) => {
  const b = await serveBackend(closedUrl());
  try {
    await t.step("models: save, list, read, replace, delete", async () => {
      assert.deepEqual((await call(b.base, "GET", "/api/models")).body, []);
      const draft = { name: "Draft", metadata: { description: "from metadata" }, x: [1, 2] };
      const a = await call(b.base, "POST", "/api/models", draft);
      assert.equal(a.status, 201);
      assert.deepEqual(Object.keys(a.body).sort(), [
        "created_at",
        "description",
        "id",
        "name",
        "updated_at",
      ]);
      assert.equal(a.body.description, "from metadata");
      const unnamed = await call(b.base, "POST", "/api/models", { id: 99, description: "d" });
      assert.equal(unnamed.body.name, "Unnamed Model");
      assert.equal(unnamed.body.description, "d");
      assert.equal(typeof unnamed.body.id, "string");
      assert.notEqual(unnamed.body.id, "99");
      const list = (await call(b.base, "GET", "/api/models")).body;
      assert.deepEqual(list.map((m: { id: string }) => m.id), [unnamed.body.id, a.body.id]);

      const got = await call(b.base, "GET", `/api/models/${unnamed.body.id}`);
      assert.deepEqual(got.body, { id: unnamed.body.id, description: "d" });
      // The frontend's form gets the DB timestamps too.
      const fm = await call(b.base, "POST", "/api/models", frontendModel());
      const fmGot = (await call(b.base, "GET", `/api/models/${fm.body.id}`)).body;
      assert.equal(fmGot.id, fm.body.id);
      assert.equal(fmGot.createdAt, fm.body.created_at);
      assert.equal(fmGot.updatedAt, fm.body.updated_at);

      const put = await call(b.base, "PUT", `/api/models/${a.body.id}`, { name: "Renamed" });
      assert.equal(put.status, 200);
      assert.equal(put.body.name, "Renamed");
      assert.equal(put.body.id, a.body.id);
      assert.deepEqual((await call(b.base, "GET", `/api/models/${a.body.id}`)).body, {
        name: "Renamed",
        id: a.body.id,
      });
      assert.equal((await call(b.base, "GET", "/api/models")).body[0].id, a.body.id);

      const putUnknown = await call(b.base, "PUT", "/api/models/12345", { name: "x" });
      assert.equal(putUnknown.status, 404);
      assert.equal(typeof putUnknown.body.error, "string");
      assert.equal((await call(b.base, "GET", "/api/models/12345")).status, 404);
      const delUnknown = await call(b.base, "DELETE", "/api/models/1732000000000");
      assert.equal(delUnknown.status, 404);
      assert.equal(typeof delUnknown.body.error, "string");
      const del = await call(b.base, "DELETE", `/api/models/${a.body.id}`);
      assert.deepEqual([del.status, del.body], [200, { deleted: a.body.id }]);
      assert.equal((await call(b.base, "GET", `/api/models/${a.body.id}`)).status, 404);
    });

    await t.step("bodies: malformed JSON, non-objects, empty, over 4 MB", async () => {
      for (const body of ["{", "[1]", "null", "3", '"x"', ""]) {
        const res = await call(b.base, "POST", "/api/models", body);
        assert.equal(res.status, 400, body);
        assert.equal(typeof res.body.error, "string");
      }
      const id = (await call(b.base, "POST", "/api/models", { name: "m" })).body.id;
      assert.equal((await call(b.base, "PUT", `/api/models/${id}`, "[]")).status, 400);
      assert.equal((await call(b.base, "POST", "/api/completed-runs", "{x")).status, 400);
      const big = JSON.stringify({ name: "big", blob: "x".repeat(4 * 1024 * 1024) });
      const res = await call(b.base, "POST", "/api/models", big);
      assert.equal(res.status, 413);
      assert.equal(typeof res.body.error, "string");
      // Just under the limit is saved.
      const fits = JSON.stringify({ name: "fits", blob: "x".repeat(4 * 1024 * 1024 - 100) });
      assert.equal((await call(b.base, "POST", "/api/models", fits)).status, 201);
    });

    await t.step("run: unknown model 404; invalid model 400 by path, no job", async () => {
      assert.equal((await call(b.base, "POST", "/api/models/424242/run")).status, 404);
      const bad = frontendModel();
      (bad["technologies"] as Record<string, unknown>[])[0]!["constraints"] = {
        energy_cap_mx: 5,
      };
      const id = (await call(b.base, "POST", "/api/models", bad)).body.id;
      const res = await call(b.base, "POST", `/api/models/${id}/run`);
      assert.equal(res.status, 400);
      assert.ok(Array.isArray(res.body.details) && res.body.details.length > 0);
      assert.ok(res.body.details.every((p: { path: string }) => typeof p.path === "string"));
      assert.match(res.body.error, /energy_cap_mx/);
      assert.deepEqual((await call(b.base, "GET", `/api/models/${id}/jobs`)).body, []);
      const draft = (await call(b.base, "POST", "/api/models", { name: "draft" })).body.id;
      const refused = await call(b.base, "POST", `/api/models/${draft}/run`);
      assert.equal(refused.status, 400);
      assert.ok(refused.body.details.some((p: { path: string }) => p.path === "locations"));
      const good = (await call(b.base, "POST", "/api/models", frontendModel())).body.id;
      const wrong = await call(b.base, "POST", `/api/models/${good}/run`, { parameters: 5 });
      assert.equal(wrong.status, 400);
      const unknownKey = await call(b.base, "POST", `/api/models/${good}/run`, {
        parameters: { subset_tme: "2005-01-01" },
      });
      assert.equal(unknownKey.status, 400);
      assert.ok(
        unknownKey.body.details.some((p: { path: string }) => p.path.includes("subset_tme")),
      );
      assert.equal((await call(b.base, "POST", `/api/models/${good}/run`, "[1]")).status, 400);
      assert.deepEqual((await call(b.base, "GET", `/api/models/${good}/jobs`)).body, []);
    });

    // Issue 19: the backend's 400 and the runner's failed job word a refusal alike.
    await t.step("run: a model with many problems is refused in the runner's words", async () => {
      const bad = frontendModel();
      (bad["technologies"] as Record<string, unknown>[])[0]!["constraints"] = Object.fromEntries(
        Array.from({ length: 30 }, (_, i) => [`energy_cap_mx${i}`, 5]),
      );
      const id = (await call(b.base, "POST", "/api/models", bad)).body.id;
      const res = await call(b.base, "POST", `/api/models/${id}/run`);
      assert.equal(res.status, 400);
      assert.match(res.body.error, /^Invalid model: .*; and \d+ more problems$/);
    });

    await t.step("jobs: unknown ids 404", async () => {
      for (const path of ["", "/results", "/logs", "/stream"]) {
        const res = await call(b.base, "GET", `/api/jobs/nope${path}`);
        assert.equal(res.status, 404, path);
        assert.equal(typeof res.body.error, "string");
      }
      assert.equal((await call(b.base, "DELETE", "/api/jobs/nope")).status, 404);
      assert.equal((await call(b.base, "GET", "/api/models/nope/jobs")).status, 404);
    });

    await t.step("completed runs: camelCase record, client id kept and replaced", async () => {
      assert.equal(
        (await call(b.base, "POST", "/api/completed-runs", { status: "x" })).status,
        400,
      );
      const record = {
        id: "job_1732000000000",
        modelName: "National (version 2)",
        framework: "calliope",
        status: "completed",
        completedAt: "2026-01-01T00:00:00.000Z",
        result: { objective: 1 },
        logs: ["a"],
      };
      const first = await call(b.base, "POST", "/api/completed-runs", record);
      assert.equal(first.status, 201);
      assert.deepEqual(first.body.id, "job_1732000000000");
      assert.equal(first.body.model_name, "National (version 2)");
      const again = await call(b.base, "POST", "/api/completed-runs", {
        ...record,
        status: "failed",
      });
      assert.equal(again.status, 201);
      const list = (await call(b.base, "GET", "/api/completed-runs")).body;
      assert.equal(list.length, 1);
      assert.equal(list[0].status, "failed");
      // Issue 18 changed this list's shape: the spec's members over the whole record as saved
      // (the frontend reloads its history from the list), its own camelCase names kept.
      assert.deepEqual(Object.keys(list[0]).sort(), [
        "completedAt",
        "created_at",
        "framework",
        "id",
        "logs",
        "modelName",
        "model_id",
        "model_name",
        "result",
        "status",
      ]);
      assert.equal(list[0].modelName, list[0].model_name);
      assert.equal(list[0].completedAt, record.completedAt);
      assert.deepEqual([list[0].result, list[0].logs], [record.result, record.logs]);
      const snake = await call(b.base, "POST", "/api/completed-runs", { model_id: "3" });
      assert.match(snake.body.id, /^run_/);
      assert.equal((await call(b.base, "GET", "/api/completed-runs")).body[0].id, snake.body.id);
      const got = await call(b.base, "GET", `/api/completed-runs/${encodeURIComponent(record.id)}`);
      assert.deepEqual(got.body, { ...record, status: "failed" });
      const del = await call(b.base, "DELETE", `/api/completed-runs/${record.id}`);
      assert.equal(del.status, 200);
      assert.equal(typeof del.body, "object");
      assert.equal((await call(b.base, "DELETE", `/api/completed-runs/${record.id}`)).status, 404);
      assert.equal((await call(b.base, "GET", `/api/completed-runs/${record.id}`)).status, 404);
    });

    await t.step("health, OpenAPI, docs, unknown paths", async () => {
      const health = await call(b.base, "GET", "/api/health");
      assert.equal(health.status, 200);
      assert.equal(health.body.status, "ok");
      assert.equal(health.body.runner.reachable, false);
      assert.deepEqual(health.body.jobs, { running: 0, queued: 0 });
      const doc = await call(b.base, "GET", "/api/openapi.json");
      assert.equal(doc.status, 200);
      for (
        const path of [
          "/api/health",
          "/api/models",
          "/api/models/{id}",
          "/api/models/{id}/run",
          "/api/models/{id}/jobs",
          "/api/jobs/{id}",
          "/api/jobs/{id}/results",
          "/api/jobs/{id}/logs",
          "/api/jobs/{id}/stream",
          "/api/completed-runs",
          "/api/completed-runs/{id}",
        ]
      ) assert.ok(doc.body.paths[path], path);
      const docs = await fetch(`${b.base}/api/docs`);
      assert.equal(docs.status, 200);
      await docs.body?.cancel();
      assert.equal((await call(b.base, "GET", "/api/nothing")).status, 404);
      assert.equal((await call(b.base, "PATCH", "/api/models")).status, 405);
    });
  } finally {
    await b.dispose();
  }
});
