/**
 * What the routes that exist for OpenTech-DB's own frontend share: their tag and note in the
 * OpenAPI document, and the answer of a review decision.
 */
import { z } from "@hono/zod-openapi";

/** Tag of the OpenTech-DB frontend's compatibility routes. */
export const OPENTECH_TAGS = ["OpenTech-DB frontend"];

/** Opening of every compatibility route's description. */
export const OPENTECH_NOTE = "Compatibility route for OpenTech-DB's own frontend (the original " +
  "backend's wire form of the same operation; errors also carry `detail`). ";

/** The 200 of a review decision, technology or profile: `{ status, submission_id }`. */
export const DECISION_RESPONSE = {
  description: "The decision",
  content: {
    "application/json": {
      schema: z.object({
        status: z.enum(["approved", "rejected"]),
        submission_id: z.string(),
      }).openapi("OpentechDecision"),
    },
  },
};
