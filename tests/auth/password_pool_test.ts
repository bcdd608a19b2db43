import assert from "node:assert/strict";
import bcrypt from "bcryptjs";
import { createPasswordPool, PasswordQueueFullError } from "../../lib/auth/password_pool.ts";
import { longestStall } from "../_event_loop.ts";

const PASSWORD = "correct horse battery staple";
const HASH = bcrypt.hashSync(PASSWORD, 4);

Deno.test("createPasswordPool() compares and hashes like bcryptjs", async () => {
  const pool = createPasswordPool();
  try {
    assert.equal(await pool.compare(PASSWORD, HASH), true);
    assert.equal(await pool.compare("wrong", HASH), false);
    const made = await pool.hash(PASSWORD, 4);
    assert.match(made, /^\$2b\$04\$/);
    assert.equal(bcrypt.compareSync(PASSWORD, made), true);
    await assert.rejects(pool.hash(PASSWORD, 32), RangeError);
    await assert.rejects(
      pool.compare(undefined as unknown as string, HASH),
      /^TypeError: bcrypt: Illegal arguments/,
    );
    assert.equal(await pool.compare(PASSWORD, HASH), true, "the worker goes on after an error");
    assert.equal(pool.pending, 0);
  } finally {
    await pool.close();
  }
});

Deno.test("createPasswordPool() keeps bcrypt off the main thread", async () => {
  // Cost 12 takes a few hundred ms of CPU: on the main thread the event loop would stall for
  // bcryptjs's slices of about 100 ms each.
  const slow = bcrypt.hashSync(PASSWORD, 12);
  const pool = createPasswordPool();
  try {
    await pool.compare("warm-up", HASH);
    const stall = await longestStall(() =>
      Promise.all([pool.compare("wrong", slow), pool.compare(PASSWORD, slow)])
    );
    const onThread = await longestStall(() => bcrypt.compare("wrong", slow));
    // Compared with the same work on the main thread, measured the same way on the same machine:
    // an absolute bound (it was 50 ms) failed whenever other processes loaded the machine.
    assert.ok(
      stall * 2 < onThread,
      `the event loop stalled for ${Math.round(stall)} ms with the pool, ` +
        `${Math.round(onThread)} ms with bcrypt on the main thread`,
    );
  } finally {
    await pool.close();
  }
});

Deno.test("createPasswordPool() refuses a job at once when maxQueued jobs wait", async () => {
  const slow = bcrypt.hashSync(PASSWORD, 10);
  const pool = createPasswordPool({ workers: 1, maxQueued: 2 });
  try {
    const running = [pool.compare("a", slow), pool.compare("b", slow), pool.compare("c", slow)];
    assert.equal(pool.pending, 3, "one running, two waiting");
    const start = performance.now();
    await assert.rejects(pool.compare("d", slow), PasswordQueueFullError);
    assert.ok(performance.now() - start < 20, "refused without waiting");
    assert.deepEqual(await Promise.all(running), [false, false, false]);
    assert.equal(await pool.compare(PASSWORD, HASH), true, "room again once they ran");
  } finally {
    await pool.close();
  }
});

Deno.test("createPasswordPool() close() refuses waiting and new jobs", async () => {
  const slow = bcrypt.hashSync(PASSWORD, 10);
  const pool = createPasswordPool({ maxQueued: 4 });
  const jobs = [pool.compare("a", slow), pool.compare("b", slow)];
  await pool.close();
  for (const job of jobs) await assert.rejects(job, /password pool is closed/);
  await assert.rejects(pool.compare("c", HASH), /password pool is closed/);
});

Deno.test("createPasswordPool() refuses a worker count < 1 or a negative queue", () => {
  assert.throws(() => createPasswordPool({ workers: 0 }), RangeError);
  assert.throws(() => createPasswordPool({ maxQueued: -1 }), RangeError);
});
