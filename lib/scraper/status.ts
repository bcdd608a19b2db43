/**
 * The spec's scraper status object.
 */
import type { RunStatus, ScraperRepository } from "./repository.ts";
import type { Schedule } from "./schedule.ts";

/** Summary of the latest run, as the status shows it. */
export interface LastRun {
  run_id: string;
  started_at: string;
  status: RunStatus;
  total_papers: number;
  candidates_created: number;
}

/** The scraper status object (spec "Scraper status"). */
export interface ScraperStatus {
  scheduler_running: boolean;
  /** Next scheduled run (ISO 8601); null when the schedule is off. */
  next_run: string | null;
  enabled_sources: string[];
  pending_candidates: number;
  /** null before the first run. */
  last_run: LastRun | null;
}

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
