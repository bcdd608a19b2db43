/**
 * Issue 18: the two lists the existing frontend reloads from, their paging and the names and ids
 * they keep.
 *
 * - `GET /api/models` answered the spec's list items only; the frontend loaded its models from
 *   it, saw empty models and auto-saved one over the newest saved model 1.5 s later. Each entry
 *   now carries the saved model whole beside the spec's fields (which win), plus
 *   `createdAt`/`updatedAt`.
 * - `GET /api/completed-runs` lacked `result`, `logs`, `solver`, `duration`, `objective`: after a
 *   reload the history had no results. Entries now carry the whole record, ordered by
 *   `completedAt`, the newest 100 by default.
 * - Paging (`?limit&offset`, `X-Total-Count`, 400 naming a bad parameter), model names of at
 *   most 200 characters, and no lone surrogate in stored names and ids (two different ones
 *   collapsed to one stored id).
 */
import assert from "node:assert/strict";
import { call, closedUrl, frontendModel, serveBackend } from "./_backend.ts";

Deno.test("GET /api/models carries each saved model: a frontend reload saves back what it saved (issue 18)", async () => {
  const b = await serveBackend(closedUrl());
  try {
    const model: Record<string, unknown> = {
      ...frontendModel(),
      id: "1732000000000",
      created_at: "not mine",
    };
    const saved = (await call(b.base, "POST", "/api/models", model)).body;
    const older = (await call(b.base, "POST", "/api/models", { name: "older", x: 1 })).body;
    // The same id of a model saved earlier: PUT makes it the most recently updated one.
    await call(b.base, "PUT", `/api/models/${older.id}`, { name: "older", x: 2 });
    const list = await call(b.base, "GET", "/api/models");
    assert.equal(list.status, 200);
    assert.equal(list.headers.get("x-total-count"), "2");
    assert.deepEqual(list.body.map((m: { id: string }) => m.id), [older.id, saved.id]);
    const entry = list.body[1];
    // The spec's fields first, winning over the saved `id` and `created_at`.
    assert.deepEqual(Object.keys(entry).slice(0, 5), [
      "id",
      "name",
      "description",
      "created_at",
      "updated_at",
    ]);
    assert.equal(entry.id, saved.id);
    assert.equal(entry.created_at, saved.created_at);
    assert.equal(entry.createdAt, saved.created_at);
    assert.equal(entry.updatedAt, saved.updated_at);
    for (const key of ["locations", "links", "technologies", "parameters", "timeSeries"]) {
      assert.deepEqual(entry[key], model[key], key);
    }
    assert.deepEqual(list.body[0].x, 2);

    // What the frontend does after a reload: it takes the list's first model as its own and
    // auto-saves it 1.5 s later. The saved model must come back unchanged.
    const reloaded = list.body[1];
    assert.equal((await call(b.base, "PUT", `/api/models/${reloaded.id}`, reloaded)).status, 200);
    const got = (await call(b.base, "GET", `/api/models/${saved.id}`)).body;
    assert.deepEqual(got.locations, model["locations"]);
    assert.deepEqual(got.technologies, model["technologies"]);

    // A saved `__proto__` member stays a plain member of the entry.
    await call(b.base, "POST", "/api/models", '{"name":"p","__proto__":{"polluted":1}}');
    const withProto = (await call(b.base, "GET", "/api/models")).body[0];
    assert.equal(withProto.name, "p");
    assert.deepEqual(Object.getOwnPropertyDescriptor(withProto, "__proto__")?.value, {
      polluted: 1,
    });
  } finally {
    await b.dispose();
  }
});

Deno.test("GET /api/models: ?limit and ?offset, X-Total-Count, 400 naming a bad parameter (issue 18)", async () => {
  const b = await serveBackend(closedUrl());
  try {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await call(b.base, "POST", "/api/models", { name: `m${i}` })).body.id);
    }
    const newest = [...ids].reverse();
    const page = async (query: string) => {
      const res = await call(b.base, "GET", `/api/models${query}`);
      assert.equal(res.status, 200, query);
      assert.equal(res.headers.get("x-total-count"), "5", query);
      return res.body.map((m: { id: string }) => m.id);
    };
    assert.deepEqual(await page(""), newest);
    assert.deepEqual(await page("?limit=2"), newest.slice(0, 2));
    assert.deepEqual(await page("?limit=2&offset=2"), newest.slice(2, 4));
    assert.deepEqual(await page("?offset=4"), newest.slice(4));
    assert.deepEqual(await page("?offset=9"), []);
    assert.deepEqual(await page("?limit=1000"), newest);
    for (
      const [query, name] of [
        ["?limit=0", "limit"],
        ["?limit=1001", "limit"],
        ["?limit=abc", "limit"],
        ["?limit=-1", "limit"],
        ["?limit=1.5", "limit"],
        ["?limit=", "limit"],
        ["?limit=1&limit=2", "limit"],
        ["?offset=-1", "offset"],
        ["?offset=x", "offset"],
        ["?offset=99999999999", "offset"],
      ] as const
    ) {
      const res = await call(b.base, "GET", `/api/models${query}`);
      assert.equal(res.status, 400, query);
      assert.match(res.body.error, new RegExp(`^Query parameter ${name}: `), query);
      assert.equal(res.body.details[0].path, name, query);
    }
    const doc = (await call(b.base, "GET", "/api/openapi.json")).body;
    const list = doc.paths["/api/models"].get;
    assert.match(list.description, /`limit` \(default 1000, at most 1000\)/);
    assert.ok(list.parameters.some((p: { name: string }) => p.name === "offset"));
    assert.ok(list.responses["200"].headers["X-Total-Count"]);
  } finally {
    await b.dispose();
  }
});

