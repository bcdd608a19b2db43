/** The terms and bounds of the LP row `name` (fails when there is none), for tests of rows. */
import assert from "node:assert/strict";
import type { LinearProgram } from "../../lib/lp/linear_program.ts";
import { nameArray } from "../../lib/lp/lp_name_list.ts";
import { rowWise } from "../../lib/lp/sparse_matrix.ts";

export function row(lp: LinearProgram, name: string) {
  const i = nameArray(lp.rowNames).indexOf(name);
  assert.ok(i >= 0, `no row ${name}`);
  const terms: Record<string, number> = {};
  const { starts, indices, values } = rowWise(lp.matrix);
  for (let k = starts[i]!; k < starts[i + 1]!; k++) {
    terms[lp.colNames.at(indices[k]!)!] = values[k]!;
  }
  return { terms, lower: lp.rowLower[i], upper: lp.rowUpper[i] };
}
