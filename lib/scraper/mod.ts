/**
 * The admin-only literature scraper: source clients (OpenAlex, Crossref, arXiv), parameter
 * extraction, persistence of runs and candidates, the run pipeline, the optional schedule,
 * the status object and candidate review. `createScraperService` wires them for the HTTP layer.
 */
export * from "./approval.ts";
export * from "./arxiv.ts";
export * from "./config.ts";
export * from "./crossref.ts";
export * from "./duckdb_repository.ts";
export * from "./extract.ts";
export * from "./extractors.ts";
export * from "./llm_extractor.ts";
export * from "./openalex.ts";
export * from "./paper.ts";
export * from "./parameters.ts";
export * from "./pipeline.ts";
export * from "./repository.ts";
export * from "./schedule.ts";
export * from "./service.ts";
export * from "./source.ts";
export * from "./source_clients.ts";
export * from "./status.ts";
export * from "./technologies.ts";
