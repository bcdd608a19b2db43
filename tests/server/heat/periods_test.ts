import assert from "node:assert/strict";
import { call, heatApp } from "./_heat.ts";

const app = heatApp();

Deno.test("GET /api/v1/periods/{country} lists the bands oldest first", async () => {
  const reply = await call(app, "/api/v1/periods/DE");
  assert.equal(reply.status, 200);
  assert.equal(reply.body.country, "germany");
  assert.equal(reply.body.data.length, 12);
  assert.deepEqual(reply.body.data[0], { period: "01", year_from: 0, year_to: 1859 });
  assert.deepEqual(reply.body.data.at(-1), { period: "12", year_from: 2016, year_to: 9999 });
});

Deno.test("GET /api/v1/periods/{country} gives the values match takes as period", async () => {
  const periods = await call(app, "/api/v1/periods/AT");
  for (const { period } of periods.body.data) {
    const reply = await call(app, `/api/v1/variants/AT/match?type=SFH&period=${period}`);
    assert.equal(reply.status, 200);
    assert.equal(reply.body.prefix, `AT.N.SFH.${period}`);
    assert.ok(reply.body.data.length > 0, `AT SFH period ${period} has variants`);
  }
});

Deno.test("GET /api/v1/periods/{country} narrows to a type and a set", async () => {
  const reply = await call(app, "/api/v1/periods/DE?type=AB&set=East");
  assert.deepEqual(reply.body.data.map((p: { period: string }) => p.period), ["06", "07", "08"]);
});

Deno.test("GET /api/v1/periods/{country} rejects unknown country, set and type", async (t) => {
  for (
    const [path, error] of [
      ["/api/v1/periods/QQ", /^Unknown country "QQ"/],
      ["/api/v1/periods/DE?set=Mars", /^Invalid query: set: unknown variant set "Mars" for DE/],
      ["/api/v1/periods/DE?type=house", /^Invalid query: type: must be one of SFH, TH, MFH, AB$/],
    ] as const
  ) {
    await t.step(path, async () => {
      const reply = await call(app, path);
      assert.equal(reply.status, 400);
      assert.match(reply.body.error, error);
    });
  }
});
