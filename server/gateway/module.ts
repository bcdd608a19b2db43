/**
 * The heat service as a module: it loads the typology from the shared data store once (the
 * store is closed again, so pipelines may rebuild it) and serves the heat app behind its
 * API-key gateway. It owns no state file. It lives with the gateway, which depends on the heat
 * app, never the reverse.
 */
import { loadTypology } from "../../lib/heat/typology/typology.ts";
import { openStore } from "../../lib/store/store.ts";
import type { ServiceModule } from "../service_module.ts";
import { createHeatApp } from "../heat/app.ts";
import { generateApiKey, readHeatSettings } from "../heat/config.ts";
import { createGateway } from "./app.ts";

/** The heating-demand service behind its gateway (HEAT_PORT, default 8080). */
export const heatModule: ServiceModule = {
  name: "heat",
  configure(env) {
    const settings = readHeatSettings(env);
    return {
      port: settings.port,
      async start(context) {
        const store = await openStore(await context.dataStore(), { readOnly: true });
        let typology;
        try {
          typology = await loadTypology(store);
        } finally {
          await store.close();
        }
        let apiKey = settings.apiKey;
        if (apiKey === undefined) {
          // A developer start: a fresh key each run, shown once; deployments set HEAT_API_KEY.
          apiKey = generateApiKey();
          context.log(`HEAT_API_KEY is not set; this run accepts the generated key ${apiKey}`);
        }
        const gateway = createGateway({
          heatApp: createHeatApp({ typology }),
          apiKey,
          allowedOrigins: settings.allowedOrigins,
        });
        return {
          fetch: (request, info) => gateway.fetch(request, info),
          close: () => Promise.resolve(),
        };
      },
    };
  },
};
