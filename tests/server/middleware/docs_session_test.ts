import assert from "node:assert/strict";
import { DOCS_SESSION_SECONDS, docsSession } from "../../../server/middleware/docs_session.ts";

Deno.test("docsSession() verifies the tokens it issued until they expire", async () => {
  let now = Date.UTC(2025, 0, 1);
  const session = docsSession("key-1", () => now);
  const token = await session.issue();
  assert.match(token, /^\d+\.[A-Za-z0-9_-]{43}$/);
  assert.equal(token.includes("key-1"), false);
  assert.equal(await session.verify(token), true);
  now += (DOCS_SESSION_SECONDS - 1) * 1000;
  assert.equal(await session.verify(token), true);
  now += 1000;
  assert.equal(await session.verify(token), false);
});

Deno.test("docsSession() rejects forged, foreign and malformed tokens", async (t) => {
  const session = docsSession("key-1");
  const token = await session.issue();
  const [expiry = "", mac = ""] = token.split(".");
  const cases: [string, string | undefined][] = [
    ["another key's token", await docsSession("key-2").issue()],
    ["a later expiry", `${Number(expiry) + 3600}.${mac}`],
    ["a changed MAC", `${expiry}.${mac.startsWith("A") ? "B" : "A"}${mac.slice(1)}`],
    ["no MAC", `${expiry}.`],
    ["garbage", "not-a-token"],
    ["empty", ""],
    ["missing", undefined],
  ];
  for (const [name, forged] of cases) {
    await t.step(name, async () => assert.equal(await session.verify(forged), false));
  }
});
