/**
 * What the scraper keeps between runs: run records and candidates, behind one interface so the
 * pipeline and the HTTP layer do not depend on the store.
 */
import type { Paper } from "./paper.ts";
import type { CatalogueField, ExtractedParameter, ParameterName } from "./parameters.ts";

/** Review states of a candidate (the spec's status filter values). */
export const CANDIDATE_STATUSES = ["pending", "approved", "rejected"] as const;

/** A candidate's review state. */
export type CandidateStatus = typeof CANDIDATE_STATUSES[number];

/** Outcome of a finished run. */
export type RunOutcome = "completed" | "partial" | "failed";

/** State of a run record; `running` until it finishes. */
export type RunStatus = "running" | RunOutcome;

/** A source (or extractor) that failed during a run. */
export interface RunError {
  /** Source name (`openalex`…) or extractor name (`llm`). */
  source: string;
  message: string;
  technology_id?: string;
}

/** What a finished run reports. */
export interface RunSummary {
  run_id: string;
  started_at: string;
  finished_at: string;
  status: RunOutcome;
  /** Distinct papers examined. */
  total_papers: number;
  candidates_created: number;
  errors: RunError[];
}

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

/** A stored candidate. */
export interface Candidate {
  id: string;
  status: CandidateStatus;
  run_id: string;
  technology_id: string;
  parameter: ParameterName;
  value: number;
  unit: string;
  currency: string | null;
  /** The catalogue instance field the value fills; null when it has no catalogue unit. */
  catalogue_field: CatalogueField | null;
  /** The value in the catalogue field's unit; null when it could not be converted. */
  catalogue_value: number | null;
  matched_text: string;
  context: string | null;
  confidence: number;
  extractor: string;
  /** `doi:…` or `source:source_id`: with technology and parameter, the duplicate check. */
  paper_key: string;
  source: string;
  source_id: string;
  doi: string | null;
  title: string;
  abstract: string | null;
  url: string;
  year: number | null;
  authors: string[];
  created_at: string;
  reviewed_at: string | null;
  /** The catalogue instance an approval created. */
  instance_id: string | null;
}

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
  /** Candidates matching the filter, newest first. */
  listCandidates(filter?: CandidateFilter): Promise<Candidate[]>;
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
