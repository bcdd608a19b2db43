import assert from "node:assert/strict";
import { type ConnectionLimits, serveGuarded } from "../../server/connection_guard.ts";
import { connect, readUntilClosed } from "./_raw_http.ts";

const LIMITS: ConnectionLimits = {
  headerMs: 300,
  bodyIdleMs: 300,
  idleMs: 400,
  maxHeaderBytes: 4096,
};

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A guarded echo server on a free port: answers the body it read and the client's port. */
function echoServer() {
  return serveGuarded(
    { hostname: "127.0.0.1", port: 0, limits: LIMITS, sweepMs: 25 },
    async (request, info) =>
      Response.json({ body: await request.text(), port: info.remoteAddr.port }),
  );
}

Deno.test("serveGuarded() answers 408 and closes a connection whose header block stalls", async () => {
  const server = echoServer();
  try {
    const conn = await connect(server.addr.port, "GET / HTTP/1.1\r\nHost: x\r\n");
    const { text, ms } = await readUntilClosed(conn);
    conn.close();
    assert.match(text, /^HTTP\/1\.1 408 Request Timeout\r\n/);
    assert.match(text, /\{"error":"Request header not received in time"\}$/);
    assert.ok(ms >= 250 && ms < 2000, `${ms} ms`);
  } finally {
    await server.shutdown();
  }
});

Deno.test("serveGuarded() closes a connection whose body stalls at one byte", async () => {
  const server = echoServer();
  try {
    const conn = await connect(server.addr.port, "POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\na");
    const { text, ms } = await readUntilClosed(conn);
    conn.close();
    assert.doesNotMatch(text, /^HTTP\/1\.1 200/);
    assert.ok(ms >= 250 && ms < 2000, `${ms} ms`);
  } finally {
    await server.shutdown();
  }
});

Deno.test("serveGuarded() closes an idle connection, also one idle after a request", async () => {
  const server = echoServer();
  try {
    const silent = await connect(server.addr.port);
    const idle = await readUntilClosed(silent);
    silent.close();
    assert.equal(idle.text, "");
    assert.ok(idle.ms >= 350 && idle.ms < 2000, `${idle.ms} ms`);

    const used = await connect(server.addr.port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    const after = await readUntilClosed(used);
    used.close();
    assert.match(after.text, /^HTTP\/1\.1 200 OK/);
    assert.ok(after.ms >= 350 && after.ms < 2000, `${after.ms} ms`);
  } finally {
    await server.shutdown();
  }
});

Deno.test("serveGuarded() keeps a slow but steady body, keep-alive and chunked requests", async () => {
  const server = echoServer();
  try {
    const conn = await connect(
      server.addr.port,
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 6\r\n\r\n",
    );
    for (const part of ["ab", "cd", "ef"]) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await conn.write(encoder.encode(part));
    }
    await conn.write(encoder.encode(
      "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nxyz\r\n0\r\n\r\n",
    ));
    const { text } = await readUntilClosed(conn);
    conn.close();
    const bodies = [...text.matchAll(/"body":"(\w*)"/g)].map((m) => m[1]);
    assert.deepEqual(bodies, ["abcdef", "xyz"]);
  } finally {
    await server.shutdown();
  }
});

