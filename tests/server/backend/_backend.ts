/**
 * Helpers of the backend tests: the real solver runner (HiGHS) served on a real socket, and a
 * backend over a fresh state store, served too, so that every test speaks HTTP to both.
 */
import assert from "node:assert/strict";
import { createHighsModelRunner } from "../../../lib/runner/highs_model_runner.ts";
import type { ModelRunner } from "../../../lib/runner/model_runner.ts";
import { openStore, type Store } from "../../../lib/store/store.ts";
import {
  type BackendApp,
  type BackendAppDeps,
  createBackendApp,
} from "../../../server/backend/app.ts";
import { createRunnerApp } from "../../../server/runner/app.ts";
import { testConfig } from "../runner/_app.ts";

let highs: Promise<ModelRunner> | undefined;

/** The real runner service on a free port; dispose() closes it. */
export async function serveRunner(workers = 2) {
  highs ??= createHighsModelRunner();
  const built = createRunnerApp({
    runner: await highs,
    config: testConfig({ workers, maxBodyBytes: 64 * 1024 * 1024, keepaliveMs: 15_000 }),
  });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, built.app.fetch);
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    built,
    async dispose() {
      await built.close();
      await server.shutdown();
    },
  };
}

/** A URL where nothing listens. */
export function closedUrl(): string {
  const listener = Deno.listen({ port: 0, hostname: "127.0.0.1" });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return `http://127.0.0.1:${port}`;
}

/** A served backend over `store` (default a fresh in-memory one). */
export async function serveBackend(
  runnerUrl: string,
  options: Partial<BackendAppDeps> & { storePath?: string } = {},
) {
  const store: Store = options.store ?? await openStore(options.storePath ?? ":memory:");
  const backend: BackendApp = await createBackendApp({
    config: {
      runnerUrl,
      catalogueUrl: closedUrl(),
      maxBodyBytes: 4 * 1024 * 1024,
    },
    log: () => {},
    ...options,
    store,
  });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, backend.app.fetch);
  const base = `http://127.0.0.1:${server.addr.port}`;
  return {
    base,
    backend,
    store,
    /** Closes the backend and its listener, and the store unless `keepStore`. */
    async dispose(keepStore = false) {
      await backend.close();
      await server.shutdown();
      if (!keepStore) await store.close();
    },
  };
}

/** JSON of a request, with its status. */
export async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  // deno-lint-ignore no-explicit-any -- test answers are read member by member
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body !== undefined ? { "Content-Type": "application/json" } : {}), ...headers },
    ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === "" ? undefined : JSON.parse(text);
  } catch {
    // not JSON: the text
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** Polls a job until its status is final or `ms` passed; its last view. */
// deno-lint-ignore no-explicit-any -- a job view as JSON
export async function waitFinished(base: string, jobId: string, ms = 30_000): Promise<any> {
  const end = performance.now() + ms;
  for (;;) {
    const { body } = await call(base, "GET", `/api/jobs/${jobId}`);
    if (["completed", "failed", "cancelled"].includes(body.status)) return body;
    if (performance.now() > end) throw new Error(`job ${jobId} still ${body.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Saves `model` in the backend, runs it and waits until its job completed (each step asserted);
 * the job's id and its results.
 */
export async function runSavedModel(
  base: string,
  model: unknown,
  // deno-lint-ignore no-explicit-any -- a result as JSON, read member by member
): Promise<{ jobId: string; result: any }> {
  const saved = await call(base, "POST", "/api/models", model);
  assert.equal(saved.status, 201, JSON.stringify(saved.body));
  const run = await call(base, "POST", `/api/models/${saved.body.id}/run`);
  assert.equal(run.status, 202, JSON.stringify(run.body));
  const job = await waitFinished(base, run.body.id, 60_000);
  assert.equal(job.status, "completed", JSON.stringify(job));
  const result = (await call(base, "GET", `/api/jobs/${run.body.id}/results`)).body;
  return { jobId: run.body.id, result };
}

/** The frontend's national-scale model, one day. */
export function frontendModel(): Record<string, unknown> {
  return JSON.parse(
    Deno.readTextFileSync(
      new URL("../../fixtures/model/national_scale_frontend.json", import.meta.url),
    ),
  );
}
