import assert from "node:assert/strict";
import { heatApp } from "../heat/_heat.ts";
import { testApp } from "../catalogue/_catalogue.ts";

type Fetch = (request: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response>;

/**
 * Serves `fetch` on a free port, sends a POST that promises 100,000 bytes, sends 9 and closes the
 * socket; gives what the server logged meanwhile and the status it answered with.
 */
async function abortedUpload(fetch: Fetch, path: string) {
  const logged: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => logged.push(args.map(String).join(" "));
  let answered!: (status: number) => void;
  const status = new Promise<number>((resolve) => answered = resolve);
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (r, i) => {
    const res = await fetch(r, i);
    answered(res.status);
    return res;
  });
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
    await conn.write(new TextEncoder().encode(
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
        'Content-Length: 100000\r\n\r\n{"email":',
    ));
    await new Promise((resolve) => setTimeout(resolve, 50));
    conn.close();
    return { status: await status, logged };
  } finally {
    await server.shutdown();
    console.error = original;
  }
}

Deno.test("an aborted upload to heat calculate is one short log line and no 500", async () => {
  const app = heatApp();
  const { status, logged } = await abortedUpload(
    (r, i) => app.fetch(r, i),
    "/api/v1/calculate/DE.N.SFH.05.Gen.ReEx.001.001",
  );
  assert.equal(status, 400);
  assert.deepEqual(logged, [
    "POST /api/v1/calculate/DE.N.SFH.05.Gen.ReEx.001.001: the client closed the connection",
  ]);
});

Deno.test("an aborted upload to the catalogue logs no stack and gets no 500", async () => {
  const app = await testApp();
  try {
    const { status, logged } = await abortedUpload(
      (r, i) => app.app.fetch(r, i),
      "/api/v1/auth/admin/login",
    );
    assert.ok(status < 500, `status ${status}`);
    assert.ok(logged.every((line) => !line.includes("\n    at ")), logged.join("\n"));
    assert.ok(logged.length <= 1, logged.join("\n"));
  } finally {
    await app.dispose();
  }
});
