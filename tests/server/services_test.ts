import assert from "node:assert/strict";
import { readConfig } from "../../server/config.ts";
import { buildListeners } from "../../server/services.ts";
import { typology } from "./_heat.ts";

Deno.test("buildListeners() serves the heat app only through its gateway", async () => {
  const config = readConfig({ HEAT_PORT: "8181" });
  const listeners = buildListeners({ config, heatApiKey: "listener-key", typology });
  assert.deepEqual(listeners.map((l) => [l.name, l.port]), [["heat", 8181]]);
  const [heat] = listeners;
  assert.ok(heat);
  const refused = await heat.fetch(new Request("http://localhost/heat/health"));
  assert.equal(refused.status, 403);
  await refused.body?.cancel();
  const health = await heat.fetch(
    new Request("http://localhost/heat/health", { headers: { "X-Api-Key": "listener-key" } }),
  );
  assert.deepEqual(await health.json(), { status: "ok" });
});
