import assert from "node:assert/strict";
import { compassQuarter } from "../../lib/extraction/building_table.ts";

Deno.test("compassQuarter(): quarters centred on the compass points (N is 315-45 degrees)", () => {
  assert.deepEqual([0, 44, 46, 135.1, 180, 224, 226, 315.1, 359].map(compassQuarter), [
    "N",
    "N",
    "E",
    "S",
    "S",
    "S",
    "W",
    "N",
    "N",
  ]);
});
