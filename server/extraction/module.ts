/**
 * The extraction service as a module. It owns its state file (EXTRACTION_STATE_PATH: runs and
 * their buildings), opens the shared data store read-only for the TABULA typology, and reads
 * the footprints from the process's shared OSM store (which the process opens and closes). Its
 * listener binds EXTRACTION_HOST (127.0.0.1 by default): it has no authentication.
 *
 * A stop refuses new runs, fails the queued ones, lets the running one finish (its Worker ends
 * with it), then closes the stores it opened. The bounds of the runs come from config.ts.
 */
import { dirname } from "node:path";
import { ExtractionRuns } from "../../lib/extraction/extraction_runs.ts";
import { RunStore } from "../../lib/extraction/run_store.ts";
import { openStore } from "../../lib/store/store.ts";
import type { ServiceModule } from "../service_module.ts";
import { createExtractionApp } from "./app.ts";
import { readExtractionSettings } from "./config.ts";

/** The building-data extraction service (EXTRACTION_PORT, default 8090). */
export const extractionModule: ServiceModule = {
  name: "extraction",
  configure(env) {
    const settings = readExtractionSettings(env);
    return {
      port: settings.port,
      hostname: settings.hostname,
      async start(context) {
        const osmStore = (await context.osmStore()).store;
        const dataStore = await openStore(await context.dataStore(), { readOnly: true });
        let state;
        try {
          if (settings.statePath !== ":memory:") {
            await Deno.mkdir(dirname(settings.statePath), { recursive: true });
          }
          state = await openStore(settings.statePath);
        } catch (error) {
          await dataStore.close();
          throw error;
        }
        const runs = new RunStore(state);
        let interrupted, pruned;
        try {
          interrupted = await runs.init();
          // Bounds lowered since the last start apply at once, not after the next run.
          pruned = await runs.prune(settings.limits.keep);
        } catch (error) {
          await state.close();
          await dataStore.close();
          throw error;
        }
        if (interrupted > 0) {
          context.log(`${interrupted} run(s) left unfinished: failed, interrupted by restart`);
        }
        if (pruned.length > 0) {
          context.log(
            `${pruned.length} old run(s) deleted (EXTRACTION_RUNS_KEPT, EXTRACTION_BUILDINGS_KEPT)`,
          );
        }
        const manager = new ExtractionRuns({
          runs,
          osmStore,
          dataStore,
          limits: settings.limits,
          log: context.log,
        });
        const app = createExtractionApp({ runs, manager, osmStore });
        return {
          fetch: (request, info) => app.fetch(request, info),
          async close() {
            await manager.close();
            await state.close();
            await dataStore.close();
          },
        };
      },
    };
  },
};
