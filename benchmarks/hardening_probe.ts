/**
 * Measures the audit findings of issue 7 that a single request shows, in-process (no sockets):
 * finding 1, the time of numeric query parameters carrying 64,000 digits and an `x`; finding 3,
 * the size of the 400 answers to a 1 MiB body of unknown keys (heat calculate) and a 2 MiB body
 * (catalogue login). Run before and after a change: `deno run -A benchmarks/hardening_probe.ts`.
 */
import { openStore } from "../lib/store/store.ts";
import { createCatalogueApp } from "../server/catalogue/app.ts";
import { readCatalogueSettings } from "../server/catalogue/config.ts";
import { createHeatApp } from "../server/heat/app.ts";
import { loadTypology } from "../lib/heat/typology/typology.ts";
import { ensureStore } from "../lib/store/build_store.ts";
import { defaultSteps } from "../lib/data_sets.ts";

const storePath = Deno.env.get("STORE_PATH") ?? "data/store.duckdb";
await ensureStore(storePath, { steps: defaultSteps() });
const data = await openStore(storePath, { readOnly: true });
const typology = await loadTypology(data);
await data.close();
const heat = createHeatApp({ typology });

const state = await openStore(":memory:");
const catalogue = await createCatalogueApp({
  store: state,
  config: {
    ...readCatalogueSettings({}),
    jwtSecret: "a-probe-secret-of-at-least-32-bytes-long",
  },
});

async function timed(
  app: { request: (p: string, i?: RequestInit) => Promise<Response> | Response },
  path: string,
  init?: RequestInit,
) {
  const start = performance.now();
  const res = await app.request(path, init);
  const body = new Uint8Array(await res.arrayBuffer());
  return { ms: performance.now() - start, status: res.status, bytes: body.length };
}

const digits = "1".repeat(64_000) + "x";
const numeric: [string, string][] = [
  ["discount_rate", `/api/v1/adapt/pypsa/ccgt?discount_rate=${digits}`],
  ["instance_index", `/api/v1/adapt/pypsa/ccgt?instance_index=${digits}`],
  ["interest_rate", `/api/v1/technologies/calliope?interest_rate=${digits}`],
  ["skip", `/api/v1/technologies?skip=${digits}`],
  ["limit", `/api/v1/technologies?limit=${digits}`],
];
console.log("finding 1: numeric query values of 64,000 digits and an x (catalogue)");
for (const [name, path] of numeric) {
  const r = await timed(catalogue.app, path);
  console.log(`  ${name}: ${r.status} in ${r.ms.toFixed(1)} ms`);
}

/** A JSON object of unknown keys `k0`, `k1`, ... of about `bytes` bytes. */
function unknownKeys(bytes: number): Record<string, number> {
  const keys: Record<string, number> = {};
  let size = 2;
  for (let i = 0; size < bytes - 32; i++) {
    const key = `k${i}`;
    keys[key] = 1;
    size += key.length + 5;
  }
  return keys;
}

const heatBody = JSON.stringify(unknownKeys(1024 * 1024));
const heatReply = await timed(heat, "/api/v1/calculate/DE.N.SFH.05.Gen.ReEx.001.001", {
  method: "POST",
  headers: { "Content-Type": "application/json", "Content-Length": String(heatBody.length) },
  body: heatBody,
});
console.log("finding 3: error answers to large bodies");
console.log(
  `  heat calculate, unknown keys in ${heatBody.length} bytes:` +
    ` ${heatReply.status}, ${heatReply.bytes} bytes`,
);
const loginBody = JSON.stringify({
  email: "a@b.c",
  password: "p",
  ...unknownKeys(2 * 1024 * 1024),
});
const loginReply = await timed(catalogue.app, "/api/v1/auth/admin/login", {
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: loginBody,
});
console.log(
  `  catalogue login, ${loginBody.length} bytes: ${loginReply.status}, ${loginReply.bytes} bytes`,
);
await catalogue.close();
await state.close();
