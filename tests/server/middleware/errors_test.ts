import assert from "node:assert/strict";
import { z } from "zod";
import {
  boundedError,
  describeIssues,
  MAX_ERROR_BYTES,
  MAX_PROBLEMS,
} from "../../../server/middleware/errors.ts";
import { call, heatApp, postJson } from "../heat/_heat.ts";
import { testApp } from "../catalogue/_catalogue.ts";

/** A JSON object of unknown keys `k0`, `k1`, ... of about `bytes` bytes. */
function unknownKeys(bytes: number): Record<string, number> {
  const keys: Record<string, number> = {};
  let size = 2;
  for (let i = 0; size < bytes - 32; i++) {
    keys[`k${i}`] = 1;
    size += `k${i}`.length + 5;
  }
  return keys;
}

const bytesOf = (text: string) => new TextEncoder().encode(text).length;

Deno.test("describeIssues() names the first problems, counts the rest and lists allowed names once", () => {
  const schema = z.strictObject({ alpha: z.number(), beta: z.number() });
  const input = { ...Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`x${i}`, 1])) };
  const result = schema.safeParse(input);
  assert.equal(result.success, false);
  const text = describeIssues(result.error!.issues, input, schema);
  const named = [...text.matchAll(/(?:^|; )(\w+): (?:is required|unknown member)/g)];
  assert.equal(named.length, MAX_PROBLEMS);
  assert.deepEqual(named.slice(0, 3).map((m) => m[1]), ["alpha", "beta", "x0"]);
  assert.match(text, /; and 82 more problems$/, "100 unknown + 2 missing, 20 named");
  assert.equal(text.split("allowed: alpha, beta").length - 1, 1, "allowed names once");
});

Deno.test("describeIssues() lists the allowed names once per object, keeps near-name hints", () => {
  const schema = z.strictObject({ area: z.number() });
  const input = { Area: 1, x: 2, y: 3 };
  const result = schema.safeParse(input);
  assert.equal(
    describeIssues(result.error!.issues, input, schema),
    'area: is required; Area: unknown member (did you mean "area"?); x: unknown member; ' +
      "allowed: area; y: unknown member",
  );
});

Deno.test("boundedError() keeps every error answer within 64 KB", () => {
  const huge = "é".repeat(100_000);
  const cut = boundedError(huge);
  assert.ok(bytesOf(JSON.stringify(cut)) <= MAX_ERROR_BYTES);
  assert.match(cut.error, /\.\.\. \(cut\)$/);
  const withDetails = boundedError("bad", Array.from({ length: 10_000 }, (_, i) => `detail ${i}`));
  assert.deepEqual(withDetails, { error: "bad" }, "details that do not fit are dropped");
  assert.deepEqual(boundedError("bad", [1]), { error: "bad", details: [1] });
});

Deno.test("a 1 MiB body of unknown keys gets a short 400 from heat calculate", async () => {
  const body = JSON.stringify(unknownKeys(1024 * 1024));
  const res = await heatApp().request(
    "/api/v1/calculate/DE.N.SFH.05.Gen.ReEx.001.001",
    postJson(body),
  );
  const text = await res.text();
  assert.equal(res.status, 400);
  assert.ok(bytesOf(text) <= MAX_ERROR_BYTES, `${bytesOf(text)} bytes`);
  assert.match(JSON.parse(text).error, /and \d+ more problems/);
});

Deno.test("a 2 MiB login body of unknown keys gets a short 400 with capped details", async () => {
  const app = await testApp();
  try {
    const body = JSON.stringify({ email: "a@b.c", password: "p", ...unknownKeys(2 * 1024 * 1024) });
    const reply = await call(app.app, "/api/v1/auth/admin/login", postJson(body));
    assert.equal(reply.status, 400);
    assert.ok(bytesOf(JSON.stringify(reply.body)) <= MAX_ERROR_BYTES);
    assert.equal(reply.body.details.length, MAX_PROBLEMS);
  } finally {
    await app.dispose();
  }
});

Deno.test("a wrong type is named by the type expected, not as a finite number", async () => {
  const app = await testApp();
  try {
    const reply = await call(
      app.app,
      "/api/v1/auth/admin/login",
      postJson({ email: "a", password: 1 }),
    );
    assert.equal(reply.status, 400);
    assert.match(reply.body.error, /password: must be a string/);
    assert.doesNotMatch(reply.body.error, /finite/);
  } finally {
    await app.dispose();
  }
});
