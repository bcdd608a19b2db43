import assert from "node:assert/strict";
import { constantTimeEqual, secretMatcher } from "../../lib/auth/constant_time.ts";

Deno.test("constantTimeEqual() compares strings of any length", async (t) => {
  const cases: [string, string, boolean][] = [
    ["abc", "abc", true],
    ["", "", true],
    ["abc", "abd", false],
    ["abc", "ab", false],
    ["ab", "abc", false],
    ["", "a", false],
    ["ü", "u", false],
  ];
  for (const [a, b, equal] of cases) {
    await t.step(`${JSON.stringify(a)} vs ${JSON.stringify(b)}`, () => {
      assert.equal(constantTimeEqual(a, b), equal);
    });
  }
});

Deno.test("secretMatcher() accepts the configured secret only", async (t) => {
  const matches = secretMatcher("s3cret-key");
  const cases: [string | undefined, boolean][] = [
    ["s3cret-key", true],
    ["s3cret-kez", false],
    ["s3cret", false],
    ["s3cret-key ", false],
    ["S3CRET-KEY", false],
    ["", false],
    [undefined, false],
  ];
  for (const [given, ok] of cases) {
    await t.step(String(given), () => assert.equal(matches(given), ok));
  }
});

Deno.test("secretMatcher() of an empty secret still refuses a missing value", () => {
  assert.equal(secretMatcher("")(undefined), false);
  assert.equal(secretMatcher("")(""), true);
});
