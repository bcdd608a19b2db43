/**
 * Loads HiGHS (npm `highs`, WebAssembly) once per JavaScript realm: the main thread and each
 * Worker have their own instance, since a Wasm instance cannot be shared between threads.
 */
import highsDefault, { type Highs } from "highs";

export type { Highs };

/**
 * The package is CommonJS with an ESM build: Deno runs `build/highs.mjs`, whose default export
 * is the loader, but type-checks `types.d.ts` as CommonJS, where the default import is the whole
 * module. The cast states what runs.
 */
const loadHighs = highsDefault as unknown as (typeof highsDefault)["default"];

let loading: Promise<Highs> | undefined;

/** The realm's HiGHS instance, compiled and instantiated on first use. */
export function loadHighsOnce(): Promise<Highs> {
  if (loading === undefined) {
    // A failed load is forgotten so that a later call can try again.
    const attempt = loadHighs().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    loading = attempt;
    return attempt;
  }
  return loading;
}

/** The solver's name for results and `/health`, e.g. "HiGHS 1.15.1 (wasm)", from HiGHS itself. */
export function solverName(highs: Highs): string {
  const { major, minor, patch } = highs.version;
  return `HiGHS ${major}.${minor}.${patch} (wasm)`;
}
