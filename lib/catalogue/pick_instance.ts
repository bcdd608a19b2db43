/** The one way the adapters pick a technology's instance by its index. */

/** A technology has no instance at the index asked for (the server answers 404). */
export class NoSuchInstanceError extends RangeError {
  override name = "NoSuchInstanceError";
}

/**
 * The instance at `index` (0-based) of a technology; throws NoSuchInstanceError when the index
 * is not a non-negative integer below the number of instances.
 */
export function pickInstance<T>(
  technology: { readonly technology_id: string; readonly instances: readonly T[] },
  index: number,
): T {
  const { technology_id, instances } = technology;
  const instance = Number.isInteger(index) && index >= 0 ? instances[index] : undefined;
  if (instance === undefined) {
    throw new NoSuchInstanceError(
      `Technology "${technology_id}" has no instance ${index} (it has ${instances.length})`,
    );
  }
  return instance;
}
