/**
 * The scraper as the HTTP layer uses it: status, runs (background or waited for, one at a
 * time), candidate queries and reviews, and the optional schedule, wired from one
 * configuration.
 */
import { z } from "zod";
import {
  type ApprovalResult,
  approveCandidate,
  type MergeInstance,
  rejectCandidate,
} from "./approval.ts";
import type { ScraperConfig } from "./config.ts";
import { createExtractors } from "./extractors.ts";
import type { Extractor } from "./parameters.ts";
import { type StartedRun, startScraperRun } from "./pipeline.ts";
import type {
  Candidate,
  CandidateFilter,
  RunSummary,
  ScraperRepository,
  StatusChange,
} from "./repository.ts";
import { type Schedule, startSchedule } from "./schedule.ts";
import { SOURCE_NAMES, type SourceClient, type SourceName } from "./source.ts";
import { createSourceClients, type SourceClientOptions } from "./source_clients.ts";
import { buildScraperStatus, type ScraperStatus } from "./status.ts";
import { TECHNOLOGY_TERMS } from "./technologies.ts";

/** Dependencies of the service; clients and extractors default to the configured ones. */
export interface ScraperServiceDeps {
  repository: ScraperRepository;
  config: ScraperConfig;
  /** The `fetch` for sources and the language model. */
  fetch?: typeof fetch;
  now?: () => Date;
  clients?: Partial<Record<SourceName, SourceClient>>;
  extractors?: Extractor[];
  /** Called when a background run cannot write its record (its summary is then lost). */
  onRunError?: (error: unknown) => void;
}

/** Body of POST /scraper/run. */
export const runRequestSchema = z.strictObject({
  sources: z.array(z.enum(SOURCE_NAMES)).min(1).optional().describe(
    "Sources to query (enabled ones only); all enabled when omitted",
  ),
  technology_ids: z.array(z.string().min(1)).min(1).optional().describe(
    "Catalogue technologies to search for; the configured (or all known) ones when omitted",
  ),
  wait: z.boolean().optional().describe("Wait for the run and answer its summary"),
});

/** Body of POST /scraper/run. */
export type RunRequest = z.infer<typeof runRequestSchema>;

/** What a run request did. */
export type RunRequestResult =
  /** Running in the background (HTTP 202 `{run_id}`). */
  | { kind: "started"; run_id: string }
  /** Run to the end because `wait` was set (HTTP 200 with the summary). */
  | { kind: "finished"; summary: RunSummary }
  /** Another run is in progress; nothing was started (HTTP 409). */
  | { kind: "busy"; run_id: string };

/** The scraper's operations. */
export interface ScraperService {
  readonly config: ScraperConfig;
  /** The spec's status object. */
  status(): Promise<ScraperStatus>;
  /** Starts a run; throws RangeError for sources that are not enabled or empty lists. */
  run(request?: RunRequest): Promise<RunRequestResult>;
  /** Candidates matching the filter, newest first; one page with `limit` and `offset`. */
  listCandidates(filter?: CandidateFilter): Promise<Candidate[]>;
  /** How many candidates match the filter. */
  countCandidates(filter?: CandidateFilter): Promise<number>;
  getCandidate(id: string): Promise<Candidate | undefined>;
  /** Approves a pending candidate; `merge` adds the new instance to the catalogue. */
  approve(id: string, merge: MergeInstance): Promise<ApprovalResult>;
  /** Rejects (archives) a pending candidate. */
  reject(id: string): Promise<StatusChange>;
  /** Stops the schedule and waits for a run in progress. */
  close(): Promise<void>;
}

function checkRequest(request: RunRequest, config: ScraperConfig): void {
  const disabled = (request.sources ?? []).filter((s) => !config.sources.includes(s));
  if (disabled.length > 0) {
    throw new RangeError(
      `sources [${disabled.join(", ")}] are not enabled; enabled: [${config.sources.join(", ")}]`,
    );
  }
  if (request.sources?.length === 0) throw new RangeError("sources must not be empty");
  if (request.technology_ids?.length === 0) {
    throw new RangeError("technology_ids must not be empty");
  }
}

/**
 * Builds the service; marks runs left `running` by a previous process as failed and starts the
 * schedule when `config.schedule_minutes` is set.
 */
export async function createScraperService(deps: ScraperServiceDeps): Promise<ScraperService> {
  const { repository, config } = deps;
  const now = deps.now ?? (() => new Date());
  const clientOptions: SourceClientOptions = {
    baseUrls: config.base_urls,
    apiKeys: config.api_keys,
    requestIntervalMs: config.request_interval_ms,
    timeoutMs: config.timeout_ms,
  };
  if (deps.fetch) clientOptions.fetch = deps.fetch;
  if (config.mailto) clientOptions.mailto = config.mailto;
  const clients = deps.clients ?? createSourceClients(clientOptions);
  const llm = config.llm.api_key
    ? {
      apiKey: config.llm.api_key,
      baseUrl: config.llm.base_url,
      model: config.llm.model,
      timeoutMs: config.timeout_ms,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    }
    : undefined;
  const extractors = deps.extractors ?? createExtractors({ fx: config.fx, llm });
  const defaultTechnologies = config.technology_ids ?? Object.keys(TECHNOLOGY_TERMS);

  await repository.abandonRunningRuns(now().toISOString());

  let active: Promise<StartedRun> | undefined;

  const run = async (request: RunRequest = {}): Promise<RunRequestResult> => {
    checkRequest(request, config);
    if (active) return { kind: "busy", run_id: (await active).run_id };
    // Reserve the slot synchronously so a second request made meanwhile sees it as busy.
    const starting = startScraperRun({
      sources: request.sources ?? config.sources,
      technologyIds: request.technology_ids ?? defaultTechnologies,
      clients,
      repository,
      extractors,
      now,
      limit: config.papers_per_query,
    });
    active = starting;
    let started: StartedRun;
    try {
      started = await starting;
    } catch (error) {
      active = undefined;
      throw error;
    }
    const finished = started.finished.finally(() => active = undefined);
    if (request.wait) return { kind: "finished", summary: await finished };
    finished.catch((error) => deps.onRunError?.(error));
    return { kind: "started", run_id: started.run_id };
  };

  const schedule: Schedule | undefined = config.schedule_minutes === null
    ? undefined
    : startSchedule({
      intervalMs: config.schedule_minutes * 60_000,
      // A busy answer means a manual run is going: this tick is skipped.
      run: () => run({ wait: true }),
      onError: deps.onRunError,
    });

  return {
    config,
    status: () => buildScraperStatus({ repository, schedule, enabledSources: config.sources }),
    run,
    listCandidates: (filter) => repository.listCandidates(filter),
    countCandidates: (filter) => repository.countCandidates(filter),
    getCandidate: (id) => repository.getCandidate(id),
    approve: (id, merge) => approveCandidate({ repository, id, merge, now }),
    reject: (id) => rejectCandidate(repository, id, now),
    async close() {
      await schedule?.stop();
      const current = active;
      if (current) await (await current).finished.catch(() => undefined);
    },
  };
}
