/** The technology catalogue's part of the store build: its domain files and their load. */
import { join } from "node:path";
import type { BuildStep } from "../../store/build_step.ts";
import { loadCatalogue } from "./catalogue_store.ts";

/** The build step that validates and loads the catalogue's domain files directly in `dir`. */
export function catalogueStep(dir: string): BuildStep {
  return {
    name: "catalogue",
    // Only the domain files directly in the folder are catalogue sources.
    sources: [...Deno.readDirSync(dir)]
      .filter((e) => e.isFile && e.name.endsWith(".json"))
      .map((e) => join(dir, e.name)),
    async load(store) {
      await loadCatalogue(store, dir);
    },
  };
}
