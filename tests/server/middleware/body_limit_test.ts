import assert from "node:assert/strict";
import { HTTPException } from "hono/http-exception";
import { readBodyText } from "../../../server/middleware/body_limit.ts";

const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
  new Request("http://localhost/x", { method: "POST", body, headers });

const is413 = (e: unknown) => e instanceof HTTPException && e.status === 413;

Deno.test("readBodyText() reads a body within the limit, declared or not", async () => {
  assert.equal(await readBodyText(post("abc"), 10), "abc");
  assert.equal(await readBodyText(post("abc", { "content-length": "3" }), 10), "abc");
  assert.equal(await readBodyText(post("ü€"), 10), "ü€");
  const stream = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("ab"));
      controller.enqueue(new TextEncoder().encode("cd"));
      controller.close();
    },
  });
  assert.equal(await readBodyText(post(stream), 4), "abcd");
});

Deno.test("readBodyText() gives '' when there is no body", async () => {
  assert.equal(await readBodyText(post(null), 10), "");
  assert.equal(await readBodyText(post("", { "content-length": "0" }), 10), "");
  assert.equal(await readBodyText(new Request("http://localhost/x"), 10), "");
});

Deno.test("readBodyText() refuses a body over the limit with 413", async () => {
  await assert.rejects(readBodyText(post("abcdef"), 5), is413);
  await assert.rejects(readBodyText(post("abc", { "content-length": "6" }), 5), is413);
  await assert.rejects(readBodyText(post("x".repeat(2 * 1024 * 1024)), 1024 * 1024), (e) => {
    assert.ok(is413(e));
    assert.equal((e as HTTPException).message, "Request body larger than 1048576 bytes (1 MiB)");
    return true;
  });
});
