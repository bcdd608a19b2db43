import assert from "node:assert/strict";
import { EXTRACTION_DEFAULTS, readExtractionSettings } from "../../../server/extraction/config.ts";

const DEFAULT_LIMITS = {
  maxQueued: 16,
  maxFootprints: 100_000,
  keep: { runs: 1000, buildings: 1_000_000 },
};

Deno.test("readExtractionSettings() defaults to port 8090 on 127.0.0.1 and data/extraction.duckdb", () => {
  assert.deepEqual(readExtractionSettings({}), {
    port: 8090,
    hostname: "127.0.0.1",
    statePath: "data/extraction.duckdb",
    limits: DEFAULT_LIMITS,
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
    { port: 0, hostname: "0.0.0.0", statePath: "/tmp/x.duckdb", limits: DEFAULT_LIMITS },
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

Deno.test("readExtractionSettings() reads the bounds of the runs (issue 18)", () => {
  assert.deepEqual(
    readExtractionSettings({
      EXTRACTION_MAX_QUEUED: "3",
      EXTRACTION_MAX_FOOTPRINTS: "5000",
      EXTRACTION_RUNS_KEPT: "20",
      EXTRACTION_BUILDINGS_KEPT: " 200000 ",
    }).limits,
    { maxQueued: 3, maxFootprints: 5000, keep: { runs: 20, buildings: 200_000 } },
  );
  assert.deepEqual(readExtractionSettings({ EXTRACTION_MAX_QUEUED: "" }).limits, DEFAULT_LIMITS);
  for (
    const name of [
      "EXTRACTION_MAX_QUEUED",
      "EXTRACTION_MAX_FOOTPRINTS",
      "EXTRACTION_RUNS_KEPT",
      "EXTRACTION_BUILDINGS_KEPT",
    ]
  ) {
    for (const value of ["0", "-1", "2.5", "many"]) {
      assert.throws(() => readExtractionSettings({ [name]: value }), {
        name: "RangeError",
        message: new RegExp(`^${name}: must be an integer >= 1, got "${value}"`),
      });
    }
  }
});
