import assert from "node:assert/strict";
import { bboxesIntersect, clampBbox, parseBbox, spanText, withinSpan } from "../../lib/osm/bbox.ts";

Deno.test("parseBbox() reads four numbers and refuses bad boxes, naming bbox", async (t) => {
  assert.deepEqual(parseBbox("9.47, 47.04,9.64,47.27"), [9.47, 47.04, 9.64, 47.27]);
  for (
    const [text, kind] of [
      ["1,2,3", SyntaxError],
      ["1,2,3,4,5", SyntaxError],
      ["1,,3,4", SyntaxError],
      ["a,2,3,4", SyntaxError],
      ["1,2,Infinity,4", SyntaxError],
      ["-181,0,1,1", RangeError],
      ["0,-91,1,1", RangeError],
      ["0,0,1,91", RangeError],
      ["2,0,1,1", RangeError],
      ["0,1,1,1", RangeError],
    ] as const
  ) {
    await t.step(text, () => {
      assert.throws(
        () => parseBbox(text),
        (e: Error) => e instanceof kind && /^bbox/.test(e.message),
      );
    });
  }
});

Deno.test("withinSpan() allows 5 x 5 degrees and no more; spanText() says the span", () => {
  assert.equal(withinSpan([0, 0, 5, 5]), true);
  assert.equal(withinSpan([0, 0, 5.01, 1]), false);
  assert.equal(spanText([0, 0, 5.01, 1]), "5.01 x 1");
});

Deno.test("clampBbox() cuts to 5 x 5 degrees around the centre, inside the world", () => {
  assert.deepEqual(clampBbox([9, 47, 10, 48]), [9, 47, 10, 48]);
  assert.deepEqual(clampBbox([0, 40, 20, 50]), [7.5, 42.5, 12.5, 47.5]);
  assert.deepEqual(clampBbox([-180, -90, 180, 90]), [-2.5, -2.5, 2.5, 2.5]);
  assert.deepEqual(clampBbox([170, 80, 180, 90]), [172.5, 82.5, 177.5, 87.5]);
});

Deno.test("bboxesIntersect() counts touching edges", () => {
  assert.ok(bboxesIntersect([0, 0, 1, 1], [1, 1, 2, 2]));
  assert.ok(!bboxesIntersect([0, 0, 1, 1], [1.1, 0, 2, 1]));
});
