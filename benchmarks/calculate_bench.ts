/**
 * Calculation benchmarks: one variant, and every variant of the typology in-process.
 *
 *   deno task bench   (target: all 2,147 variants within 20 ms)
 */
import { calculate } from "../lib/heat/calculation/calculate.ts";
import type { VariantRow } from "../lib/heat/parameters/variant_row.ts";
import { loadTypology } from "../lib/heat/typology/typology.ts";
import { openStore } from "../lib/store/store.ts";
import { ensureStore } from "../lib/store/build_store.ts";
import { defaultSteps } from "../lib/data_sets.ts";

const storePath = Deno.env.get("STORE_PATH") ?? "data/store.duckdb";
await ensureStore(storePath, { steps: defaultSteps() });
const store = await openStore(storePath);
const typology = await loadTypology(store);
await store.close();
const variants = typology.allVariants();
const one = typology.variant("DE.N.SFH.05.Gen.ReEx.001.002")!;

// An override with the archetype's own value computes everything anew (archetype results
// without overrides are kept per row, which would measure a lookup, not the calculation).
const own = (row: VariantRow) => ({ theta_i: Number(row.theta_i) });

Deno.bench({ name: "calculate() one variant", group: "calculate", baseline: true }, () => {
  calculate(one, own(one));
});

Deno.bench({ name: "calculate() one variant, archetype result kept", group: "calculate" }, () => {
  calculate(one);
});

Deno.bench(
  { name: "calculate() one variant with overrides and surfaces", group: "calculate" },
  () => {
    calculate(one, {
      theta_i: 21,
      n_Storey: 3,
      surfaces: [
        { id: "wall", type: "wall", area: 180, u_value: 0.25 },
        { id: "win-s", type: "window", area: 20, u_value: 1.1, azimuth: 180, tilt: 90 },
      ],
    });
  },
);

const computed = variants.map((row) => [row, own(row)] as const);
Deno.bench({ name: `calculate() all ${variants.length} variants`, group: "all" }, () => {
  for (const [row, overrides] of computed) calculate(row, overrides);
});

// Unfrozen copies are read anew on every call: the cost without the kept preparation.
const unprepared = variants.map((row) => ({ ...row }));
Deno.bench({
  name: `calculate() all ${variants.length} variants, rows read on every call`,
  group: "all",
}, () => {
  for (const row of unprepared) calculate(row);
});
