/**
 * A simulation service as a module: the hydrogen plant (HYDROGEN_PORT, 8765) and the
 * carbon-capture chain (CCS_PORT, 8766) are two instances over their models. Jobs live in
 * memory; close cancels the unfinished ones and closes every open socket.
 */
import type { SimulationModel } from "../../lib/simulation/simulation_model.ts";
import type { ServiceModule } from "../service_module.ts";
import { createSimulationApp } from "./app.ts";
import { readSimulationSettings } from "./config.ts";

/** The simulation service `name` over `model`, listening on `portVariable` (or `defaultPort`). */
export function createSimulationModule<Payload>(
  name: string,
  model: SimulationModel<Payload>,
  portVariable: string,
  defaultPort: number,
): ServiceModule {
  return {
    name,
    configure(env) {
      const settings = readSimulationSettings(env, portVariable, defaultPort);
      return {
        port: settings.port,
        start(context) {
          const service = createSimulationApp({ model, settings, shutdown: context.shutdown });
          const mib = (bytes: number) => Math.round(bytes / 104857.6) / 10;
          context.log(
            `${model.title}: at most ${settings.maxJobs} run(s) at once and ` +
              `${settings.maxQueued} queued, results of at most ${settings.maxResultValues} ` +
              `values kept ${settings.jobTtlMs / 1000} s within ${
                mib(settings.maxResultsBytes)
              } MiB`,
          );
          return Promise.resolve({
            fetch: (request, info) => service.app.fetch(request, info),
            close: () => service.close(),
          });
        },
      };
    },
  };
}
