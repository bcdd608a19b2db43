import assert from "node:assert/strict";
import { createGateway } from "../../../server/gateway/app.ts";
import { call, heatApp } from "../heat/_heat.ts";
import { testApp } from "../catalogue/_catalogue.ts";

const KEY = "service-app-test-key";

Deno.test("every unmatched request gets JSON: 405 with Allow for a known path, else 404", async (t) => {
  const catalogue = await testApp();
  const gateway = createGateway({ heatApp: heatApp(), apiKey: KEY, allowedOrigins: [] });
  const heat = {
    request: (path: string, init: RequestInit = {}) =>
      gateway.request(path, { ...init, headers: { ...init.headers, "X-Api-Key": KEY } }),
  };
  try {
    const cases: [string, typeof heat, string, string, number, string | null][] = [
      // POST is OpenTech-DB's frontend's submission.
      [
        "catalogue wrong method",
        catalogue.app,
        "DELETE",
        "/api/v1/technologies",
        405,
        "GET, POST, HEAD",
      ],
      [
        "catalogue wrong method on a parameter path",
        catalogue.app,
        "PUT",
        "/api/v1/technologies/ccgt",
        405,
        "GET, HEAD",
      ],
      ["catalogue POST-only route", catalogue.app, "GET", "/api/v1/auth/admin/login", 405, "POST"],
      ["catalogue unknown path", catalogue.app, "GET", "/api/v1/nothing", 404, null],
      ["catalogue unknown docs asset", catalogue.app, "GET", "/docs/nothing.js", 404, null],
      ["heat wrong method", heat, "DELETE", "/heat/health", 405, "GET, HEAD"],
      [
        "heat GET on calculate",
        heat,
        "GET",
        "/api/v1/calculate/DE.N.SFH.05.Gen.ReEx.001.001",
        405,
        "POST",
      ],
      ["heat unknown path", heat, "GET", "/api/v1/nothing", 404, null],
      ["heat unknown docs asset", heat, "GET", "/heat/docs/nothing.js", 404, null],
    ];
    for (const [name, app, method, path, status, allow] of cases) {
      await t.step(name, async () => {
        const reply = await call(app, path, { method });
        assert.equal(reply.status, status);
        assert.match(reply.type, /^application\/json/);
        assert.equal(typeof reply.body.error, "string");
        const res = await app.request(path, { method });
        assert.equal(res.headers.get("allow"), allow);
        await res.body?.cancel();
      });
    }
  } finally {
    await catalogue.dispose();
  }
});
