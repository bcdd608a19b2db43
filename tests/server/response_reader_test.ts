import assert from "node:assert/strict";
import type { SentRequest } from "../../server/request_reader.ts";
import { ResponseReader } from "../../server/response_reader.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const GET: SentRequest = { head: false, connect: false, upgrade: false };
const HEAD: SentRequest = { head: true, connect: false, upgrade: false };
const UPGRADE: SentRequest = { head: false, connect: false, upgrade: true };
const CONNECT: SentRequest = { head: false, connect: true, upgrade: false };

/** Feeds `text` whole, then byte by byte to a second reader; both must end alike. */
function feedBothWays(text: string, requests: SentRequest[]) {
  const make = () => {
    const queue = [...requests];
    return new ResponseReader(() => queue.shift());
  };
  const whole = make();
  whole.feed(bytes(text));
  const split = make();
  for (const byte of bytes(text)) split.feed(new Uint8Array([byte]));
  assert.equal(split.phase, whole.phase);
  assert.equal(split.switched, whole.switched);
  return whole;
}

Deno.test("ResponseReader sees a switch of protocols only where the service made one", async (t) => {
  const cases: [string, string, SentRequest[], "idle" | "body" | "opaque", boolean][] = [
    [
      "101 to an upgrade: switched, frames after it not read",
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n\x81\x05hello",
      [UPGRADE],
      "opaque",
      true,
    ],
    [
      "200 to an upgrade: still HTTP",
      "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
      [UPGRADE],
      "idle",
      false,
    ],
    [
      "426 to an upgrade, then a 101 text in the next answer's body: not switched",
      "HTTP/1.1 426 Upgrade Required\r\ncontent-length: 0\r\n\r\n" +
      "HTTP/1.1 200 OK\r\nContent-Length: 39\r\n\r\nHTTP/1.1 101 Switching Protocols\r\n\r\n...",
      [UPGRADE, GET],
      "idle",
      false,
    ],
    [
      "a HEAD answer has no body whatever its length says",
      "HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n" +
      "HTTP/1.1 101 Switching Protocols\r\n\r\n",
      [HEAD, UPGRADE],
      "opaque",
      true,
    ],
    [
      "a chunked answer, then a 101",
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n" +
      "HTTP/1.1 101 Switching Protocols\r\n\r\n",
      [GET, UPGRADE],
      "opaque",
      true,
    ],
    [
      "100 Continue is interim: the 101 after it answers the same request",
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 101 Switching Protocols\r\n\r\n",
      [UPGRADE],
      "opaque",
      true,
    ],
    [
      "204 and 304 have no body",
      "HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n",
      [GET, GET],
      "idle",
      false,
    ],
    ["a 2xx to CONNECT opens a tunnel", "HTTP/1.1 200 OK\r\n\r\n", [CONNECT], "opaque", true],
    [
      "a body until close (no length)",
      "HTTP/1.1 200 OK\r\n\r\nHTTP/1.1 101 Switching Protocols\r\n\r\n",
      [GET, UPGRADE],
      "body",
      false,
    ],
    [
      "an answer still due",
      "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc",
      [GET],
      "body",
      false,
    ],
  ];
  for (const [name, text, requests, phase, switched] of cases) {
    await t.step(name, () => {
      const reader = feedBothWays(text, requests);
      assert.equal(reader.phase, phase);
      assert.equal(reader.switched, switched);
    });
  }
});

Deno.test("ResponseReader stops following framing it cannot read, without throwing", () => {
  const reader = new ResponseReader(() => GET);
  reader.feed(bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"));
  assert.equal(reader.phase, "opaque");
  assert.equal(reader.switched, false);
});