Deno.test("GET /api/models and /api/completed-runs stream a page too heavy for one text, every entry whole", async () => {
  const b = await serveBackend(closedUrl());
  try {
    // Five models of 3.9 MB: 19.5 MB of bodies, past the 16 MiB answered as one text.
    const blob = "y".repeat(3_900_000);
    for (let i = 0; i < 5; i++) {
      assert.equal(
        (await call(b.base, "POST", "/api/models", { name: `big${i}`, blob })).status,
        201,
      );
    }
    const res = await fetch(`${b.base}/api/models`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/json");
    const list = await res.json();
    assert.deepEqual(list.map((m: { name: string }) => m.name), [
      "big4",
      "big3",
      "big2",
      "big1",
      "big0",
    ]);
    assert.ok(list.every((m: { blob: string }) => m.blob === blob));
    const second = await call(b.base, "GET", "/api/models?limit=1&offset=1");
    assert.equal(second.body[0].name, "big3");
    // The run history the same way.
    for (let i = 0; i < 5; i++) {
      const record = { id: `job_${i}`, modelName: "m", completedAt: `2026-01-0${i + 1}`, blob };
      assert.equal((await call(b.base, "POST", "/api/completed-runs", record)).status, 201);
    }
    const runs = await (await fetch(`${b.base}/api/completed-runs`)).json();
    assert.deepEqual(runs.map((r: { id: string }) => r.id), [
      "job_4",
      "job_3",
      "job_2",
      "job_1",
      "job_0",
    ]);
    assert.ok(runs.every((r: { blob: string }) => r.blob === blob));
  } finally {
    await b.dispose();
  }
});

Deno.test("GET /api/completed-runs carries each record whole, by completedAt, newest 100 (issue 18)", async () => {
  const b = await serveBackend(closedUrl());
  try {
    const record = (i: number) => ({
      id: `job_${1732000000000 + i}`,
      modelName: "National (version 2)",
      framework: "calliope",
      solver: "highs",
      status: "completed",
      // Posted out of order: the list orders by the record's own completion time.
      completedAt: new Date(Date.UTC(2026, 0, 1, 0, (i * 37) % 105)).toISOString(),
      duration: "12.3s",
      objective: 1000 + i,
      terminationCondition: "optimal",
      result: { objective: 1000 + i, capacities: { "r1::ccgt": 5 } },
      logs: ["Running HiGHS", `run ${i}`],
    });
    for (let i = 0; i < 105; i++) {
      assert.equal((await call(b.base, "POST", "/api/completed-runs", record(i))).status, 201);
    }
    const list = await call(b.base, "GET", "/api/completed-runs");
    assert.equal(list.status, 200);
    assert.equal(list.body.length, 100);
    assert.equal(list.headers.get("x-total-count"), "105");
    const times = list.body.map((r: { completedAt: string }) => r.completedAt);
    assert.deepEqual(times, [...times].sort().reverse());
    const first = list.body[0];
    const expected = record(list.body[0].objective - 1000);
    for (const key of ["result", "logs", "solver", "duration", "objective", "completedAt"]) {
      assert.deepEqual(first[key], expected[key as keyof typeof expected], key);
    }
    assert.equal(first.id, expected.id);
    assert.equal(first.model_name, "National (version 2)");
    assert.equal(first.modelName, "National (version 2)");
    assert.equal(first.model_id, null);
    const rest = await call(b.base, "GET", "/api/completed-runs?offset=100");
    assert.equal(rest.body.length, 5);
    const all = [...list.body, ...rest.body].map((r: { id: string }) => r.id);
    assert.equal(new Set(all).size, 105);
    for (const query of ["?limit=0", "?limit=1001", "?offset=-3"]) {
      const res = await call(b.base, "GET", `/api/completed-runs${query}`);
      assert.equal(res.status, 400, query);
    }

    // The spec's fields win over saved members; a replace without a time keeps its place.
    const odd = {
      id: "r1",
      model_name: "m",
      model_id: 7,
      status: "failed",
      created_at: "mine",
      completedAt: "2030-01-01T00:00:00Z",
    };
    await call(b.base, "POST", "/api/completed-runs", odd);
    const top = (await call(b.base, "GET", "/api/completed-runs?limit=1")).body[0];
    assert.deepEqual([top.id, top.model_id, top.status], ["r1", "7", "failed"]);
    assert.notEqual(top.created_at, "mine");
    assert.equal(top.completedAt, "2030-01-01T00:00:00Z");
    const { completedAt: _, ...noTime } = odd;
    await call(b.base, "POST", "/api/completed-runs", noTime);
    const again = (await call(b.base, "GET", "/api/completed-runs?limit=1")).body[0];
    // It has no time of its own now: it keeps the one it had, and its place.
    assert.equal(again.id, "r1");
    assert.equal(again.completedAt, "2030-01-01T00:00:00.000Z");
    // A record that never gave one is placed (and dated) by when it was first saved.
    await call(b.base, "POST", "/api/completed-runs", { id: "r2", model_name: "m" });
    const r2 = (await call(b.base, "GET", "/api/completed-runs?limit=2")).body[1];
    assert.equal(r2.id, "r2");
    assert.equal(r2.completedAt, r2.created_at);
  } finally {
    await b.dispose();
  }
});

Deno.test("model names: at most 200 characters, well-formed; run ids well-formed (issue 18)", async () => {
  const b = await serveBackend(closedUrl());
  try {
    const ok = await call(b.base, "POST", "/api/models", { name: "n".repeat(200) });
    assert.equal(ok.status, 201);
    // 200 characters of two UTF-16 units each still fit.
    assert.equal(
      (await call(b.base, "POST", "/api/models", { name: "😀".repeat(200) })).status,
      201,
    );
    const long = await call(b.base, "POST", "/api/models", { name: "n".repeat(201) });
    assert.equal(long.status, 400);
    assert.match(long.body.error, /^name must be at most 200 characters; it has 201$/);
    assert.equal(long.body.details[0].path, "name");
    const put = await call(b.base, "PUT", `/api/models/${ok.body.id}`, { name: "n".repeat(5000) });
    assert.equal(put.status, 400);
    assert.equal((await call(b.base, "GET", `/api/models/${ok.body.id}`)).body.name.length, 200);
    // A lone surrogate, sent as a JSON escape: refused in the name and the description.
    for (
      const [body, path] of [
        ['{"name":"a\\ud800"}', "name"],
        ['{"name":"a","description":"\\udc00"}', "description"],
        ['{"name":"a","metadata":{"description":"x\\ud800y"}}', "description"],
      ] as const
    ) {
      const res = await call(b.base, "POST", "/api/models", body);
      assert.equal(res.status, 400, body);
      assert.match(res.body.error, /lone UTF-16 surrogate/);
      assert.equal(res.body.details[0].path, path);
    }
    // A well-formed pair is fine.
    assert.equal(
      (await call(b.base, "POST", "/api/models", '{"name":"\\ud83d\\ude00"}')).status,
      201,
    );

    // Two different lone-surrogate run ids became one stored id: both are refused now.
    for (const id of ["run\\ud800", "run\\udc00"]) {
      const res = await call(
        b.base,
        "POST",
        "/api/completed-runs",
        `{"id":"${id}","modelName":"m"}`,
      );
      assert.equal(res.status, 400, id);
      assert.equal(res.body.details[0].path, "id");
    }
    for (const member of ["modelName", "model_name", "model_id", "status"]) {
      const res = await call(
        b.base,
        "POST",
        "/api/completed-runs",
        `{"id":"r","modelName":"m","${member}":"x\\udbff"}`,
      );
      assert.equal(res.status, 400, member);
      assert.equal(res.body.details[0].path, member);
    }
    assert.deepEqual((await call(b.base, "GET", "/api/completed-runs")).body, []);
  } finally {
    await b.dispose();
  }
});

Deno.test("GET /api/models: gzipped once for a client that accepts it, the same entries", async () => {
  const b = await serveBackend(closedUrl());
  try {
    for (let i = 0; i < 3; i++) await call(b.base, "POST", "/api/models", frontendModel());
    const plain = await fetch(`${b.base}/api/models`, {
      headers: { "Accept-Encoding": "identity" },
    });
    assert.equal(plain.headers.get("content-encoding"), null);
    const plainText = await plain.text();
    // Two at once share one compression; both decode to the plain answer.
    const [first, second] = await Promise.all(
      [1, 2].map(() =>
        b.backend.app.request("/api/models", {
          headers: { "Accept-Encoding": "gzip, deflate, br" },
        })
      ),
    );
    for (const res of [first!, second!]) {
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-encoding"), "gzip");
      assert.match(res.headers.get("vary") ?? "", /Accept-Encoding/);
      assert.equal(res.headers.get("x-total-count"), "3");
      const gzipped = new Uint8Array(await res.arrayBuffer());
      assert.ok(gzipped.length < plainText.length / 3, `${gzipped.length} bytes`);
      const text = await new Response(
        new Blob([gzipped]).stream().pipeThrough(new DecompressionStream("gzip")),
      ).text();
      assert.equal(text, plainText);
    }
  } finally {
    await b.dispose();
  }
});
