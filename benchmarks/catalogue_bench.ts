/**
 * Catalogue service hot paths, in-process over the real data and an in-memory state store:
 * the largest technology page, one technology, one profile's data (load-tested), and a full
 * reload of every data file (target: under 1 s).
 *
 *   deno task bench
 */
import { openStore } from "../lib/store/store.ts";
import { ScraperConfigSchema } from "../lib/scraper/config.ts";
import { createCatalogueApp } from "../server/catalogue/app.ts";

const store = await openStore(":memory:");
const { app, catalogue } = await createCatalogueApp({
  store,
  config: {
    catalogueDir: "catalogues",
    profilesDir: "catalogues/profiles",
    tokenLifetimeSeconds: 3600,
    orcid: undefined,
    frontendUrl: "http://localhost:5173",
    admin: undefined,
    sessionStoreSecret: undefined,
    allowedOrigins: [],
    scraper: ScraperConfigSchema.parse({}),
    jwtSecret: "benchmark-secret-0123456789abcdefghij",
  },
});

async function get(path: string): Promise<void> {
  const res = await app.request(path);
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  await res.arrayBuffer();
}

Deno.bench(
  { name: "GET /api/v1/technologies?limit=200", group: "catalogue", baseline: true },
  () => get("/api/v1/technologies?limit=200"),
);

Deno.bench(
  { name: "GET /api/v1/technologies/{id}", group: "catalogue" },
  () => get("/api/v1/technologies/onshore_wind"),
);

Deno.bench(
  { name: "GET /api/v1/timeseries/{id}/data (8760 values)", group: "catalogue" },
  () => get("/api/v1/timeseries/DE_solar_pv_2016/data"),
);

Deno.bench({ name: "reload of every data file", group: "reload", n: 5 }, async () => {
  const result = await catalogue.reload();
  if (!result.ok) throw new Error("reload failed");
});
