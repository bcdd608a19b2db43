import assert from "node:assert/strict";
import {
  jsonDepth,
  jsonDepthProblem,
  JsonDepthScanner,
  MAX_JSON_DEPTH,
} from "../../lib/validation/json_depth.ts";

Deno.test("jsonDepth() counts objects and arrays, not brackets inside strings", () => {
  assert.equal(jsonDepth("42"), 0);
  assert.equal(jsonDepth("{}"), 1);
  assert.equal(jsonDepth('{"a": [1, {"b": 2}], "c": {}}'), 3);
  assert.equal(jsonDepth('{"a": "[[[{{{", "b": "\\"[["}'), 1);
  assert.equal(jsonDepth(new TextEncoder().encode('[{"ü": ["€"]}]')), 3);
});

Deno.test("jsonDepthProblem() refuses 65 levels and accepts 64", () => {
  const nested = (n: number) => "[".repeat(n) + "]".repeat(n);
  assert.equal(jsonDepthProblem(nested(MAX_JSON_DEPTH)), undefined);
  assert.match(jsonDepthProblem(nested(MAX_JSON_DEPTH + 1)) ?? "", /deeper than 64 levels/);
  // The audit's body: 10,000 levels, answered without walking them.
  assert.match(jsonDepthProblem(`{"m": ${nested(10_000)}}`) ?? "", /deeper than 64/);
});

Deno.test("JsonDepthScanner follows strings and escapes across pieces", () => {
  const scan = new JsonDepthScanner(2);
  assert.equal(scan.feed('{"a": "x\\'), false);
  assert.equal(scan.feed('"[[[", "b": ['), false);
  assert.equal(scan.maxDepth, 2);
  assert.equal(scan.feed("[1]]}"), true);
  assert.equal(scan.exceeded, true);
});
