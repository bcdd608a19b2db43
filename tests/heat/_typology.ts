/**
 * The real TABULA typology for tests, read and validated from data/tabula once per test module
 * (no store needed: the pipeline's reader gives the same rows the store holds).
 */
import { fileURLToPath } from "node:url";
import { readTabulaSources } from "../../lib/heat/tabula/tabula_sources.ts";
import { type Typology, typologyFromRows } from "../../lib/heat/typology/typology.ts";
import type { ReferenceRow } from "../../lib/heat/parameters/reference_row.ts";

export interface TestTypology extends Typology {
  /** Every reference row of tsib/episcope.csv, in file order. */
  references(): readonly ReferenceRow[];
}

let cached: Promise<TestTypology> | undefined;

/** The typology of the repository's data/tabula, validated; throws on any data problem. */
export function testTypology(): Promise<TestTypology> {
  cached ??= (async () => {
    const dir = fileURLToPath(new URL("../../data/tabula", import.meta.url));
    const sources = await readTabulaSources(dir);
    if (sources.problems.length > 0) {
      throw new Error(`data/tabula has ${sources.problems.length} problems`);
    }
    const references = sources.references.map((r) => r.row);
    const typology = typologyFromRows(
      sources.countries.flatMap((c) => c.rows.map((r) => r.row)),
      references,
    );
    return { ...typology, references: () => references };
  })();
  return cached;
}
