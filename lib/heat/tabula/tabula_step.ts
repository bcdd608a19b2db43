/** TABULA's part of the store build: its source folder and the load that validates it first. */
import type { BuildStep } from "../../store/build_step.ts";
import { loadTabula } from "./tabula_load.ts";
import { readTabulaSources } from "./tabula_sources.ts";

/** The build step that validates and loads the TABULA sources below `dir`. */
export function tabulaStep(dir: string): BuildStep {
  return {
    name: "tabula",
    sources: [dir],
    async load(store) {
      await loadTabula(store, await readTabulaSources(dir));
    },
  };
}
