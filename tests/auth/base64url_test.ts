import assert from "node:assert/strict";
import {
  decodeBase64Url,
  decodeBase64UrlText,
  encodeBase64Url,
  encodeBase64UrlText,
} from "../../lib/auth/base64url.ts";

Deno.test("encodeBase64Url()/decodeBase64Url() round trip every length without padding", () => {
  for (let length = 0; length < 40; length++) {
    const bytes = Uint8Array.from({ length }, (_, i) => (i * 37 + 250) % 256);
    const text = encodeBase64Url(bytes);
    assert.match(text, /^[A-Za-z0-9_-]*$/);
    assert.deepEqual(decodeBase64Url(text), bytes);
  }
  assert.equal(encodeBase64Url(new Uint8Array([0xfb, 0xff])), "-_8");
  assert.equal(decodeBase64UrlText(encodeBase64UrlText("Grüße {}")), "Grüße {}");
});

Deno.test("decodeBase64Url() refuses what is not canonical base64url", async (t) => {
  const cases: [string, string][] = [
    ["padding", "QQ=="],
    ["standard alphabet +", "+_8"],
    ["standard alphabet /", "-/8"],
    ["whitespace", "QU E"],
    ["a length of 4n+1", "QUJDR"],
    ["set trailing bits", "QR"],
  ];
  for (const [name, text] of cases) {
    await t.step(name, () => assert.throws(() => decodeBase64Url(text), SyntaxError));
  }
  await t.step("invalid UTF-8 as text", () => {
    assert.throws(() => decodeBase64UrlText(encodeBase64Url(new Uint8Array([0xff]))), SyntaxError);
  });
});
