/**
 * Keys that user JSON may not use as names, and writes that cannot reach a prototype: objects
 * built from request bodies are written with own properties only, so a member named `__proto__`,
 * `constructor` or `toString` can never change `Object`, `Object.prototype` or a built-in
 * function (prototype pollution).
 */

/**
 * Whether `name` is one every object already has (`__proto__`, `constructor`, `toString`, ...,
 * the members of `Object.prototype`) or `prototype`; such a name cannot be a user-chosen key.
 */
export function isReservedKey(name: string): boolean {
  return name === "prototype" || name in Object.prototype;
}

/** The message of a refused reserved key. */
export const RESERVED_KEY_MESSAGE = "reserved name: __proto__, constructor, prototype and the " +
  "other members of Object.prototype cannot be used";

/** Paths (`costs.__proto__`) of the reserved keys among the own keys of `value`'s objects. */
export function reservedKeyPaths(value: unknown, path = ""): string[] {
  if (value === null || typeof value !== "object") return [];
  const found: string[] = [];
  for (const key of Object.keys(value)) {
    const at = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    if (!Array.isArray(value) && isReservedKey(key)) found.push(at);
    else found.push(...reservedKeyPaths((value as Record<string, unknown>)[key], at));
  }
  return found;
}

/** The own member `key` of `target`, never one inherited from a prototype. */
export function ownValue<T>(target: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(target, key) ? target[key] : undefined;
}

/** Sets `target[key]` as an own data property, even where `key` is `__proto__`. */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}