Deno.test("serveGuarded() shows the handler the client's own address", async () => {
  const server = echoServer();
  try {
    const conn = await connect(
      server.addr.port,
      "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    const { text } = await readUntilClosed(conn);
    const port = (conn.localAddr as Deno.NetAddr).port;
    conn.close();
    assert.match(text, new RegExp(`"port":${port}\\}`));
  } finally {
    await server.shutdown();
  }
});

Deno.test("serveGuarded() answers 431 to a header block over the limit", async () => {
  const server = echoServer();
  try {
    const conn = await connect(
      server.addr.port,
      `GET / HTTP/1.1\r\nX: ${"a".repeat(5000)}\r\n\r\n`,
    );
    const { text } = await readUntilClosed(conn);
    conn.close();
    assert.match(text, /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
  } finally {
    await server.shutdown();
  }
});

Deno.test("serveGuarded() shutdown() lets an open request finish, then closes every connection", async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => release = resolve);
  const server = serveGuarded(
    { hostname: "127.0.0.1", port: 0, limits: LIMITS, sweepMs: 25 },
    async () => {
      await held;
      return new Response("done");
    },
  );
  const busy = await connect(server.addr.port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  const idle = await connect(server.addr.port);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const stopped = server.shutdown();
  setTimeout(release, 100);
  const [answer, idleEnd] = await Promise.all([readUntilClosed(busy), readUntilClosed(idle)]);
  await stopped;
  busy.close();
  idle.close();
  assert.match(answer.text, /^HTTP\/1\.1 200 OK[\s\S]*done$/);
  assert.equal(idleEnd.text, "");
  assert.equal(server.connections, 0);
  await assert.rejects(Deno.connect({ hostname: "127.0.0.1", port: server.addr.port }));
});

/** Deadlines with a long idle one, so only the header deadline can end a trickling client. */
const LONG_IDLE: ConnectionLimits = { ...LIMITS, idleMs: 2000 };

/** A guarded server that upgrades `/ws` to an echoing WebSocket and answers 200 elsewhere. */
function upgradingServer() {
  return serveGuarded(
    { hostname: "127.0.0.1", port: 0, limits: LONG_IDLE, sweepMs: 25 },
    (request) => {
      if (new URL(request.url).pathname !== "/ws") return Response.json({ upgraded: false });
      const { socket, response } = Deno.upgradeWebSocket(request);
      socket.onmessage = (event) => socket.send(event.data);
      return response;
    },
  );
}

/** Reads from `conn` until `text` has arrived; everything read. */
async function readUntil(conn: Deno.Conn, pattern: RegExp): Promise<string> {
  let text = "";
  const buffer = new Uint8Array(4096);
  while (!pattern.test(text)) {
    const n = await conn.read(buffer);
    if (n === null) break;
    text += decoder.decode(buffer.subarray(0, n));
  }
  return text;
}

/** Sends a header line every 100 ms until the connection closes or `ms` passed. */
async function trickle(conn: Deno.Conn, ms: number): Promise<void> {
  const end = Date.now() + ms;
  for (let i = 0; Date.now() < end; i++) {
    try {
      await conn.write(encoder.encode(`X-${i}: 1\r\n`));
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Each test's name and how it opens, on the upgrading server's port, a connection left in an
 * unfinished header block: every one must be answered 408 within the header deadline.
 */
const STALLED_HEADER_BLOCKS: [string, (port: number) => Promise<Deno.Conn>][] = [
  // Issue 18: an `Upgrade:` header alone stopped the guard from following the connection, so a
  // client whose upgrade was answered 200 could send its next header block for ever.
  [
    "serveGuarded() keeps the header deadline after an Upgrade request answered 200",
    async (port) => {
      const conn = await connect(
        port,
        "GET /page HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
          "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
      );
      const first = await readUntil(conn, /\{"upgraded":false\}/);
      assert.match(first, /^HTTP\/1\.1 200 OK\r\n/);
      await conn.write(encoder.encode("GET /page HTTP/1.1\r\nHost: x\r\n"));
      return conn;
    },
  ],
  [
    "serveGuarded() answers 408 to an Upgrade request whose header block never ends",
    (port) => connect(port, "GET /ws HTTP/1.1\r\nUpgrade: websocket\r\n"),
  ],
];

for (const [name, openStalled] of STALLED_HEADER_BLOCKS) {
  Deno.test(name, async () => {
    const server = upgradingServer();
    try {
      const conn = await openStalled(server.addr.port);
      const started = Date.now();
      const [{ text }] = await Promise.all([readUntilClosed(conn), trickle(conn, 1500)]);
      const ms = Date.now() - started;
      conn.close();
      assert.match(text, /^HTTP\/1\.1 408 Request Timeout\r\n/);
      assert.ok(ms < 1400, `closed after ${ms} ms`);
    } finally {
      await server.shutdown();
    }
  });
}

Deno.test("serveGuarded() leaves an upgraded WebSocket to the idle deadline only", async () => {
  const server = upgradingServer();
  try {
    const socket = new WebSocket(`ws://127.0.0.1:${server.addr.port}/ws`);
    const messages: string[] = [];
    const closed = new Promise<void>((resolve) => socket.onclose = () => resolve());
    socket.onmessage = (event) => messages.push(String(event.data));
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = reject;
    });
    // Quiet for longer than the header deadline, shorter than the idle one.
    await new Promise((resolve) => setTimeout(resolve, 700));
    socket.send("still here");
    const until = Date.now() + 2000;
    while (messages.length === 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.deepEqual(messages, ["still here"]);
    socket.close();
    await closed;
  } finally {
    await server.shutdown();
  }
});
