/**
 * Calliope 0.6 `constraints/network.py`: both ends of a link have the same capacity
 * (one row per end, as Calliope builds it).
 */
import type { BuildContext } from "./build_context.ts";
import { remoteEnd } from "./build_context.ts";

/** Adds symmetric_transmission rows. */
export function addNetwork(ctx: BuildContext): void {
  const { model, b, index } = ctx;
  for (const lt of model.locTechs) {
    if (lt.type !== "transmission") continue;
    const remote = remoteEnd(ctx, lt);
    if (remote === undefined) continue;
    b.addRow(`symmetric_transmission[${lt.id}]`, 0, 0, [
      index.energyCap.get(lt.id)!,
      index.energyCap.get(remote.id)!,
    ], [1, -1]);
  }
}
