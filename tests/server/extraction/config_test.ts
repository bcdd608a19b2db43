import assert from "node:assert/strict";
import { EXTRACTION_DEFAULTS, readExtractionSettings } from "../../../server/extraction/config.ts";

Deno.test("readExtractionSettings() defaults to port 8090 on 127.0.0.1 and data/extraction.duckdb", () => {
  assert.deepEqual(readExtractionSettings({}), {
    port: 8090,
    hostname: "127.0.0.1",
    statePath: "data/extraction.duckdb",
  });
  assert.equal(EXTRACTION_DEFAULTS.hostname, "127.0.0.1");
});

Deno.test("readExtractionSettings() reads EXTRACTION_PORT, EXTRACTION_HOST and EXTRACTION_STATE_PATH", () => {
  assert.deepEqual(
    readExtractionSettings({
      EXTRACTION_PORT: "0",
      EXTRACTION_HOST: " 0.0.0.0 ",
      EXTRACTION_STATE_PATH: "/tmp/x.duckdb",
    }),
    { port: 0, hostname: "0.0.0.0", statePath: "/tmp/x.duckdb" },
  );
  // Blank is unset.
  assert.equal(readExtractionSettings({ EXTRACTION_HOST: " " }).hostname, "127.0.0.1");
});

Deno.test("readExtractionSettings() names EXTRACTION_PORT when it is not a port", () => {
  assert.throws(() => readExtractionSettings({ EXTRACTION_PORT: "80x" }), {
    name: "RangeError",
    message: /^EXTRACTION_PORT: must be an integer port/,
  });
  assert.throws(() => readExtractionSettings({ EXTRACTION_PORT: "70000" }), RangeError);
});
