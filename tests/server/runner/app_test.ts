import assert from "node:assert/strict";
import { findNativeSolver } from "../../../lib/solver/native/find_native_solvers.ts";
import { dataOf, FrameReader, testApp } from "./_app.ts";
import { runRequest } from "./_runner.ts";

type Json = Record<string, unknown>;

async function call(
  app: { request: (p: string, i?: RequestInit) => Response | Promise<Response> },
  path: string,
  init?: RequestInit,
) {
  const res = await app.request(path, init);
  const text = await res.text();
  return { res, status: res.status, body: text ? JSON.parse(text) as Json : undefined };
}

/** Submits and follows the stream to its end; returns the job id and the data frames. */
async function runToEnd(app: ReturnType<typeof testApp>["app"], body: unknown) {
  const submitted = await call(app, "/run", runRequest(body));
  assert.equal(submitted.status, 202);
  const id = submitted.body!["job_id"] as string;
  const res = await app.request(`/run/${id}/stream`);
  const frames = await new FrameReader(res.body!).rest();
  return { id, events: dataOf(frames) };
}

Deno.test("GET /health names the solver and counts jobs", async () => {
  const built = testApp();
  try {
    const { status, body } = await call(built.app, "/health");
    assert.equal(status, 200);
    const { solvers, ...rest } = body as Record<string, unknown>;
    assert.deepEqual(rest, {
      status: "ok",
      version: "1.0.0",
      solver: "TestSolver 0.0 (double)",
      jobs: { running: 0, queued: 0 },
    });
    // The built-in first, then the command-line solvers on PATH (CI installs cbc, clp, glpk).
    const listed = solvers as { name: string; version: string; path: string | null }[];
    assert.deepEqual(listed[0], { name: "highs", version: "TestSolver 0.0 (double)", path: null });
    for (const name of ["cbc", "clp", "glpk"]) {
      const onPath = await findNativeSolver(name as "cbc");
      const entry = listed.find((s) => s.name === name);
      assert.equal(entry?.path, onPath?.path, name);
      if (onPath) assert.match(entry!.version, /\(native\)$/);
    }
    await call(built.app, "/run", runRequest({ steps: 100, step_ms: 10 }));
    await call(built.app, "/run", runRequest({ steps: 1 }));
    const later = await call(built.app, "/health");
    assert.deepEqual(later.body!["jobs"], { running: 1, queued: 1 });
  } finally {
    await built.dispose();
  }
});

Deno.test("POST /run answers 202 with a UUID job_id; GET /run/{id} follows the job", async () => {
  const built = testApp();
  try {
    const { status, body } = await call(built.app, "/run", runRequest({ steps: 2, step_ms: 20 }));
    assert.equal(status, 202);
    const id = body!["job_id"] as string;
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const running = await call(built.app, `/run/${id}`);
    assert.equal(running.status, 200);
    assert.equal(running.body!["status"], "running");
    assert.deepEqual(Object.keys(running.body!).sort(), [
      "created_at",
      "error",
      "finished_at",
      "id",
      "problems",
      "started_at",
      "status",
      "termination",
      "worker",
    ]);
    const early = await call(built.app, `/run/${id}/result`);
    assert.equal(early.status, 409);
    assert.deepEqual(early.body, {
      error: `Job ${id} is running; its result is not ready yet`,
      details: { status: "running" },
    });
    await new FrameReader((await built.app.request(`/run/${id}/stream`)).body!).rest();
    const done = await call(built.app, `/run/${id}`);
    assert.equal(done.body!["status"], "completed");
    assert.equal(done.body!["termination"], "optimal");
    assert.equal(done.body!["error"], null);
    assert.equal(done.body!["problems"], null);
    assert.ok(
      Date.parse(done.body!["finished_at"] as string) >=
        Date.parse(done.body!["started_at"] as string),
    );
    const result = await call(built.app, `/run/${id}/result`);
    assert.equal(result.status, 200);
    assert.equal(result.body!["success"], true);
    assert.equal(result.body!["termination"], "optimal");
    assert.equal((result.body!["timestamps"] as string[]).length, 2, "the full result");
  } finally {
    await built.dispose();
  }
});

