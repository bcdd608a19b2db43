/**
 * The extractors a run uses: the deterministic patterns always, the language model only when
 * an API key is configured.
 */
import { createPatternExtractor } from "./extract.ts";
import { createLlmExtractor, type LlmConfig } from "./llm_extractor.ts";
import type { Extractor, FxTable } from "./parameters.ts";

/** Options of createExtractors. */
export interface ExtractorOptions {
  fx?: FxTable;
  /** Language-model settings; ignored unless `apiKey` is non-blank. */
  llm?: Partial<LlmConfig> | undefined;
}

/** The pattern extractor, followed by the language-model extractor when a key is set. */
export function createExtractors(options: ExtractorOptions = {}): Extractor[] {
  const fx = options.fx ?? {};
  const extractors = [createPatternExtractor({ fx })];
  const apiKey = options.llm?.apiKey?.trim();
  if (apiKey) extractors.push(createLlmExtractor({ ...options.llm, apiKey, fx }));
  return extractors;
}
