/**
 * The built-in admin: one e-mail address and a bcrypt hash of its password, from the
 * configuration (`ADMIN_EMAIL`, `ADMIN_PASSWORD_HASH`).
 */
import bcrypt from "bcryptjs";
import { constantTimeEqual } from "./constant_time.ts";

/** The built-in admin's credentials. */
export interface AdminConfig {
  email: string;
  /** bcrypt hash (`$2a$`, `$2b$` or `$2y$`, 60 characters) of the admin password. */
  passwordHash: string;
}

/**
 * Compares a password with a bcrypt hash. The service passes a worker pool's
 * (`password_pool.ts`), which keeps bcrypt off the main thread; the default runs bcryptjs on the
 * calling thread (scripts, tests).
 */
export type PasswordCompare = (password: string, hash: string) => Promise<boolean>;

/** Outcome of a login; a failure does not say whether the e-mail or the password was wrong. */
export type AdminLoginResult = { ok: true; email: string } | { ok: false };

const BCRYPT_HASH = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

// Spent when no admin is configured, so that the answer takes as long as a real check.
const UNUSABLE_HASH = "$2b$10$QOdBpdoc9bC.LXC8kf35OOdaKVKdLK.wiEbQF0PPNlWBFvd.JeQk6";

/** An e-mail address as compared: trimmed, lower case. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Lowest bcrypt cost bcrypt itself accepts. */
export const MIN_BCRYPT_COST = 4;
/**
 * Highest accepted bcrypt cost: about a second per check with bcryptjs here; each step doubles
 * it, and every check holds the one password worker.
 */
export const MAX_BCRYPT_COST = 14;

/**
 * Reads `ADMIN_EMAIL` and `ADMIN_PASSWORD_HASH`: both unset means no built-in admin (undefined);
 * one without the other, or a hash that is not bcrypt, throws TypeError naming the variable; a
 * cost outside MIN_BCRYPT_COST to MAX_BCRYPT_COST throws RangeError.
 */
export function readAdminConfig(
  env: Readonly<Record<string, string | undefined>>,
): AdminConfig | undefined {
  const email = env["ADMIN_EMAIL"]?.trim() ?? "";
  const hash = env["ADMIN_PASSWORD_HASH"]?.trim() ?? "";
  if (email === "" && hash === "") return undefined;
  if (email === "") throw new TypeError("ADMIN_EMAIL: must be set when ADMIN_PASSWORD_HASH is");
  if (hash === "") throw new TypeError("ADMIN_PASSWORD_HASH: must be set when ADMIN_EMAIL is");
  if (!BCRYPT_HASH.test(hash)) {
    throw new TypeError("ADMIN_PASSWORD_HASH: not a bcrypt hash ($2b$<cost>$ + 53 characters)");
  }
  const cost = Number(hash.slice(4, 6));
  if (cost < MIN_BCRYPT_COST || cost > MAX_BCRYPT_COST) {
    throw new RangeError(
      `ADMIN_PASSWORD_HASH: bcrypt cost ${cost} is outside ${MIN_BCRYPT_COST} to ` +
        `${MAX_BCRYPT_COST}; hash the password again, e.g. with cost 12`,
    );
  }
  return { email, passwordHash: hash };
}

/**
 * Checks an e-mail/password pair against the built-in admin. The e-mail is compared in constant
 * time (case-insensitively) and a bcrypt comparison runs whatever the e-mail, so the response time
 * does not reveal whether an address is the admin's. Rejects when `compare` does (e.g. a full
 * worker queue).
 */
export async function checkAdminLogin(
  config: AdminConfig | undefined,
  email: string,
  password: string,
  compare: PasswordCompare = bcrypt.compare,
): Promise<AdminLoginResult> {
  const emailMatches = config !== undefined &&
    await constantTimeEqual(normaliseEmail(email), normaliseEmail(config.email));
  const passwordMatches = await compare(password, config?.passwordHash ?? UNUSABLE_HASH);
  return config !== undefined && emailMatches && passwordMatches
    ? { ok: true, email: config.email }
    : { ok: false };
}
