/**
 * Pins buildLp's output byte for byte on real models (Calliope's examples and the runner's
 * copied national model), so that work on the build's speed cannot change the LP it builds.
 * The fingerprints were computed before that work; a deliberate change to the LP updates them.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { buildLp } from "../../lib/lp/build_lp.ts";
import type { LinearProgram } from "../../lib/lp/linear_program.ts";
import { importCalliopeModel } from "../../lib/model/calliope/calliope_import.ts";
import { prepareModelBody } from "../../lib/model/prepare_model_body.ts";
import { nationalScaleCopies } from "../runner/_national_copies.ts";
import { nameArray } from "../../lib/lp/lp_name_list.ts";
import { columnWise } from "../../lib/lp/sparse_matrix.ts";

const NATIONAL = new URL("../../data/models/calliope_national_scale", import.meta.url).pathname;
const URBAN = new URL("../../data/models/calliope_urban_scale", import.meta.url).pathname;

/** SHA-256 over every array, scalar and name of `lp`, each part tagged and length-prefixed. */
export function lpFingerprint(lp: LinearProgram): string {
  const hash = createHash("sha256");
  const part = (tag: string, bytes: Uint8Array) => {
    hash.update(`${tag}:${bytes.byteLength};`);
    hash.update(bytes);
  };
  const view = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  part("sizes", view(new Float64Array([lp.numCols, lp.numRows, lp.offset])));
  part("sense", new TextEncoder().encode(lp.sense ?? "minimize"));
  part("colCost", view(lp.colCost));
  part("colLower", view(lp.colLower));
  part("colUpper", view(lp.colUpper));
  part("rowLower", view(lp.rowLower));
  part("rowUpper", view(lp.rowUpper));
  // By columns, as the fingerprints were first taken: the builder's rows must give that matrix.
  const matrix = columnWise(lp.matrix);
  part("starts", view(matrix.starts));
  part("indices", view(matrix.indices));
  part("values", view(matrix.values));
  part("integrality", lp.integrality ?? new Uint8Array(0));
  part("colNames", new TextEncoder().encode(nameArray(lp.colNames).join("\n")));
  part("rowNames", new TextEncoder().encode(nameArray(lp.rowNames).join("\n")));
  return hash.digest("hex");
}

/** The fingerprint of the LP `body` prepares into. */
function fingerprintOf(body: unknown): string {
  const prepared = prepareModelBody(body);
  if (!prepared.ok) throw new Error(JSON.stringify(prepared.problems));
  return lpFingerprint(buildLp(prepared.model).lp);
}

const TWO_DAYS = ["2005-01-01", "2005-01-02"];

Deno.test("fingerprint: national-scale example, 2 days", async () => {
  const config = await importCalliopeModel(NATIONAL, {
    overrides: { "model.subset_time": TWO_DAYS, "run.solver": "highs" },
  });
  assert.equal(
    fingerprintOf(config),
    "059ce6455326bda7a7873a77e12031bdfc6fb2233beac71c0f1e6d4accf7384e",
  );
});

Deno.test("fingerprint: urban-scale example, milp scenario, 2 days", async () => {
  const config = await importCalliopeModel(URBAN, {
    scenario: "milp",
    overrides: { "model.subset_time": TWO_DAYS, "run.solver": "highs" },
  });
  assert.equal(
    fingerprintOf(config),
    "a1372ed29a58986ee3bfedd56428d983b7c6671195ab03869a756ab85407e32e",
  );
});

Deno.test("fingerprint: national-scale copies, 3 groups x 2 days", async () => {
  assert.equal(
    fingerprintOf(await nationalScaleCopies({ groups: 3, days: 2 })),
    "798e513ba6b073e48fa595152eebf1478d9fe71ea07a15c82d4196115f06475f",
  );
});

Deno.test("fingerprint: national-scale example clustered, 2 weeks into 10 days", async () => {
  const config = await importCalliopeModel(NATIONAL, {
    scenario: "time_clustering",
    overrides: { "model.subset_time": ["2005-01-01", "2005-01-14"], "run.solver": "highs" },
  });
  assert.equal(
    fingerprintOf(config),
    "b9d6574323bcf7a85a0418e3c4b0102b99375b7709baad75154f49b70f65bb1f",
  );
});
