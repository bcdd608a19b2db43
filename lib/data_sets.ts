/**
 * The data sets of the store and where their sources are: TABULA (`data/tabula`), the technology
 * catalogue (the domain files directly in `catalogues/`) and the profiles
 * (`catalogues/profiles`), all relative to a repository root.
 *
 * It sits above the domains: each domain exports its own build step, `lib/store` runs the steps
 * it is handed, and this list is the one place that names them all (for the server's start-up,
 * the pipelines, the benchmarks and the tests).
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { catalogueStep } from "./catalogue/loading/catalogue_step.ts";
import { tabulaStep } from "./heat/tabula/tabula_step.ts";
import { profilesStep } from "./profiles/profiles_step.ts";
import type { BuildStep } from "./store/build_step.ts";

/** This repository's root folder (one level above this file). */
export const REPOSITORY_ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The data sets of the store, with their sources below `root` (default: this repository). */
export function defaultSteps(root: string = REPOSITORY_ROOT): BuildStep[] {
  const catalogueDir = join(root, "catalogues");
  return [
    tabulaStep(join(root, "data", "tabula")),
    catalogueStep(catalogueDir),
    profilesStep(join(catalogueDir, "profiles")),
  ];
}
