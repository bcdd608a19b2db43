/**
 * Readers of environment variables, shared by every service's settings: each reads one variable
 * and throws a TypeError or RangeError naming it, so a bad setting stops the start with one
 * readable line.
 */

/** The environment, as `Deno.env.toObject()` gives it; tests pass any object. */
export type Env = Readonly<Record<string, string | undefined>>;

/** The trimmed value, or undefined when unset or blank. */
export function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

/** A TCP port from 0 (any free port) to 65535; `fallback` when unset or blank. */
export function port(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const parsed = Number(value);
  if (!/^\d+$/.test(value.trim()) || parsed > 65535) {
    throw new RangeError(
      `${name}: must be an integer port from 0 (any free port) to 65535, got "${value}"`,
    );
  }
  return parsed;
}

/** An integer >= `min`; `fallback` when unset or blank. */
export function integer(env: Env, name: string, fallback: number, min: number): number {
  const value = text(env, name);
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(parsed) || parsed < min) {
    throw new RangeError(`${name}: must be an integer >= ${min}, got "${value}"`);
  }
  return parsed;
}

/** A number > 0; `fallback` when unset or blank. */
export function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) {
    throw new RangeError(`${name}: must be a number > 0, got "${value}"`);
  }
  return parsed;
}

/** An http(s) URL, returned as given. */
export function url(name: string, value: string): string {
  try {
    const parsed = new URL(value);
    if (parsed.protocol === "http:" || parsed.protocol === "https:") return value;
  } catch {
    // falls through to the error below
  }
  throw new TypeError(`${name}: "${value}" is not an http(s) URL`);
}

/** A comma-separated list, items trimmed, empty items dropped. */
export function list(value: string | undefined): string[] {
  return (value ?? "").split(",").map((item) => item.trim()).filter((item) => item !== "");
}

/** Exact browser origins (scheme://host[:port], no path or trailing slash), comma-separated. */
export function origins(name: string, value: string | undefined): string[] {
  const items = list(value);
  for (const origin of items) {
    // CORS compares the exact serialised origin: scheme://host[:port], no path or slash.
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== origin) {
      throw new TypeError(
        `${name}: "${origin}" is not an origin like https://app.example.org (scheme, host, ` +
          "optional port; no path or trailing slash)",
      );
    }
  }
  return items;
}