Deno.test("an infeasible run is completed with success false and its result readable", async () => {
  const built = testApp();
  try {
    const { id, events } = await runToEnd(built.app, { steps: 1, infeasible: true });
    const done = events.at(-1)!;
    assert.equal(done["type"], "done");
    assert.equal(done["success"], false);
    assert.equal(done["termination"], "infeasible");
    assert.equal(done["objective"], null);
    const result = await call(built.app, `/run/${id}/result`);
    assert.equal(result.status, 200);
    assert.equal(result.body!["success"], false);
    assert.deepEqual(result.body!["conflicts"], ["balance::x::electricity::2005-01-01T00:00:00"]);
  } finally {
    await built.dispose();
  }
});

Deno.test("a failed run: stream error with the message, status failed, result 409", async () => {
  const built = testApp();
  const error = console.error;
  console.error = () => {};
  try {
    const { id, events } = await runToEnd(built.app, { steps: 1, fail: "out of memory" });
    assert.deepEqual(events.at(-1), { type: "error", error: "out of memory" });
    const status = await call(built.app, `/run/${id}`);
    assert.equal(status.body!["status"], "failed");
    assert.equal(status.body!["error"], "out of memory");
    const result = await call(built.app, `/run/${id}/result`);
    assert.equal(result.status, 409);
    assert.deepEqual(result.body, {
      error: `Job ${id} failed; it has no result: out of memory`,
      details: { status: "failed" },
    });
    const cancel = await call(built.app, `/run/${id}`, { method: "DELETE" });
    assert.equal(cancel.status, 409);
    assert.deepEqual(cancel.body, {
      error: `Job ${id} has finished already (failed)`,
      details: { status: "failed" },
    });
  } finally {
    console.error = error;
    await built.dispose();
  }
});

Deno.test("DELETE /run/{id}: a pending and a running job are cancelled; 409 after, 404 unknown", async () => {
  const built = testApp();
  try {
    const running =
      (await call(built.app, "/run", runRequest({ steps: 1000, step_ms: 10 }))).body!["job_id"];
    const pending = (await call(built.app, "/run", runRequest({ steps: 1 }))).body!["job_id"];
    for (const id of [pending, running]) {
      const res = await call(built.app, `/run/${id}`, { method: "DELETE" });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { cancelled: id, status: "cancelled" });
      const status = await call(built.app, `/run/${id}`);
      assert.equal(status.body!["status"], "cancelled");
      assert.equal(status.body!["error"], "cancelled");
      const events = dataOf(
        await new FrameReader((await built.app.request(`/run/${id}/stream`)).body!).rest(),
      );
      assert.deepEqual(events.at(-1), { type: "error", error: "cancelled" });
      const result = await call(built.app, `/run/${id}/result`);
      assert.equal(result.status, 409);
      assert.deepEqual(result.body, {
        error: `Job ${id} was cancelled; it has no result`,
        details: { status: "cancelled" },
      });
      const again = await call(built.app, `/run/${id}`, { method: "DELETE" });
      assert.equal(again.status, 409);
      assert.deepEqual(again.body!["details"], { status: "cancelled" });
    }
    const pendingStatus = await call(built.app, `/run/${pending}`);
    assert.equal(pendingStatus.body!["started_at"], null);
  } finally {
    await built.dispose();
  }
});

Deno.test("unknown job ids answer 404 on every job route", async () => {
  const built = testApp();
  try {
    const id = crypto.randomUUID();
    for (
      const [path, method] of [
        [`/run/${id}`, "GET"],
        [`/run/${id}/stream`, "GET"],
        [`/run/${id}/result`, "GET"],
        [`/run/${id}`, "DELETE"],
        ["/run/not-a-uuid", "GET"],
      ] as const
    ) {
      const res = await call(built.app, path, { method });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.match(res.body!["error"] as string, /^Unknown job: /);
      assert.equal(res.res.headers.get("access-control-allow-origin"), "*");
    }
  } finally {
    await built.dispose();
  }
});

