/**
 * Numeric query parameters carrying 64,000 digits and an `x` (issue 7, finding 1: quadratic for
 * a backtracking pattern), answered with a 400 by every service that reads one, in-process.
 * Target: under 50 ms per request (the unit test asserted it before issue 19 moved it here).
 *
 *   deno bench -A benchmarks/query_bench.ts
 */
import { openStore } from "../lib/store/store.ts";
import { createCatalogueApp } from "../server/catalogue/app.ts";
import { readCatalogueSettings } from "../server/catalogue/config.ts";
import { createHeatApp } from "../server/heat/app.ts";
import { loadTypology } from "../lib/heat/typology/typology.ts";
import { ensureStore } from "../lib/store/build_store.ts";
import { defaultSteps } from "../lib/data_sets.ts";

const storePath = Deno.env.get("STORE_PATH") ??
  new URL("../data/store.duckdb", import.meta.url).pathname;
await ensureStore(storePath, { steps: defaultSteps() });
const data = await openStore(storePath, { readOnly: true });
const typology = await loadTypology(data);
await data.close();
const heat = createHeatApp({ typology });
const catalogue = await createCatalogueApp({
  store: await openStore(":memory:"),
  config: { ...readCatalogueSettings({}), jwtSecret: "a-bench-secret-of-at-least-32-bytes-long" },
});

const HUGE = "1".repeat(64_000) + "x";
const cases: [string, { request: (path: string) => Response | Promise<Response> }][] = [
  ["/api/v1/adapt/pypsa/ccgt?discount_rate=", catalogue.app],
  ["/api/v1/technologies/calliope?interest_rate=", catalogue.app],
  ["/api/v1/technologies?limit=", catalogue.app],
  ["/api/v1/timeseries?skip=", catalogue.app],
  ["/api/v1/variants/DE/match?year=", heat],
];
for (const [path, app] of cases) {
  Deno.bench({ name: `${path}<64 KB> -> 400 (target < 50 ms)`, group: "query" }, async () => {
    const res = await app.request(`${path}${HUGE}`);
    await res.arrayBuffer();
    if (res.status !== 400) throw new Error(`${path}: ${res.status}`);
  });
}
