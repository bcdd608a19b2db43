import assert from "node:assert/strict";
import fc from "fast-check";
import { JsonSyntaxScanner } from "../../lib/validation/json_syntax_scanner.ts";

const utf8 = (text: string) => new TextEncoder().encode(text);

/** Scans `bytes` cut at `cuts` (offsets); whether it is one complete JSON value. */
function scan(bytes: Uint8Array, cuts: readonly number[] = []): JsonSyntaxScanner {
  const scanner = new JsonSyntaxScanner();
  let start = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    if (!scanner.feed(bytes.subarray(start, cut))) return scanner;
    start = cut;
  }
  if (scanner.feed(bytes.subarray(start))) scanner.finish();
  return scanner;
}

function parses(bytes: Uint8Array): boolean {
  try {
    JSON.parse(new TextDecoder().decode(bytes));
    return true;
  } catch {
    return false;
  }
}

Deno.test("JsonSyntaxScanner accepts what JSON.parse accepts and refuses the rest", async (t) => {
  const cases: [string, boolean][] = [
    ["{}", true],
    ['{"a": [1, -2.5e+3, 0, 0.0, 1E2, true, false, null, "x\\u00e9\\n\\"", {}]}', true],
    ["  [ ]  ", true],
    ['"text"', true],
    ["-0", true],
    ["12", true],
    ["\ufeff{}", true],
    ["", false],
    ["   ", false],
    ["{", false],
    ['{"a"}', false],
    ['{"a": 1,}', false],
    ["[1,]", false],
    ["[1 2]", false],
    ["01", false],
    ["-", false],
    ["1.", false],
    ["1e", false],
    ["1e+", false],
    [".5", false],
    ["+1", false],
    ["tru", false],
    ["trux", false],
    ["nul", false],
    ["NaN", false],
    ["{} {}", false],
    ["[}", false],
    ["{]", false],
    ["{'a': 1}", false],
    ['{"a": "\\x"}', false],
    ['{"a": "\\u12G4"}', false],
    ['{"a": "line\nbreak"}', false],
    ['{"a": 1} x', false],
    ["{1: 2}", false],
    ["\ufeff\ufeff{}", false],
  ];
  for (const [text, valid] of cases) {
    await t.step(JSON.stringify(text), () => {
      const bytes = utf8(text);
      assert.equal(parses(bytes), valid, "the case itself");
      const scanner = scan(bytes);
      assert.equal(scanner.error === undefined, valid, scanner.error ?? "");
      // The same at every single cut.
      for (let cut = 0; cut <= bytes.length; cut++) {
        assert.equal(scan(bytes, [cut]).error === undefined, valid, `cut at ${cut}`);
      }
    });
  }
});

Deno.test("JsonSyntaxScanner agrees with JSON.parse on generated texts cut anywhere", () => {
  const text = fc.oneof(
    fc.json({ maxDepth: 4 }),
    fc.json({ maxDepth: 3 }).chain((json) =>
      // A valid text with one byte changed, dropped or added: mostly invalid, sometimes not.
      fc.tuple(fc.nat(json.length), fc.constantFrom(...'{}[]",:0-.eE+ \\tnul\n\u00e9x')).map((
        [at, char],
      ) => [json.slice(0, at) + char + json.slice(at + 1), json.slice(0, at) + json.slice(at + 1)])
        .chain((variants) => fc.constantFrom(...variants))
    ),
  );
  fc.assert(
    fc.property(text, fc.array(fc.nat(), { maxLength: 6 }), (json, cuts) => {
      const bytes = utf8(json);
      const scanner = scan(bytes, cuts.map((c) => c % (bytes.length + 1)));
      assert.equal(scanner.error === undefined, parses(bytes), `${json}: ${scanner.error}`);
    }),
    { numRuns: 3000 },
  );
});

Deno.test("JsonSyntaxScanner says what the top-level value is and whether it is {}", () => {
  assert.equal(scan(utf8('{"a": 1}')).root, "object");
  assert.equal(scan(utf8('{"a": 1}')).emptyRootObject, false);
  assert.equal(scan(utf8(" { } ")).emptyRootObject, true);
  assert.equal(scan(utf8('{"a": {}}')).emptyRootObject, false, "only the top level counts");
  assert.equal(scan(utf8("[{}]")).root, "array");
  assert.equal(scan(utf8('"x"')).root, "string");
  assert.equal(scan(utf8("3")).root, "number");
  assert.equal(scan(utf8("null")).root, "literal");
  // Known from the first byte, before the rest arrives.
  const early = new JsonSyntaxScanner();
  early.feed(utf8("  ["));
  assert.equal(early.root, "array");
});

Deno.test("JsonSyntaxScanner names the reason and the byte of a syntax error", () => {
  assert.equal(scan(utf8('{"a": 1,, }')).error, 'unexpected "," where a key should be (at byte 8)');
  assert.equal(scan(utf8('{"a": 1')).error, "the text ends before the JSON value does (at byte 7)");
  assert.equal(scan(utf8("")).error, "no JSON value (at byte 0)");
  assert.equal(scan(utf8("[1] 2")).error, 'unexpected "2" after the JSON value (at byte 4)');
  assert.equal(scan(utf8("[01]")).error, "a number with a leading zero (at byte 2)");
});

// Its time (target: well under a second per 10 MB) is measured by benchmarks/validation_bench.ts.
Deno.test("JsonSyntaxScanner scans 60 MB", () => {
  const item = '{"id":"loc1","lat":40.25,"lon":-2,"technologies":["ccgt",{"name":"x"}]},';
  const bytes = utf8(`[${item.repeat(Math.ceil(60e6 / item.length))}{}]`);
  const started = performance.now();
  const scanner = new JsonSyntaxScanner();
  for (let i = 0; i < bytes.length; i += 65536) scanner.feed(bytes.subarray(i, i + 65536));
  assert.ok(scanner.finish(), scanner.error ?? "");
  const ms = performance.now() - started;
  console.log(`${ms.toFixed(0)} ms for ${bytes.length} bytes`);
});

Deno.test("JsonSyntaxScanner(maxDepth) fails one level deeper, saying so, and takes the bound itself", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  const atBound = new JsonSyntaxScanner(3);
  assert.ok(atBound.feed(bytes('{"a": [[1]]}')));
  assert.ok(atBound.finish());
  assert.equal(atBound.tooDeep, false);
  const deeper = new JsonSyntaxScanner(3);
  assert.equal(deeper.feed(bytes('{"a": [[[1]]]}')), false);
  assert.equal(deeper.tooDeep, true);
  assert.match(deeper.error ?? "", /nesting deeper than 3 levels \(at byte 8\)/);
  // Brackets inside strings are text, not nesting.
  const strings = new JsonSyntaxScanner(1);
  assert.ok(strings.feed(bytes('{"a": "[[[{{{"}')));
  assert.ok(strings.finish());
});
