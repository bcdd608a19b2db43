import assert from "node:assert/strict";
import { MAX_UNANSWERED, RequestFramingError, RequestReader } from "../../server/request_reader.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** Feeds `text` whole, then byte by byte to a second reader; both must end alike. */
function feedBothWays(text: string, max = 1024) {
  const whole = new RequestReader(max);
  whole.feed(bytes(text));
  const split = new RequestReader(max);
  for (const byte of bytes(text)) split.feed(new Uint8Array([byte]));
  assert.equal(split.phase, whole.phase);
  assert.equal(split.requests, whole.requests);
  return whole;
}

Deno.test("RequestReader follows header blocks and bodies, whole or split anywhere", async (t) => {
  const cases: [string, string, "idle" | "headers" | "body" | "opaque", number][] = [
    ["a GET", "GET / HTTP/1.1\r\nHost: x\r\n\r\n", "idle", 1],
    ["a partial header block", "GET / HTTP/1.1\r\nHost: x\r\n", "headers", 0],
    ["bare LF line ends", "GET / HTTP/1.1\nHost: x\n\n", "idle", 1],
    ["a body by length", "POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc", "idle", 1],
    ["a body still due", "POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nabc", "body", 1],
    [
      "two pipelined requests",
      "POST / HTTP/1.1\r\ncontent-length: 2\r\n\r\nokGET /b HTTP/1.1\r\n\r\n",
      "idle",
      2,
    ],
    [
      "a chunked body with an extension and a trailer",
      "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\nabcd\r\n0\r\nT: 1\r\n\r\n",
      "idle",
      1,
    ],
    [
      "a chunked body still due",
      "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nab",
      "body",
      1,
    ],
    ["empty lines between requests", "\r\n\r\nGET / HTTP/1.1\r\n\r\n\r\n", "idle", 1],
    // Issue 18: an Upgrade header alone changes nothing; only the service's 101 does.
    [
      "a request asking for an upgrade",
      "GET /ws HTTP/1.1\r\nUpgrade: websocket\r\n\r\n",
      "idle",
      1,
    ],
    [
      "a request after an upgrade request",
      "GET /ws HTTP/1.1\r\nUpgrade: websocket\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n",
      "headers",
      1,
    ],
    ["an HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00", "opaque", 1],
  ];
  for (const [name, text, phase, requests] of cases) {
    await t.step(name, () => {
      const reader = feedBothWays(text);
      assert.equal(reader.phase, phase);
      assert.equal(reader.requests, requests);
    });
  }
});

Deno.test("RequestReader refuses oversized header blocks and bad framing", () => {
  const reader = new RequestReader(64);
  assert.throws(
    () => reader.feed(bytes(`GET / HTTP/1.1\r\nX: ${"a".repeat(100)}\r\n\r\n`)),
    (e) => e instanceof RequestFramingError && e.status === 431,
  );
  assert.throws(
    () => new RequestReader(1024).feed(bytes("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n")),
    (e) => e instanceof RequestFramingError && e.status === 400,
  );
  assert.throws(
    () =>
      new RequestReader(1024).feed(
        bytes("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"),
      ),
    (e) => e instanceof RequestFramingError && e.status === 400,
  );
});

Deno.test("RequestReader stops following once told the service switched protocols", () => {
  const reader = new RequestReader(1024);
  reader.feed(bytes("GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"));
  assert.equal(reader.phase, "idle");
  assert.deepEqual(reader.nextUnanswered(), { head: false, connect: false, upgrade: true });
  reader.upgrade();
  reader.feed(bytes("\x81\x05hello GET / HTTP/1.1\r\n"));
  assert.equal(reader.phase, "opaque");
  assert.equal(reader.requests, 1);
});

Deno.test("RequestReader lists the requests awaiting answers, and caps them", () => {
  const reader = new RequestReader(1024);
  reader.feed(bytes("HEAD / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n"));
  assert.deepEqual(reader.nextUnanswered(), { head: true, connect: false, upgrade: false });
  assert.deepEqual(reader.nextUnanswered(), { head: false, connect: false, upgrade: false });
  assert.equal(reader.nextUnanswered(), undefined);
  const flood = new RequestReader(1024);
  assert.throws(
    () => flood.feed(bytes("GET / HTTP/1.1\r\n\r\n".repeat(MAX_UNANSWERED + 1))),
    (e) => e instanceof RequestFramingError && e.status === 400,
  );
});
