/**
 * The signed-in user as OpenTech-DB's frontend reads it (`/auth/me`, and `user` of the admin
 * sign-in): `{ id, username, email, avatar_url, auth_provider, is_contributor, is_admin }`,
 * beside the spec's profile members.
 *
 * Every signed-in user may submit (this catalogue has no separate contributor role), so
 * `is_contributor` is true for every valid token.
 */
import { z } from "zod";
import type { Profile } from "../../auth/principal.ts";

/** The frontend's user members. */
export const opentechUserShape = {
  id: z.string().describe("OpenTech-DB frontend: the token subject"),
  username: z.string().describe("OpenTech-DB frontend: the display name"),
  avatar_url: z.null().describe("OpenTech-DB frontend: not kept"),
  auth_provider: z.enum(["orcid", "admin", "session_store"]).describe(
    "OpenTech-DB frontend: how the user signed in",
  ),
  is_contributor: z.literal(true).describe("OpenTech-DB frontend: every signed-in user submits"),
};

/** The frontend's user members. */
export type OpentechUserMembers = z.infer<z.ZodObject<typeof opentechUserShape>>;

/** The frontend's members of a profile. */
export function opentechUser(profile: Profile): OpentechUserMembers {
  return {
    id: profile.subject,
    username: profile.name,
    avatar_url: null,
    auth_provider: profile.issuer === "session_store"
      ? "session_store"
      : profile.is_admin && profile.orcid === null
      ? "admin"
      : "orcid",
    is_contributor: true,
  };
}

/** A profile with the frontend's members beside the spec's. */
export function withOpentechUser(profile: Profile): Profile & OpentechUserMembers {
  return { ...profile, ...opentechUser(profile) };
}
