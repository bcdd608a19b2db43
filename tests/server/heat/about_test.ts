import assert from "node:assert/strict";
import { call, heatApp } from "./_heat.ts";

Deno.test("GET /heat/about names the data's attribution, licence and size", async () => {
  const reply = await call(heatApp(), "/heat/about");
  assert.equal(reply.status, 200);
  assert.equal(
    reply.body.data.attribution,
    "TABULA/EPISCOPE building typology data, IWU Darmstadt, CC BY 4.0",
  );
  assert.equal(reply.body.data.licence, "CC BY 4.0");
  assert.equal(reply.body.data.countries, 20);
  assert.equal(reply.body.data.variants, 2147);
  assert.equal(reply.body.data.references, 664);
  assert.match(reply.body.method, /EN ISO 13790/);
});
