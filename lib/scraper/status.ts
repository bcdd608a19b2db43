/**
 * The spec's scraper status object.
 */
import { z } from "zod";
import { runStatusSchema, type ScraperRepository } from "./repository.ts";
import type { Schedule } from "./schedule.ts";

/** Summary of the latest run, as the status shows it. */
export const lastRunSchema = z.object({
  run_id: z.string(),
  started_at: z.string(),
  status: runStatusSchema.describe("running, completed, partial or failed"),
  total_papers: z.number().int(),
  candidates_created: z.number().int(),
});

/** Summary of the latest run, as the status shows it. */
export type LastRun = z.infer<typeof lastRunSchema>;

/** The scraper status object (spec "Scraper status"). */
export const scraperStatusSchema = z.object({
  scheduler_running: z.boolean(),
  next_run: z.string().nullable().describe("Next scheduled run (ISO 8601); null when off"),
  enabled_sources: z.array(z.string()),
  pending_candidates: z.number().int(),
  last_run: lastRunSchema.nullable().describe("null before the first run"),
});

/** The scraper status object (spec "Scraper status"). */
export type ScraperStatus = z.infer<typeof scraperStatusSchema>;

/** Inputs of buildScraperStatus. */
export interface StatusInputs {
  repository: ScraperRepository;
  /** The running schedule, if any. */
  schedule?: Schedule | undefined;
  enabledSources: readonly string[];
}

/** Builds the status object from the store and the schedule. */
export async function buildScraperStatus(inputs: StatusInputs): Promise<ScraperStatus> {
  const [pending, latest] = await Promise.all([
    inputs.repository.countPending(),
    inputs.repository.latestRun(),
  ]);
  const next = inputs.schedule?.nextRun();
  return {
    scheduler_running: next !== undefined,
    next_run: next?.toISOString() ?? null,
    enabled_sources: [...inputs.enabledSources],
    pending_candidates: pending,
    last_run: latest
      ? {
        run_id: latest.run_id,
        started_at: latest.started_at,
        status: latest.status,
        total_papers: latest.total_papers,
        candidates_created: latest.candidates_created,
      }
      : null,
  };
}
