/**
 * Every service this workspace serves, in start order, and the choice of which to start:
 * `--only NAME` (repeatable or comma-separated), else `SERVICES`, else all of them.
 */
import { catalogueModule } from "./catalogue/module.ts";
import { heatModule } from "./gateway/module.ts";
import { createHighsModelRunner } from "../lib/runner/highs_model_runner.ts";
import { createRunnerModule } from "./runner/module.ts";
import { backendModule } from "./backend/module.ts";
import { extractionModule } from "./extraction/module.ts";
import type { ServiceModule } from "./service_module.ts";
import { createSimulationModule } from "./simulation/module.ts";
import { CCS_PORT, HYDROGEN_PORT } from "./simulation/config.ts";
import { hydrogenModel } from "../lib/simulation/hydrogen/hydrogen_model.ts";
import { ccsModel } from "../lib/simulation/ccs/ccs_model.ts";

/** The solver runner (RUNNER_PORT, default 5000) on HiGHS WebAssembly, a Worker per solve. */
export const runnerModule: ServiceModule = createRunnerModule((options) =>
  createHighsModelRunner(options)
);

/** The hydrogen plant simulation (HYDROGEN_PORT, default 8765). */
export const hydrogenModule: ServiceModule = createSimulationModule(
  "hydrogen",
  hydrogenModel,
  "HYDROGEN_PORT",
  HYDROGEN_PORT,
);

/** The carbon-capture chain simulation (CCS_PORT, default 8766). */
export const ccsModule: ServiceModule = createSimulationModule(
  "ccs",
  ccsModel,
  "CCS_PORT",
  CCS_PORT,
);

/** All services, in the order they start. */
export const SERVICE_MODULES: readonly ServiceModule[] = [
  heatModule,
  catalogueModule,
  runnerModule,
  backendModule,
  extractionModule,
  hydrogenModule,
  ccsModule,
];

/**
 * The modules named in `names` (all when undefined or empty), in the order of `modules`.
 * Throws RangeError naming `source` for an unknown name.
 */
export function selectModules(
  modules: readonly ServiceModule[],
  names: readonly string[] | undefined,
  source = "SERVICES",
): ServiceModule[] {
  if (names === undefined || names.length === 0) return [...modules];
  const known = modules.map((m) => m.name);
  for (const name of names) {
    if (!known.includes(name)) {
      throw new RangeError(`${source}: unknown service "${name}"; known: ${known.join(", ")}`);
    }
  }
  return modules.filter((m) => names.includes(m.name));
}
