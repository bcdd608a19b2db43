import assert from "node:assert/strict";
import { join } from "node:path";
import {
  JWT_SECRET_ENV,
  MIN_SECRET_BYTES,
  requireJwtSecret,
  resolveJwtSecret,
} from "../../lib/auth/secret.ts";

const ENV_SECRET = "env-secret-with-at-least-thirty-two-bytes!";

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "jwt_secret_test_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("resolveJwtSecret() takes JWT_SECRET_KEY over an existing local file", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "jwt_secret");
    await Deno.writeTextFile(file, "file-secret-with-at-least-thirty-two-bytes");
    const resolved = await resolveJwtSecret({ [JWT_SECRET_ENV]: ENV_SECRET }, { localFile: file });
    assert.deepEqual(resolved, { secret: ENV_SECRET, source: "env" });
  });
});

Deno.test("resolveJwtSecret() creates the local file once (mode 0600) and reuses it", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, ".local", "jwt_secret");
    const first = await resolveJwtSecret({}, { localFile: file });
    assert.equal(first.source, "created");
    assert.ok(new TextEncoder().encode(first.secret).length >= MIN_SECRET_BYTES);
    assert.match(first.secret, /^[A-Za-z0-9_-]{43}$/);
    if (Deno.build.os !== "windows") {
      assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
    }
    const second = await resolveJwtSecret({ [JWT_SECRET_ENV]: "  " }, { localFile: file });
    assert.deepEqual(second, { secret: first.secret, source: "file" });
    const other = await resolveJwtSecret({}, { localFile: join(dir, "other") });
    assert.notEqual(other.secret, first.secret);
  });
});

Deno.test("resolveJwtSecret() refuses a short secret in the local file, naming it", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "jwt_secret");
    await Deno.writeTextFile(file, "short\n");
    await assert.rejects(() => resolveJwtSecret({}, { localFile: file }), (error: Error) => {
      assert.ok(error instanceof RangeError);
      assert.match(error.message, /jwt_secret/);
      return true;
    });
  });
});

Deno.test("resolveJwtSecret() without localFile throws when the variable is unset", async () => {
  await assert.rejects(() => resolveJwtSecret({}), /JWT_SECRET_KEY is not set/);
});

Deno.test("requireJwtSecret() returns the variable and refuses a missing or short one", () => {
  assert.equal(requireJwtSecret({ JWT_SECRET_KEY: ENV_SECRET }), ENV_SECRET);
  assert.throws(() => requireJwtSecret({}), /server does not start without a JWT signing secret/);
  assert.throws(() => requireJwtSecret({ JWT_SECRET_KEY: "" }), /JWT_SECRET_KEY is not set/);
  assert.throws(() => requireJwtSecret({ JWT_SECRET_KEY: "too-short" }), RangeError);
});