Deno.test("POST /run refuses bodies of the wrong shape with 400, 413 or 415 in the one error format", async (t) => {
  const built = testApp({ maxBodyBytes: 200 });
  try {
    const json = (body: string): RequestInit => ({
      method: "POST",
      body,
      headers: { "Content-Type": "application/json" },
    });
    const mustBeObject = {
      error: "Invalid request body: must be an object",
      details: [{ path: "", message: "must be an object" }],
    };
    const cases: [string, RequestInit, number, Json][] = [
      ["an empty object", json("{}"), 400, { error: "Empty model payload" }],
      ["an empty object with whitespace", json(" { \n } "), 400, { error: "Empty model payload" }],
      ["malformed JSON", json('{"steps": '), 400, {
        error: "Malformed JSON in request body: the text ends before the JSON value does " +
          "(at byte 10)",
      }],
      ["a syntax error in the middle", json('{"steps": 1,, "x": 2}'), 400, {
        error: 'Malformed JSON in request body: unexpected "," where a key should be (at byte 12)',
      }],
      ["no body", json(""), 400, {
        error: "Malformed JSON in request body: no JSON value (at byte 0)",
      }],
      ["an array", json("[1]"), 400, mustBeObject],
      ["a string", json('"model"'), 400, mustBeObject],
      ["a number", json("12"), 400, mustBeObject],
      ["nested deeper than 64 levels", json(`{"a":${"[".repeat(70)}${"]".repeat(70)}}`), 400, {
        error: "The JSON body nests deeper than 64 levels; flatten it",
      }],
      ["over the body cap", json(JSON.stringify({ steps: 1, fail: "x".repeat(300) })), 413, {
        error: "Request body larger than 200 bytes (200 bytes)",
      }],
      [
        "not JSON",
        { method: "POST", body: "steps=1", headers: { "Content-Type": "text/plain" } },
        415,
        {
          error: "Unsupported Media Type",
        },
      ],
      ["a body without a media type", { method: "POST", body: '{"steps":1}' }, 415, {
        error: "Unsupported Media Type",
      }],
    ];
    for (const [name, init, status, body] of cases) {
      await t.step(name, async () => {
        const res = await call(built.app, "/run", init);
        assert.equal(res.status, status);
        assert.deepEqual(res.body, body);
        assert.equal(res.res.headers.get("access-control-allow-origin"), "*");
      });
    }
    await t.step("a body without Content-Length over the cap", async () => {
      const bytes = new TextEncoder().encode(JSON.stringify({ steps: 1, fail: "y".repeat(300) }));
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(bytes);
          c.close();
        },
      });
      const res = await call(built.app, "/run", {
        method: "POST",
        body: stream,
        headers: { "Content-Type": "application/json" },
      });
      assert.equal(res.status, 413);
    });
    await t.step("a body in many small chunks is checked across them", async () => {
      const text = '{"steps": 1, "step_ms": 0.5e1, "fail": "a \\"quoted\\" \\u00e9"}';
      const bytes = new TextEncoder().encode(text);
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          for (const b of bytes) c.enqueue(new Uint8Array([b]));
          c.close();
        },
      });
      const res = await call(built.app, "/run", {
        method: "POST",
        body: stream,
        headers: { "Content-Type": "application/json; charset=utf-8" },
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      // The job read the bytes as sent: the double fails with the decoded string.
      const error = console.error;
      console.error = () => {};
      try {
        const stream = await built.app.request(`/run/${res.body!["job_id"]}/stream`);
        const events = dataOf(await new FrameReader(stream.body!).rest());
        assert.deepEqual(events.at(-1), { type: "error", error: 'a "quoted" \u00e9' });
      } finally {
        console.error = error;
      }
    });
    assert.equal(built.runner.counts.started, 1, "only the well-shaped body ran");
  } finally {
    await built.dispose();
  }
});

