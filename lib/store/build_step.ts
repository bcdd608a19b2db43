/**
 * One data set's part of the store build: the source paths that decide whether the store is
 * stale, and the function that loads them. Each domain exports its own (`tabulaStep` in
 * lib/heat/tabula/, `catalogueStep` in lib/catalogue/loading/, `profilesStep` in lib/profiles/);
 * the store runs those it is handed.
 */
import type { Store } from "./store.ts";

/** A data set's contribution to the store build. */
export interface BuildStep {
  /** Short name, used in messages and in the fingerprint. */
  readonly name: string;
  /** Files or directories (read recursively) whose contents the fingerprint covers. */
  readonly sources: readonly string[];
  /** Validates the sources and writes them into the (fresh) store; throws on any problem. */
  load(store: Store): Promise<void>;
}
