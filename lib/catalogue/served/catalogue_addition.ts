/**
 * Approved additions to the served catalogue: technology submissions and scraper candidates as
 * stored, and the report of those the data files now conflict with.
 */
import { z } from "zod";
import type { Instance, Technology } from "../schema/technology_schema.ts";

/** Where an approved addition comes from. */
export const ADDITION_ORIGINS = ["technology_submission", "scraper_candidate"] as const;

/** Where an approved addition comes from. */
export type AdditionOrigin = typeof ADDITION_ORIGINS[number];

/** An approved addition to the technology catalogue, as stored. */
export interface CatalogueAddition {
  /** Approval order. */
  seq: number;
  origin: AdditionOrigin;
  /** The submission or candidate id. */
  origin_id: string;
  technology_id: string;
  /** The whole record (technology submissions); null when only instances are added. */
  technology: Technology | null;
  /** The instances to add to the technology. */
  instances: Instance[];
  added_at: string;
  /** Subject of the admin who approved it. */
  added_by: string;
}

/**
 * An addition (submitted profile, admin edit or delete) that was not applied, and why. An admin
 * edit's `origin_id` is its sequence number.
 */
export const skippedAdditionSchema = z.object({
  origin: z.enum([...ADDITION_ORIGINS, "timeseries_submission", "admin_edit"]),
  origin_id: z.string(),
  reason: z.string(),
});

/** An addition (or submitted profile) that was not applied. */
export type SkippedAddition = z.infer<typeof skippedAdditionSchema>;

/** How many approved additions a snapshot applies. */
export const additionCountsSchema = z.object({
  applied: z.number().int().describe("Approved technology additions applied"),
  instances_added: z.number().int(),
  profiles_added: z.number().int().describe("Approved submitted profiles served"),
});

/** How many approved additions a snapshot applies. */
export type AdditionCounts = z.infer<typeof additionCountsSchema>;