Deno.test("POST /run: an invalid model is accepted and its job fails with every problem (was a 400 before issue 18)", async () => {
  const built = testApp();
  try {
    const { id, events } = await runToEnd(built.app, { steps: 0, stepms: 1, fail: 3 });
    const problems = [
      { path: "stepms", message: "unknown key" },
      { path: "steps", message: "must be an integer from 1 to 1000" },
      { path: "fail", message: "must be a string" },
    ];
    const error = "Invalid model: stepms: unknown key; steps: must be an integer from 1 to 1000; " +
      "fail: must be a string";
    assert.deepEqual(events.at(-1), { type: "error", error, problems });
    const status = await call(built.app, `/run/${id}`);
    assert.equal(status.body!["status"], "failed");
    assert.equal(status.body!["error"], error);
    assert.deepEqual(status.body!["problems"], problems);
    const result = await call(built.app, `/run/${id}/result`);
    assert.equal(result.status, 409);
    assert.equal(built.runner.counts.started, 0, "an invalid model never runs");
  } finally {
    await built.dispose();
  }
});

Deno.test("an invalid model with many problems: 20 named, all listed in problems", async () => {
  const built = testApp({ maxBodyBytes: 64 * 1024 });
  try {
    const body: Json = { steps: 1 };
    for (let i = 0; i < 30; i++) body[`extra_${i}`] = i;
    const { id, events } = await runToEnd(built.app, body);
    const end = events.at(-1)!;
    assert.equal(end["type"], "error");
    assert.match(end["error"] as string, /extra_19: unknown key; and 10 more problems$/);
    assert.equal((end["problems"] as unknown[]).length, 30);
    const status = await call(built.app, `/run/${id}`);
    assert.equal((status.body!["problems"] as unknown[]).length, 30);
  } finally {
    await built.dispose();
  }
});

Deno.test("POST /run answers 503 when the queue is full or the service stops", async () => {
  const stop = new AbortController();
  const built = testApp({ maxQueued: 1 }, { shutdown: stop.signal });
  try {
    assert.equal(
      (await call(built.app, "/run", runRequest({ steps: 100, step_ms: 10 }))).status,
      202,
    );
    assert.equal((await call(built.app, "/run", runRequest({ steps: 1 }))).status, 202);
    const full = await call(built.app, "/run", runRequest({ steps: 1 }));
    assert.equal(full.status, 503);
    assert.deepEqual(full.body, {
      error: "Too many jobs are waiting for a worker; try again later",
    });
    stop.abort();
    const stopping = await call(built.app, "/run", runRequest({ steps: 1 }));
    assert.equal(stopping.status, 503);
    assert.deepEqual(stopping.body, { error: "The runner service is stopping" });
  } finally {
    await built.dispose();
  }
});

Deno.test("CORS: any origin; preflights of a JSON POST and of DELETE are answered", async (t) => {
  const built = testApp();
  try {
    for (
      const [method, path] of [["POST", "/run"], ["DELETE", `/run/${crypto.randomUUID()}`]] as const
    ) {
      await t.step(`preflight of ${method}`, async () => {
        const res = await built.app.request(path, {
          method: "OPTIONS",
          headers: {
            Origin: "http://localhost:5173",
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": "content-type,x-requested-with",
          },
        });
        assert.equal(res.status, 204);
        assert.equal(res.headers.get("access-control-allow-origin"), "*");
        assert.equal(res.headers.get("access-control-allow-methods"), "GET, POST, DELETE, OPTIONS");
        assert.equal(
          res.headers.get("access-control-allow-headers"),
          "content-type,x-requested-with",
        );
      });
    }
    await t.step("responses carry the allow-origin header", async () => {
      const submitted = await built.app.request("/run", {
        ...runRequest({ steps: 1 }),
        headers: { "Content-Type": "application/json", Origin: "app://tempo" },
      });
      assert.equal(submitted.headers.get("access-control-allow-origin"), "*");
      const { job_id } = await submitted.json();
      const stream = await built.app.request(`/run/${job_id}/stream`, {
        headers: { Origin: "null" },
      });
      assert.equal(stream.headers.get("access-control-allow-origin"), "*");
      await new FrameReader(stream.body!).rest();
      const result = await built.app.request(`/run/${job_id}/result`);
      assert.equal(result.status, 200);
      assert.equal(result.headers.get("access-control-allow-origin"), "*");
      await result.body?.cancel();
      const health = await built.app.request("/health");
      assert.equal(health.headers.get("access-control-allow-origin"), "*");
      await health.body?.cancel();
    });
  } finally {
    await built.dispose();
  }
});

