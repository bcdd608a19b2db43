import assert from "node:assert/strict";
import { createReachabilityProbe } from "../../lib/backend/reachability.ts";

Deno.test("reachability: /health probed with a timeout, answer cached", async () => {
  let calls = 0;
  let now = 0;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, () => {
    calls++;
    return Response.json({ status: "ok" });
  });
  try {
    const probe = createReachabilityProbe({
      baseUrl: `http://127.0.0.1:${server.addr.port}/`,
      now: () => now,
    });
    assert.equal(probe.url, `http://127.0.0.1:${server.addr.port}`);
    assert.equal(await probe.reachable(), true);
    assert.equal(await probe.reachable(), true);
    assert.equal(calls, 1);
    now = 2500;
    assert.equal(await probe.reachable(), true);
    assert.equal(calls, 2);
  } finally {
    await server.shutdown();
  }
  const listener = Deno.listen({ port: 0, hostname: "127.0.0.1" });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const down = createReachabilityProbe({ baseUrl: `http://127.0.0.1:${port}` });
  assert.equal(await down.reachable(), false);
});
