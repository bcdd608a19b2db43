import assert from "node:assert/strict";
import { createGateway } from "../../server/gateway/app.ts";
import { heatApp } from "./heat/_heat.ts";

const KEY = "docs-key-0123456789";
const withKey = { headers: { "X-Api-Key": KEY } };
let now = Date.UTC(2025, 5, 1);
const gateway = createGateway({
  heatApp: heatApp(),
  apiKey: KEY,
  allowedOrigins: [],
  now: () => now,
});

/** The local URLs an HTML page loads (src and href), resolved against its own URL. */
function assetsOf(html: string, pageUrl: string): string[] {
  return [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) =>
    new URL(m[1] ?? "", pageUrl).pathname
  );
}

Deno.test("/heat/docs is a Swagger UI page over local assets", async () => {
  const res = await gateway.request("/heat/docs", withKey);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
  const html = await res.text();
  assert.doesNotMatch(html, /https?:\/\//, "no CDN");
  const assets = assetsOf(html, "http://localhost/heat/docs");
  assert.deepEqual(assets.sort(), [
    "/heat/docs/favicon-16x16.png",
    "/heat/docs/favicon-32x32.png",
    "/heat/docs/init.js",
    "/heat/docs/swagger-ui-bundle.js",
    "/heat/docs/swagger-ui.css",
  ]);
  for (const asset of assets) {
    const file = await gateway.request(asset, withKey);
    assert.equal(file.status, 200, asset);
    assert.ok((await file.arrayBuffer()).byteLength > 0, asset);
  }
});

Deno.test("/heat/docs assets come from the swagger-ui-dist package", async () => {
  const res = await gateway.request("/heat/docs/swagger-ui-bundle.js", withKey);
  assert.match(res.headers.get("content-type") ?? "", /^text\/javascript/);
  const expected = await Deno.readFile(
    new URL(import.meta.resolve("swagger-ui-dist/swagger-ui-bundle.js")),
  );
  assert.deepEqual(new Uint8Array(await res.arrayBuffer()), expected);
  const init = await (await gateway.request("/heat/docs/init.js", withKey)).text();
  assert.match(init, /url: "openapi.json"/);
  const css = await gateway.request("/heat/docs/swagger-ui.css", withKey);
  assert.match(css.headers.get("content-type") ?? "", /^text\/css/);
});

Deno.test("/heat/docs serves no other package files", async () => {
  for (const path of ["/heat/docs/package.json", "/heat/docs/..%2Fpackage.json"]) {
    const res = await gateway.request(path, withKey);
    assert.equal(res.status, 404, path);
  }
});

Deno.test("/heat/docs and its assets need the key like everything else", async () => {
  for (const path of ["/heat/docs", "/heat/docs/swagger-ui-bundle.js", "/heat/docs/init.js"]) {
    const res = await gateway.request(path);
    assert.equal(res.status, 403, path);
  }
});

Deno.test("/heat/docs?api_key= trades the key for a docs cookie and drops it from the URL", async (t) => {
  const res = await gateway.request(`/heat/docs?api_key=${KEY}`);
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "docs");
  assert.equal(res.headers.get("cache-control"), "no-store");
  const setCookie = res.headers.get("set-cookie") ?? "";
  assert.match(setCookie, /^heat_docs=\d+\.[A-Za-z0-9_-]{43}; /);
  assert.match(setCookie, /Path=\/heat/);
  assert.match(setCookie, /HttpOnly/);
  assert.match(setCookie, /SameSite=Strict/);
  assert.doesNotMatch(setCookie, /Secure/);
  assert.equal(setCookie.includes(KEY), false, "the cookie does not hold the key");
  const cookie = { headers: { Cookie: setCookie.split(";")[0] ?? "" } };

  await t.step("the cookie opens the page, its assets and the OpenAPI document", async () => {
    for (const path of ["/heat/docs", "/heat/docs/swagger-ui-bundle.js", "/heat/openapi.json"]) {
      const page = await gateway.request(path, cookie);
      assert.equal(page.status, 200, path);
      await page.body?.cancel();
    }
  });
  await t.step("the cookie opens nothing else", async () => {
    for (const path of ["/heat/health", "/api/v1/variants/DE", "/api/v1/fields"]) {
      const other = await gateway.request(path, cookie);
      assert.equal(other.status, 403, path);
      await other.body?.cancel();
    }
  });
  await t.step("the cookie expires", async () => {
    now += 9 * 60 * 60 * 1000;
    const page = await gateway.request("/heat/docs", cookie);
    assert.equal(page.status, 403);
  });
});

Deno.test("/heat/docs?api_key= is refused for a wrong key and ignored on other paths", async () => {
  const wrong = await gateway.request("/heat/docs?api_key=nope");
  assert.equal(wrong.status, 403);
  assert.equal(wrong.headers.get("set-cookie"), null);
  for (const path of ["/heat/health", "/heat/openapi.json", "/api/v1/fields"]) {
    const res = await gateway.request(`${path}?api_key=${KEY}`);
    assert.equal(res.status, 403, path);
  }
});

Deno.test("/heat/docs?api_key= sets a Secure cookie over HTTPS", async () => {
  const direct = await gateway.request(`https://heat.example.org/heat/docs?api_key=${KEY}`);
  assert.match(direct.headers.get("set-cookie") ?? "", /Secure/);
  const proxied = await gateway.request(`/heat/docs?api_key=${KEY}`, {
    headers: { "X-Forwarded-Proto": "https" },
  });
  assert.match(proxied.headers.get("set-cookie") ?? "", /Secure/);
});