Deno.test("unknown paths answer 404 and wrong methods 405, in the one format", async () => {
  const built = testApp();
  try {
    const missing = await call(built.app, "/nope");
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { error: "Not found: GET /nope" });
    const wrong = await call(built.app, "/run", { method: "GET" });
    assert.equal(wrong.status, 405);
    assert.equal(wrong.res.headers.get("allow"), "POST");
  } finally {
    await built.dispose();
  }
});

Deno.test("/openapi.json documents every route and every error row; /docs serves Swagger UI", async () => {
  const built = testApp();
  try {
    const { status, body } = await call(built.app, "/openapi.json");
    assert.equal(status, 200);
    const paths = body!["paths"] as Record<string, Record<string, { responses: Json }>>;
    const rows = Object.fromEntries(
      Object.entries(paths).flatMap(([path, item]) =>
        Object.entries(item).map((
          [method, op],
        ) => [`${method.toUpperCase()} ${path}`, Object.keys(op.responses).sort()])
      ),
    );
    assert.deepEqual(rows, {
      "GET /health": ["200"],
      "POST /run": ["202", "400", "413", "415", "503"],
      "GET /run/{id}/stream": ["200", "404"],
      "GET /run/{id}": ["200", "404"],
      "GET /run/{id}/result": ["200", "404", "409"],
      "DELETE /run/{id}": ["200", "404", "409"],
    });
    const schemas = (body!["components"] as { schemas: Json }).schemas;
    for (
      const name of [
        "ErrorResponse",
        "RunRequest",
        "RunAccepted",
        "JobStatus",
        "RunResult",
        "JobCancelled",
        "RunnerHealth",
        "RunEvent",
      ]
    ) assert.ok(schemas[name], `schema ${name}`);
    assert.ok(paths["/run/{id}/stream"]!["get"]!.responses["200"]);
    const docs = await built.app.request("/docs");
    assert.equal(docs.status, 200);
    assert.match(await docs.text(), /swagger-ui/);
  } finally {
    await built.dispose();
  }
});

Deno.test("a finished job answers 404 once RUNNER_JOB_TTL_S has passed", async () => {
  let now = new Date("2025-06-01T12:00:00Z");
  const built = testApp({ jobTtlMs: 1000 }, { clock: () => now });
  try {
    const { id } = await runToEnd(built.app, { steps: 1 });
    const kept = await call(built.app, `/run/${id}`);
    assert.equal(kept.body!["created_at"], "2025-06-01T12:00:00.000Z");
    assert.equal(kept.body!["finished_at"], "2025-06-01T12:00:00.000Z");
    now = new Date("2025-06-01T12:00:00.999Z");
    assert.equal((await call(built.app, `/run/${id}/result`)).status, 200);
    now = new Date("2025-06-01T12:00:01Z");
    assert.equal((await call(built.app, `/run/${id}/result`)).status, 404);
    assert.equal((await call(built.app, `/run/${id}`)).status, 404);
  } finally {
    await built.dispose();
  }
});
