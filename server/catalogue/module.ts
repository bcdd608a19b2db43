/**
 * The technology catalogue as a module. It owns its state file (`STATE_PATH`: submissions,
 * additions, scraper runs), held open read-write for as long as the service runs, since DuckDB
 * allows one writing process per file; the served catalogue is read from the data files.
 *
 * It needs a JWT signing secret: JWT_SECRET_KEY always wins; without it a development start
 * creates a random one in JWT_SECRET_FILE (default `.local/jwt_secret`, git-ignored) and keeps
 * it, so tokens survive restarts. With JWT_SECRET_FILE set empty the start is refused without
 * JWT_SECRET_KEY.
 */
import { dirname } from "node:path";
import { resolveJwtSecret } from "../../lib/auth/secret.ts";
import { openStore } from "../../lib/store/store.ts";
import type { ServiceModule } from "../service_module.ts";
import { createCatalogueApp } from "./app.ts";
import { readCatalogueSettings } from "./config.ts";

/** How long a stop waits for a scraper run in progress, milliseconds. */
export const SCRAPER_STOP_WAIT_MS = 5000;

/** The technology catalogue service (CATALOGUE_PORT, default 8005). */
export const catalogueModule: ServiceModule = {
  name: "catalogue",
  configure(env) {
    const settings = readCatalogueSettings(env);
    return {
      port: settings.port,
      async start(context) {
        const secret = await resolveJwtSecret(
          env,
          settings.jwtSecretFile === null ? {} : { localFile: settings.jwtSecretFile },
        );
        if (secret.source !== "env") {
          context.log(
            `JWT_SECRET_KEY is not set; using the secret ${
              secret.source === "created" ? "created in" : "kept in"
            } ${settings.jwtSecretFile}`,
          );
        }
        await Deno.mkdir(dirname(settings.statePath), { recursive: true });
        const state = await openStore(settings.statePath);
        let catalogue;
        try {
          catalogue = await createCatalogueApp({
            store: state,
            config: { ...settings, jwtSecret: secret.secret },
          });
        } catch (error) {
          await state.close();
          throw error;
        }
        const { app } = catalogue;
        return {
          fetch: (request, info) => app.fetch(request, info),
          async close() {
            // Let a scraper run in progress end (bounded), then checkpoint and close the state.
            let timer: ReturnType<typeof setTimeout> | undefined;
            await Promise.race([
              catalogue.close(),
              new Promise((resolve) => timer = setTimeout(resolve, SCRAPER_STOP_WAIT_MS)),
            ]);
            clearTimeout(timer);
            await state.close();
          },
        };
      },
    };
  },
};
