/**
 * Entry point: reads the environment (the only place that does), makes sure the store exists,
 * loads the typology once and serves each listener's gateway. The service apps never listen on
 * a socket of their own.
 */
import { ensureStore } from "../pipelines/build_store.ts";
import { openStore } from "../lib/store/store.ts";
import { loadTypology } from "../lib/heat/typology.ts";
import { generateApiKey, readConfig } from "./config.ts";
import { buildListeners } from "./services.ts";

/** Starts every listener and resolves once all of them listen. */
export async function main(env: Readonly<Record<string, string | undefined>>): Promise<void> {
  const config = readConfig(env);
  const { built, ms } = await ensureStore(config.storePath);
  if (built) console.error(`store: built ${config.storePath} in ${Math.round(ms)} ms`);
  // The typology is held in memory; the store is closed again so pipelines may rebuild it.
  const store = await openStore(config.storePath, { readOnly: true });
  let typology;
  try {
    typology = await loadTypology(store);
  } finally {
    store.close();
  }

  let heatApiKey = config.heatApiKey;
  if (heatApiKey === undefined) {
    // A developer start: a fresh key each run, shown once; deployments set HEAT_API_KEY.
    heatApiKey = generateApiKey();
    console.error(`HEAT_API_KEY is not set; this run accepts the generated key ${heatApiKey}`);
  }

  const listening = buildListeners({ config, heatApiKey, typology }).map((listener) =>
    new Promise<void>((resolve) => {
      Deno.serve({
        port: listener.port,
        hostname: config.host,
        onListen: ({ hostname, port }) => {
          console.error(`${listener.name}: listening on http://${hostname}:${port}`);
          resolve();
        },
      }, listener.fetch);
    })
  );
  await Promise.all(listening);
}

if (import.meta.main) await main(Deno.env.toObject());
