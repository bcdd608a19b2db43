/**
 * What the scraper keeps between runs: run records and candidates, behind one interface so the
 * pipeline and the HTTP layer do not depend on the store.
 */
import { z } from "zod";
import type { Paper } from "./paper.ts";
import { CATALOGUE_FIELDS, type ExtractedParameter, PARAMETER_NAMES } from "./parameters.ts";

/** Review states of a candidate (the spec's status filter values). */
export const CANDIDATE_STATUSES = ["pending", "approved", "rejected"] as const;

/** A candidate's review state. */
export const candidateStatusSchema = z.enum(CANDIDATE_STATUSES);

/** A candidate's review state. */
export type CandidateStatus = z.infer<typeof candidateStatusSchema>;

/** Outcomes of a finished run. */
export const RUN_OUTCOMES = ["completed", "partial", "failed"] as const;

/** Outcome of a finished run. */
export const runOutcomeSchema = z.enum(RUN_OUTCOMES);

/** Outcome of a finished run. */
export type RunOutcome = z.infer<typeof runOutcomeSchema>;

/** States of a run record: `running` until it finishes, then its outcome. */
export const RUN_STATUSES = ["running", ...RUN_OUTCOMES] as const;

/** State of a run record; `running` until it finishes. */
export const runStatusSchema = z.enum(RUN_STATUSES);

/** State of a run record; `running` until it finishes. */
export type RunStatus = z.infer<typeof runStatusSchema>;

/** A source (or extractor) that failed during a run. */
export const runErrorSchema = z.object({
  /** Source name (`openalex`…) or extractor name (`llm`). */
  source: z.string(),
  message: z.string(),
  technology_id: z.string().optional(),
});

/** A source (or extractor) that failed during a run. */
export type RunError = z.infer<typeof runErrorSchema>;

/** What a finished run reports. */
export const runSummarySchema = z.object({
  run_id: z.string(),
  started_at: z.string(),
  finished_at: z.string(),
  status: runOutcomeSchema,
  /** Distinct papers examined. */
  total_papers: z.number().int(),
  candidates_created: z.number().int(),
  errors: z.array(runErrorSchema),
});

/** What a finished run reports. */
export type RunSummary = z.infer<typeof runSummarySchema>;

/** A stored run, finished or not. */
export interface RunRecord {
  run_id: string;
  started_at: string;
  finished_at: string | null;
  status: RunStatus;
  sources: string[];
  technology_ids: string[];
  total_papers: number;
  candidates_created: number;
  errors: RunError[];
}

/** A run as it starts. */
export interface NewRun {
  run_id: string;
  started_at: string;
  sources: readonly string[];
  technology_ids: readonly string[];
}

/** A candidate to store: one parameter of one technology read from one paper. */
export interface NewCandidate {
  id: string;
  run_id: string;
  technology_id: string;
  paper: Paper;
  extracted: ExtractedParameter;
  /** Name of the extractor that found it (`pattern`, `llm`). */
  extractor: string;
  created_at: string;
}

/** A stored candidate, as stored and as served. */
export const candidateSchema = z.object({
  id: z.string(),
  status: candidateStatusSchema,
  run_id: z.string(),
  technology_id: z.string(),
  parameter: z.enum(PARAMETER_NAMES).describe(
    "capex, opex_fixed, opex_var, efficiency, lifetime, co2_factor",
  ),
  value: z.number().describe("The value as stated in the paper, in `unit`"),
  unit: z.string(),
  currency: z.string().nullable().describe("ISO 4217 code of a monetary value; null otherwise"),
  /** null when the value has no catalogue unit. */
  catalogue_field: z.enum(CATALOGUE_FIELDS).nullable().describe(
    "The instance field the value fills",
  ),
  /** null when the value could not be converted. */
  catalogue_value: z.number().nullable().describe("The value in the catalogue field's unit"),
  matched_text: z.string(),
  context: z.string().nullable().describe("The sentence around the match, for the reviewer"),
  confidence: z.number(),
  extractor: z.string().describe("Name of the extractor that found it (`pattern`, `llm`)"),
  paper_key: z.string().describe(
    "`doi:…` or `source:source_id`: with technology and parameter, the duplicate check",
  ),
  source: z.string().describe(
    "Source client that found the paper: `openalex`, `crossref` or `arxiv`",
  ),
  source_id: z.string().describe("The source's own identifier of the paper"),
  doi: z.string().nullable(),
  title: z.string(),
  abstract: z.string().nullable(),
  url: z.string(),
  year: z.number().int().nullable(),
  authors: z.array(z.string()),
  created_at: z.string(),
  reviewed_at: z.string().nullable(),
  instance_id: z.string().nullable().describe("The catalogue instance an approval created"),
});

/** A stored candidate. */
export type Candidate = z.infer<typeof candidateSchema>;

/** Filter of listCandidates. */
export interface CandidateFilter {
  status?: CandidateStatus;
  technology_id?: string;
  limit?: number;
  offset?: number;
}

/** Review details stored with a status change. */
export interface StatusChangeDetails {
  /** Time of the review (ISO 8601). */
  at: string;
  /** Instance created in the catalogue, for approvals. */
  instance_id?: string;
}

/** Result of a status change: the updated candidate, or why there is none. */
export type StatusChange =
  | { ok: true; candidate: Candidate }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "conflict"; candidate: Candidate };

/** Persistence the scraper needs. */
export interface ScraperRepository {
  /** Records a run as `running`. */
  createRun(run: NewRun): Promise<void>;
  /** Stores the outcome of a run created by createRun. */
  finishRun(summary: RunSummary): Promise<void>;
  /** The run started last, if any. */
  latestRun(): Promise<RunRecord | undefined>;
  getRun(run_id: string): Promise<RunRecord | undefined>;
  /**
   * Marks runs still `running` as failed (after a restart nothing is running); returns how many.
   */
  abandonRunningRuns(at: string): Promise<number>;
  /**
   * Stores a pending candidate; false (nothing stored) when the same paper, by DOI or by
   * source id, already has a candidate for this technology and parameter.
   */
  insertCandidate(candidate: NewCandidate): Promise<boolean>;
  /**
   * Candidates matching the filter, newest first; with `limit`/`offset` only that page is read
   * (its ids first, then the rows of those ids).
   */
  listCandidates(filter?: CandidateFilter): Promise<Candidate[]>;
  /** How many candidates match the filter (`limit` and `offset` are ignored). */
  countCandidates(filter?: CandidateFilter): Promise<number>;
  getCandidate(id: string): Promise<Candidate | undefined>;
  /** Moves a pending candidate to approved or rejected; a conflict from any other state. */
  setCandidateStatus(
    id: string,
    status: "approved" | "rejected",
    details: StatusChangeDetails,
  ): Promise<StatusChange>;
  /** Moves an approved candidate back to pending (undoing an approval whose merge failed). */
  reopenCandidate(id: string): Promise<boolean>;
  countPending(): Promise<number>;
}
