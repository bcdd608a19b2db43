/** The terms and bounds of the LP row `name` (fails when there is none), for tests of rows. */
import assert from "node:assert/strict";
import type { LinearProgram } from "../../lib/lp/linear_program.ts";
import { nameArray } from "../../lib/lp/lp_name_list.ts";

export function row(lp: LinearProgram, name: string) {
  const i = nameArray(lp.rowNames).indexOf(name);
  assert.ok(i >= 0, `no row ${name}`);
  const terms: Record<string, number> = {};
  const { starts, indices, values } = lp.matrix;
  for (let j = 0; j < lp.numCols; j++) {
    for (let k = starts[j]!; k < starts[j + 1]!; k++) {
      if (indices[k] === i) terms[lp.colNames.at(j)!] = values[k]!;
    }
  }
  return { terms, lower: lp.rowLower[i], upper: lp.rowUpper[i] };
}
