import assert from "node:assert/strict";
import { apiKeyChecker, timingSafeEqual } from "../../server/gateway/api_key.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("timingSafeEqual() compares byte arrays", async (t) => {
  const cases: [string, string, boolean][] = [
    ["abc", "abc", true],
    ["", "", true],
    ["abc", "abd", false],
    ["abc", "ab", false],
    ["ab", "abc", false],
    ["", "a", false],
  ];
  for (const [a, b, equal] of cases) {
    await t.step(`${JSON.stringify(a)} vs ${JSON.stringify(b)}`, () => {
      assert.equal(timingSafeEqual(bytes(a), bytes(b)), equal);
    });
  }
});

Deno.test("apiKeyChecker() accepts the configured key only", async (t) => {
  const check = apiKeyChecker("s3cret-key");
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
    await t.step(String(given), async () => assert.equal(await check(given), ok));
  }
});
