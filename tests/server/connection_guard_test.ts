import assert from "node:assert/strict";
import { type ConnectionLimits, serveGuarded } from "../../server/connection_guard.ts";

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

/** Everything a connection receives until the server closes it, and when that happened. */
async function readUntilClosed(conn: Deno.Conn) {
  const started = Date.now();
  let text = "";
  const buffer = new Uint8Array(4096);
  for (;;) {
    const n = await conn.read(buffer).catch(() => null);
    if (n === null) break;
    text += decoder.decode(buffer.subarray(0, n));
  }
  return { text, ms: Date.now() - started };
}

async function connect(port: number, send = "") {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  if (send) await conn.write(encoder.encode(send));
  return conn;
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
