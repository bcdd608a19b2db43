/**
 * Prototype pollution (issue 7, finding 5), heat side: the calculation overrides, the one request
 * body of the heat service, refuse `__proto__`, `constructor` and `prototype` members at every
 * level (the body and each surface) with 400 naming the member, and nothing built-in changes.
 */
import assert from "node:assert/strict";
import { overridesSchema } from "../../../lib/heat/calculation/overrides.ts";
import { call, heatApp, postJson } from "../../server/heat/_heat.ts";

const PATH = "/api/v1/calculate/DE.N.SFH.05.Gen.ReEx.001.001";
const SURFACE = '{"id": "w", "type": "wall", "area": 100, "u_value": 0.3}';

/** Bodies with `key` as a member of the body, and of its first surface (JSON text: own keys). */
function bodies(key: string): [string, string, string][] {
  const member = `${JSON.stringify(key)}: {"theta_i": 30, "polluted": true}`;
  return [
    ["the body", `{${member}, "theta_i": 20}`, key],
    ["a surface", `{"surfaces": [${SURFACE.slice(0, -1)}, ${member}}]}`, `surfaces[0]`],
  ];
}

function assertNoPollution(): void {
  const probe: Record<string, unknown> = {};
  assert.equal(probe["polluted"], undefined, "Object.prototype.polluted");
  assert.equal(probe["theta_i"], undefined, "Object.prototype.theta_i");
  assert.equal(Object.hasOwn(Object, "polluted"), false, "Object.polluted");
}

Deno.test("overridesSchema refuses __proto__, constructor and prototype members", async (t) => {
  for (const key of ["__proto__", "constructor", "prototype"]) {
    for (const [where, text] of bodies(key)) {
      await t.step(`${key} in ${where}`, () => {
        const parsed = overridesSchema.safeParse(JSON.parse(text));
        assert.equal(parsed.success, false);
        const keys = parsed.error?.issues.flatMap((i) =>
          i.code === "unrecognized_keys" ? i.keys : []
        );
        assert.deepEqual(keys, [key]);
        assertNoPollution();
      });
    }
  }
});

Deno.test("POST /api/v1/calculate/{code} answers 400 naming a __proto__, constructor or prototype member", async (t) => {
  const app = heatApp();
  for (const key of ["__proto__", "constructor", "prototype"]) {
    for (const [where, text, path] of bodies(key)) {
      await t.step(`${key} in ${where}`, async () => {
        const reply = await call(app, PATH, postJson(text));
        assert.equal(reply.status, 400, JSON.stringify(reply.body));
        const named = path === key ? key : `${path}`;
        assert.ok(reply.body.error.includes(named), `"${reply.body.error}" names ${named}`);
        assert.ok(reply.body.error.includes(key), `"${reply.body.error}" names ${key}`);
        assertNoPollution();
      });
    }
  }
  const ok = await call(app, PATH, postJson('{"theta_i": 20}'));
  assert.equal(ok.status, 200);
});
