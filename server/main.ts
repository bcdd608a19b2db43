/**
 * Entry point: reads the environment (the only place that does), makes sure the store exists,
 * loads the typology once, opens the catalogue's state store (held open read-write: DuckDB
 * allows one writing process) and serves each listener. The service apps never listen on a
 * socket of their own.
 *
 * The catalogue needs a JWT signing secret: JWT_SECRET_KEY always wins; without it a
 * development start creates a random one in JWT_SECRET_FILE (default `.local/jwt_secret`,
 * git-ignored) and keeps it, so tokens survive restarts. With JWT_SECRET_FILE set empty the
 * server refuses to start without JWT_SECRET_KEY.
 */
import { dirname } from "node:path";
import { ensureStore } from "../pipelines/build_store.ts";
import { resolveJwtSecret } from "../lib/auth/secret.ts";
import { openStore, type Store } from "../lib/store/store.ts";
import { loadTypology } from "../lib/heat/typology.ts";
import { type CatalogueApp, createCatalogueApp } from "./catalogue/app.ts";
import { generateApiKey, readConfig, type ServerConfig } from "./config.ts";
import { buildListeners } from "./services.ts";

/** Opens the state store and builds the catalogue app; the store is closed again on failure. */
async function startCatalogue(
  config: ServerConfig,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ catalogue: CatalogueApp; state: Store }> {
  const settings = config.catalogue;
  const secret = await resolveJwtSecret(
    env,
    settings.jwtSecretFile === null ? {} : { localFile: settings.jwtSecretFile },
  );
  if (secret.source !== "env") {
    console.error(
      `catalogue: JWT_SECRET_KEY is not set; using the secret ${
        secret.source === "created" ? "created in" : "kept in"
      } ${settings.jwtSecretFile}`,
    );
  }
  await Deno.mkdir(dirname(settings.statePath), { recursive: true });
  const state = await openStore(settings.statePath);
  try {
    const catalogue = await createCatalogueApp({
      store: state,
      config: { ...settings, jwtSecret: secret.secret },
    });
    return { catalogue, state };
  } catch (error) {
    state.close();
    throw error;
  }
}

/** Starts every listener and resolves once all of them listen. */
export async function main(env: Readonly<Record<string, string | undefined>>): Promise<void> {
  const config = readConfig(env);
  const { catalogue, state } = await startCatalogue(config, env);
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

  const stop = async () => {
    // Let a scraper run in progress end (at most 5 s), then checkpoint and close the state store.
    await Promise.race([catalogue.close(), new Promise((r) => setTimeout(r, 5000))]);
    state.close();
    Deno.exit(0);
  };
  if (Deno.build.os !== "windows") {
    for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, stop);
  }

  const listeners = buildListeners({ config, heatApiKey, typology, catalogue: catalogue.app });
  const listening = listeners.map((listener) =>
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

if (import.meta.main) {
  try {
    await main(Deno.env.toObject());
  } catch (error) {
    // Configuration and data problems: one readable message, no stack, non-zero exit.
    console.error(`server not started: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exit(1);
  }
}
