/** The profile catalogue's part of the store build: its folder and its load. */
import type { BuildStep } from "../store/build_step.ts";
import { loadProfiles } from "./profile_store.ts";

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
