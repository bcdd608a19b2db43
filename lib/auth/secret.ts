/**
 * The JWT signing secret: from the environment in production, or from a git-ignored local file
 * for development, created once so that tokens survive restarts.
 */
import { dirname } from "node:path";
import { encodeBase64Url } from "./base64url.ts";

/** Environment variable that holds the signing secret. */
export const JWT_SECRET_ENV = "JWT_SECRET_KEY";

/** Shortest accepted secret in bytes: HS256 wants a key of at least 256 bits (RFC 7518 §3.2). */
export const MIN_SECRET_BYTES = 32;

/** Where the secret came from. */
export type SecretSource = "env" | "file" | "created";

/** A resolved secret and its origin (log the origin, never the secret). */
export interface ResolvedSecret {
  secret: string;
  source: SecretSource;
}

function checkLength(secret: string, origin: string): string {
  const bytes = new TextEncoder().encode(secret).length;
  if (bytes < MIN_SECRET_BYTES) {
    throw new RangeError(
      `${origin}: the JWT secret has ${bytes} bytes, at least ${MIN_SECRET_BYTES} are needed ` +
        "(generate one with: openssl rand -base64 32)",
    );
  }
  return secret;
}

/**
 * The secret from `JWT_SECRET_KEY`; throws an Error saying how to set it when it is missing, so
 * that a production server refuses to start without one.
 */
export function requireJwtSecret(env: Readonly<Record<string, string | undefined>>): string {
  const value = env[JWT_SECRET_ENV];
  if (value === undefined || value.trim() === "") {
    throw new Error(
      `${JWT_SECRET_ENV} is not set: the server does not start without a JWT signing secret. ` +
        `Set ${JWT_SECRET_ENV} to a random value of at least ${MIN_SECRET_BYTES} bytes ` +
        "(e.g. openssl rand -base64 32).",
    );
  }
  return checkLength(value, JWT_SECRET_ENV);
}

/**
 * Resolves the signing secret: `JWT_SECRET_KEY` always wins; otherwise the secret in `localFile`,
 * created with 32 random bytes (mode 0600) when it does not exist. Without `localFile`
 * (production) a missing variable throws, as `requireJwtSecret` does.
 */
export async function resolveJwtSecret(
  env: Readonly<Record<string, string | undefined>>,
  { localFile }: { localFile?: string } = {},
): Promise<ResolvedSecret> {
  const value = env[JWT_SECRET_ENV];
  if ((value !== undefined && value.trim() !== "") || localFile === undefined) {
    return { secret: requireJwtSecret(env), source: "env" };
  }
  try {
    return {
      secret: checkLength((await Deno.readTextFile(localFile)).trim(), localFile),
      source: "file",
    };
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const secret = encodeBase64Url(crypto.getRandomValues(new Uint8Array(MIN_SECRET_BYTES)));
  await Deno.mkdir(dirname(localFile), { recursive: true });
  try {
    // createNew: two processes starting at once agree on the first secret written.
    await Deno.writeTextFile(localFile, `${secret}\n`, { createNew: true, mode: 0o600 });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    return {
      secret: checkLength((await Deno.readTextFile(localFile)).trim(), localFile),
      source: "file",
    };
  }
  // The umask may have narrowed the mode further; 0600 exactly, so the owner can read it back.
  if (Deno.build.os !== "windows") await Deno.chmod(localFile, 0o600);
  return { secret, source: "created" };
}
