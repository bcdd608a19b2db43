import assert from "node:assert/strict";
import { localUrl } from "../../server/local_url.ts";

Deno.test("localUrl() reaches a wildcard listener on loopback and brackets IPv6", () => {
  assert.equal(localUrl({ hostname: "0.0.0.0", port: 5123 }), "http://127.0.0.1:5123");
  assert.equal(localUrl({ hostname: "::", port: 1 }), "http://[::1]:1");
  assert.equal(localUrl({ hostname: "127.0.0.1", port: 80 }), "http://127.0.0.1:80");
  assert.equal(localUrl({ hostname: "fe80::1", port: 8 }), "http://[fe80::1]:8");
  assert.equal(localUrl({ hostname: "10.1.2.3", port: 9 }), "http://10.1.2.3:9");
});
