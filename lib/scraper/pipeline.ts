/**
 * One scraper run: for each technology, query each enabled source with the technology's search
 * terms, extract parameters from the papers that mention the technology, and store new
 * candidates.
 *
 * A failing source (HTTP error, timeout, bad payload) or extractor is recorded in the run's
 * errors and the run goes on: the run is `partial` when something failed and something
 * succeeded, `failed` when every source query failed or storage broke, else `completed`.
 */
import { message } from "./_http.ts";
import { bestPerParameter } from "./extract.ts";
import { type Paper, paperKey, paperText, sourceKey } from "./paper.ts";
import type { ExtractedParameter, Extractor } from "./parameters.ts";
import type { RunError, RunOutcome, RunSummary, ScraperRepository } from "./repository.ts";
import type { SourceClient, SourceName } from "./source.ts";
import { mentionsTechnology, technologyTerms } from "./technologies.ts";

/** Papers asked from each source per technology when no limit is given. */
export const DEFAULT_PAPER_LIMIT = 10;

/** Inputs of a run. */
export interface ScraperRunOptions {
  /** Sources to query, in order. */
  sources: readonly SourceName[];
  technologyIds: readonly string[];
  /** Configured clients; a source without one is recorded as an error. */
  clients: Readonly<Partial<Record<SourceName, SourceClient>>>;
  repository: ScraperRepository;
  /** Tried in order; on equal confidence the earlier extractor's finding is kept. */
  extractors: readonly Extractor[];
  now?: () => Date;
  /** Papers per source and technology. */
  limit?: number;
  newId?: () => string;
}

/** A started run: its id at once, its summary when it ends. */
export interface StartedRun {
  run_id: string;
  /** Resolves with the summary; rejects only when the run record cannot be written. */
  finished: Promise<RunSummary>;
}

interface Tally {
  papers: Set<string>;
  processed: Set<string>;
  created: number;
  errors: RunError[];
  queries: number;
  failedQueries: number;
}

async function extractAll(
  paper: Paper,
  technology_id: string,
  extractors: readonly Extractor[],
  tally: Tally,
): Promise<{ extractor: string; found: ExtractedParameter }[]> {
  const all: { extractor: string; found: ExtractedParameter }[] = [];
  for (const extractor of extractors) {
    try {
      const found = await extractor.extract(paper, technology_id);
      all.push(...found.map((f) => ({ extractor: extractor.name, found: f })));
    } catch (error) {
      tally.errors.push({ source: extractor.name, technology_id, message: message(error) });
    }
  }
  const best = new Set(bestPerParameter(all.map((a) => a.found)));
  return all.filter((a) => best.has(a.found));
}

async function processPapers(
  papers: readonly Paper[],
  technology_id: string,
  run_id: string,
  options: ScraperRunOptions,
  tally: Tally,
): Promise<void> {
  const now = options.now ?? (() => new Date());
  const newId = options.newId ?? (() => crypto.randomUUID());
  for (const paper of papers) {
    tally.papers.add(paperKey(paper));
    const keys = [paperKey(paper), sourceKey(paper)].map((k) => `${technology_id}|${k}`);
    // Two sources often return the same paper; extract (and pay the model) once per run.
    if (keys.some((k) => tally.processed.has(k))) continue;
    keys.forEach((k) => tally.processed.add(k));
    // A search hit that never names the technology is off topic; its numbers are not its.
    if (!mentionsTechnology(paperText(paper), technology_id)) continue;
    for (
      const { extractor, found } of await extractAll(
        paper,
        technology_id,
        options.extractors,
        tally,
      )
    ) {
      const inserted = await options.repository.insertCandidate({
        id: newId(),
        run_id,
        technology_id,
        paper,
        extracted: found,
        extractor,
        created_at: now().toISOString(),
      });
      if (inserted) tally.created++;
    }
  }
}

async function runTechnology(
  technology_id: string,
  run_id: string,
  options: ScraperRunOptions,
  tally: Tally,
): Promise<void> {
  const { query } = technologyTerms(technology_id);
  const limit = options.limit ?? DEFAULT_PAPER_LIMIT;
  // Sources are different hosts: ask them at once, then process their answers in order.
  const answers = await Promise.allSettled(options.sources.map((source) => {
    const client = options.clients[source];
    if (!client) return Promise.reject(new Error(`${source}: no client configured`));
    return client.search(query, limit);
  }));
  for (const [i, answer] of answers.entries()) {
    const source = options.sources[i] as SourceName;
    tally.queries++;
    if (answer.status === "rejected") {
      tally.failedQueries++;
      tally.errors.push({ source, technology_id, message: message(answer.reason) });
      continue;
    }
    await processPapers(answer.value, technology_id, run_id, options, tally);
  }
}

function outcome(tally: Tally): RunOutcome {
  if (tally.queries > 0 && tally.failedQueries === tally.queries) return "failed";
  return tally.errors.length > 0 ? "partial" : "completed";
}

/** Records a new run and starts it; resolves once the run record exists. */
export async function startScraperRun(options: ScraperRunOptions): Promise<StartedRun> {
  const now = options.now ?? (() => new Date());
  const run_id = (options.newId ?? (() => crypto.randomUUID()))();
  const started_at = now().toISOString();
  await options.repository.createRun({
    run_id,
    started_at,
    sources: options.sources,
    technology_ids: options.technologyIds,
  });
  const finished = (async (): Promise<RunSummary> => {
    const tally: Tally = {
      papers: new Set(),
      processed: new Set(),
      created: 0,
      errors: [],
      queries: 0,
      failedQueries: 0,
    };
    let status: RunOutcome;
    try {
      for (const technology_id of options.technologyIds) {
        await runTechnology(technology_id, run_id, options, tally);
      }
      status = outcome(tally);
    } catch (error) {
      // Only storage can throw here (sources and extractors are caught above): stop the run.
      tally.errors.push({ source: "scraper", message: message(error) });
      status = "failed";
    }
    const summary: RunSummary = {
      run_id,
      started_at,
      finished_at: now().toISOString(),
      status,
      total_papers: tally.papers.size,
      candidates_created: tally.created,
      errors: tally.errors,
    };
    await options.repository.finishRun(summary);
    return summary;
  })();
  return { run_id, finished };
}

/** Runs the scraper to the end and returns its summary. */
export async function runScraper(options: ScraperRunOptions): Promise<RunSummary> {
  return await (await startScraperRun(options)).finished;
}
