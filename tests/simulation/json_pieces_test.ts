import assert from "node:assert/strict";
import fc from "fast-check";
import { ARRAY_SLICE, jsonPieces } from "../../lib/simulation/json_pieces.ts";

const joined = (value: unknown) => [...jsonPieces(value)].join("");

Deno.test("jsonPieces() joins to JSON.stringify for plain data, sparse and odd members too", () => {
  const shared = [1.5, -0, 1e-300, NaN, Infinity];
  const cases: unknown[] = [
    null,
    0,
    'text \u2028 "quoted" \\',
    true,
    [],
    {},
    { a: undefined, b: () => 1, c: Symbol("s"), d: [undefined, () => 1], e: null },
    // deno-lint-ignore no-sparse-arrays
    [1, , 3],
    { time_s: shared, nested: { same: shared } },
    { date: new Date(0), list: [{ x: 1 }, [2, [3]], "s"] },
    Array.from({ length: ARRAY_SLICE * 2 + 7 }, (_, i) => i / 7),
    Array.from({ length: ARRAY_SLICE + 3 }, (_, i) => (i % 2 ? { i } : i)),
  ];
  for (const value of cases) assert.equal(joined(value), JSON.stringify(value));
  assert.equal(joined(undefined), "null");
  fc.assert(fc.property(fc.jsonValue(), (value) => joined(value) === JSON.stringify(value)));
});

Deno.test("jsonPieces() writes a long series in slices, none much over ARRAY_SLICE numbers", () => {
  const series = Array.from({ length: 100_000 }, (_, i) => i * 0.1);
  const pieces = [...jsonPieces({ series })];
  assert.ok(pieces.length > 100_000 / ARRAY_SLICE);
  const longest = Math.max(...pieces.map((p) => p.length));
  assert.ok(longest < ARRAY_SLICE * 25, `${longest} characters`);
});

Deno.test("jsonPieces() refuses a cyclic value instead of overflowing the stack", () => {
  const cyclic: Record<string, unknown> = {};
  cyclic["self"] = cyclic;
  assert.throws(() => [...jsonPieces(cyclic)], TypeError);
});
