/**
 * The data sets of the store and where their sources are: TABULA (`data/tabula`), the technology
 * catalogue (the domain files directly in `catalogues/`) and the profiles
 * (`catalogues/profiles`), all relative to a repository root.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCatalogue } from "../catalogue/catalogue_store.ts";
import { tabulaStep } from "../heat/tabula_load.ts";
import { loadProfiles } from "../profiles/profile_store.ts";
import type { BuildStep } from "./build_step.ts";

/** This repository's root folder (two levels above this file). */
export const REPOSITORY_ROOT = fileURLToPath(new URL("../..", import.meta.url));

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

/** The build step that validates and loads the profile catalogue in `dir`. */
export function profilesStep(dir: string): BuildStep {
  return {
    name: "profiles",
    sources: [dir],
    async load(store) {
      await loadProfiles(store, dir);
    },
  };
}

/** The data sets of the store, with their sources below `root` (default: this repository). */
export function defaultSteps(root: string = REPOSITORY_ROOT): BuildStep[] {
  const catalogueDir = join(root, "catalogues");
  return [
    tabulaStep(join(root, "data", "tabula")),
    catalogueStep(catalogueDir),
    profilesStep(join(catalogueDir, "profiles")),
  ];
}
