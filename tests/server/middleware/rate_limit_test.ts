import assert from "node:assert/strict";
import { Hono } from "hono";
import { createOpenAPIApp } from "../../../server/middleware/errors.ts";
import {
  clientAddress,
  createRateLimiter,
  LOCAL_CLIENT,
  rateLimit,
} from "../../../server/middleware/rate_limit.ts";

/** A clock the test moves by hand, ms. */
function manualClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => now += ms };
}

Deno.test("createRateLimiter() allows `limit` at once, then refuses with the seconds to wait", () => {
  const clock = manualClock();
  const limiter = createRateLimiter({ limit: 3, windowMs: 60_000, clock: clock.now });
  assert.deepEqual(limiter.take("a"), { allowed: true, remaining: 2 });
  assert.deepEqual(limiter.take("a"), { allowed: true, remaining: 1 });
  assert.deepEqual(limiter.take("a"), { allowed: true, remaining: 0 });
  // One request comes back every 20 s.
  assert.deepEqual(limiter.take("a"), { allowed: false, retryAfterSeconds: 20 });
  clock.advance(15_000);
  assert.deepEqual(limiter.take("a"), { allowed: false, retryAfterSeconds: 5 });
  clock.advance(5_000);
  assert.deepEqual(limiter.take("a"), { allowed: true, remaining: 0 });
  assert.deepEqual(limiter.take("b"), { allowed: true, remaining: 2 }, "keys are separate");
  clock.advance(60_000);
  assert.deepEqual(limiter.take("a"), { allowed: true, remaining: 2 }, "a full window refills");
});

Deno.test("createRateLimiter() waits at least 1 s and never refills above the limit", () => {
  const clock = manualClock();
  const limiter = createRateLimiter({ limit: 100, windowMs: 1_000, clock: clock.now });
  for (let i = 0; i < 100; i++) assert.equal(limiter.take("k").allowed, true);
  assert.deepEqual(limiter.take("k"), { allowed: false, retryAfterSeconds: 1 });
  clock.advance(3_600_000);
  assert.deepEqual(limiter.take("k"), { allowed: true, remaining: 99 });
});

Deno.test("createRateLimiter() holds at most maxKeys keys and drops idle ones", () => {
  const clock = manualClock();
  const limiter = createRateLimiter({
    limit: 2,
    windowMs: 60_000,
    maxKeys: 100,
    clock: clock.now,
  });
  for (let i = 0; i < 10_000; i++) limiter.take(`flood-${i}`);
  assert.equal(limiter.size, 100, "bounded by maxKeys");
  // The least recently used keys went first: the newest are still limited.
  limiter.take("flood-9999");
  assert.equal(limiter.take("flood-9999").allowed, false);
  assert.equal(limiter.take("flood-0").allowed, true, "an evicted key starts afresh");
  clock.advance(60_000);
  limiter.take("late");
  assert.equal(limiter.size, 1, "keys whose allowance is full again are dropped");
});

Deno.test("createRateLimiter() refuses a limit, window or key bound that is not > 0", () => {
  for (
    const options of [
      { limit: 0, windowMs: 1 },
      { limit: 1.5, windowMs: 1 },
      { limit: 1, windowMs: 0 },
      { limit: 1, windowMs: Number.NaN },
      { limit: 1, windowMs: 1, maxKeys: 0 },
    ]
  ) {
    assert.throws(() => createRateLimiter(options), RangeError, JSON.stringify(options));
  }
});

function limitedApp(limit: number) {
  const app = createOpenAPIApp();
  const limiter = createRateLimiter({ limit, windowMs: 60_000, clock: () => 0 });
  app.use("/login", rateLimit({ limiter, message: "Too many attempts from this address" }));
  app.post("/login", (c) => c.json({ ok: true }));
  return app;
}

const from = (hostname: string) => ({
  remoteAddr: { transport: "tcp" as const, hostname, port: 40000 },
});

Deno.test("rateLimit() answers 429 with Retry-After and { error } per client address", async () => {
  const app = limitedApp(2);
  const post = (env?: object) => app.request("/login", { method: "POST" }, env);
  assert.equal((await post(from("10.0.0.1"))).status, 200);
  assert.equal((await post(from("10.0.0.1"))).status, 200);
  const refused = await post(from("10.0.0.1"));
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get("Retry-After"), "30");
  assert.match(refused.headers.get("Content-Type") ?? "", /application\/json/);
  assert.deepEqual(await refused.json(), {
    error: "Too many attempts from this address; retry in 30 s",
  });
  assert.equal((await post(from("10.0.0.2"))).status, 200, "another address has its own");
});

Deno.test("rateLimit() limits in-process requests (no connection) under one key", async () => {
  const app = limitedApp(1);
  assert.equal((await app.request("/login", { method: "POST" })).status, 200);
  assert.equal((await app.request("/login", { method: "POST" })).status, 429);
});

Deno.test("clientAddress() reads the connection's address, LOCAL_CLIENT without one", async () => {
  const app = new Hono();
  app.get("/", (c) => c.text(clientAddress(c)));
  assert.equal(await (await app.request("/", {}, from("192.0.2.7"))).text(), "192.0.2.7");
  assert.equal(await (await app.request("/")).text(), LOCAL_CLIENT);
  assert.equal(await (await app.request("/", {}, {})).text(), LOCAL_CLIENT);
});
