import assert from "node:assert/strict";
import bcrypt from "bcryptjs";
import { checkAdminLogin, readAdminConfig } from "../../lib/auth/password.ts";

const PASSWORD = "correct horse battery staple";
// Cost 4 keeps the test fast; the check itself does not depend on the cost.
const HASH = bcrypt.hashSync(PASSWORD, 4);
const CONFIG = { email: "Admin@Example.org", passwordHash: HASH };

Deno.test("checkAdminLogin()", async (t) => {
  await t.step("accepts the admin e-mail (any case, outer spaces) and password", async () => {
    assert.deepEqual(await checkAdminLogin(CONFIG, " admin@example.ORG ", PASSWORD), {
      ok: true,
      email: "Admin@Example.org",
    });
  });
  await t.step("refuses a wrong password", async () => {
    assert.deepEqual(await checkAdminLogin(CONFIG, "admin@example.org", "wrong"), { ok: false });
  });
  await t.step("refuses a wrong e-mail even with the admin password", async () => {
    assert.deepEqual(await checkAdminLogin(CONFIG, "other@example.org", PASSWORD), { ok: false });
  });
  await t.step("refuses everything when no admin is configured", async () => {
    assert.deepEqual(await checkAdminLogin(undefined, "admin@example.org", PASSWORD), {
      ok: false,
    });
  });
});

Deno.test("checkAdminLogin() spends a bcrypt comparison on a wrong e-mail too", async () => {
  // Cost 10 takes a few hundred ms: a wrong e-mail that skipped bcrypt would answer at once.
  const slow = { email: "admin@example.org", passwordHash: bcrypt.hashSync(PASSWORD, 10) };
  const timed = async (email: string) => {
    const start = performance.now();
    await checkAdminLogin(slow, email, "wrong");
    return performance.now() - start;
  };
  const right = await timed("admin@example.org");
  const wrong = await timed("nobody@example.org");
  assert.ok(wrong > right / 3, `wrong e-mail took ${wrong} ms, right e-mail ${right} ms`);
});

Deno.test("readAdminConfig()", async (t) => {
  await t.step("reads both variables", () => {
    assert.deepEqual(readAdminConfig({ ADMIN_EMAIL: " a@b.org ", ADMIN_PASSWORD_HASH: HASH }), {
      email: "a@b.org",
      passwordHash: HASH,
    });
  });
  await t.step("returns undefined when neither is set", () => {
    assert.equal(readAdminConfig({}), undefined);
  });
  await t.step("refuses one without the other", () => {
    assert.throws(() => readAdminConfig({ ADMIN_EMAIL: "a@b.org" }), /ADMIN_PASSWORD_HASH/);
    assert.throws(() => readAdminConfig({ ADMIN_PASSWORD_HASH: HASH }), /ADMIN_EMAIL/);
  });
  await t.step("refuses a hash that is not bcrypt", () => {
    assert.throws(
      () => readAdminConfig({ ADMIN_EMAIL: "a@b.org", ADMIN_PASSWORD_HASH: "plaintext" }),
      TypeError,
    );
  });
  await t.step("refuses a cost that would hold the password worker for minutes", () => {
    for (const cost of ["03", "15", "31", "99"]) {
      assert.throws(
        () =>
          readAdminConfig({
            ADMIN_EMAIL: "a@b.org",
            ADMIN_PASSWORD_HASH: HASH.replace(/^\$2b\$\d\d/, `$2b$${cost}`),
          }),
        {
          name: "RangeError",
          message: new RegExp(`^ADMIN_PASSWORD_HASH: bcrypt cost ${Number(cost)} `),
        },
      );
    }
    const fourteen = HASH.replace(/^\$2b\$\d\d/, "$2b$14");
    assert.equal(
      readAdminConfig({ ADMIN_EMAIL: "a@b.org", ADMIN_PASSWORD_HASH: fourteen })?.passwordHash,
      fourteen,
    );
  });
});
