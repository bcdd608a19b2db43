import assert from "node:assert/strict";
import { readConfig } from "../../server/config.ts";
import { buildListeners } from "../../server/services.ts";
import { typology } from "./_heat.ts";

const catalogue = { fetch: () => new Response("catalogue app") };

Deno.test("buildListeners() serves the heat app only through its gateway", async () => {
  const config = readConfig({ HEAT_PORT: "8181" });
  const listeners = buildListeners({ config, heatApiKey: "listener-key", typology, catalogue });
  assert.deepEqual(listeners.map((l) => [l.name, l.port]), [["heat", 8181], ["catalogue", 8005]]);
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

Deno.test("buildListeners() serves the catalogue app on CATALOGUE_PORT without the heat key", async () => {
  const config = readConfig({ CATALOGUE_PORT: "8282" });
  const listeners = buildListeners({ config, heatApiKey: "listener-key", typology, catalogue });
  const listener = listeners.find((l) => l.name === "catalogue");
  assert.ok(listener);
  assert.equal(listener.port, 8282);
  const res = await listener.fetch(new Request("http://localhost/health"));
  assert.equal(await res.text(), "catalogue app");
});
