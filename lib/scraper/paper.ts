/**
 * The normalised paper every literature source client returns, and the keys that identify it.
 */

/** One paper as returned by a literature source, normalised across sources. */
export interface Paper {
  /** Source client that found it: `openalex`, `crossref` or `arxiv`. */
  source: string;
  /** The source's own identifier (OpenAlex `W…` id, Crossref DOI, arXiv id without version). */
  source_id: string;
  /** DOI without resolver prefix, lower case (`10.1016/j.ijhydene.2023.01.001`). */
  doi?: string;
  title: string;
  abstract?: string;
  /** Landing page of the paper. */
  url: string;
  year?: number;
  authors?: string[];
}

/** A DOI without `https://doi.org/` or `doi:` prefix, lower case; undefined when blank. */
export function normaliseDoi(doi: string | null | undefined): string | undefined {
  if (!doi) return undefined;
  const bare = doi.trim().replace(/^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:\s*)/i, "");
  return bare === "" ? undefined : bare.toLowerCase();
}

/** Key of the paper across sources: its DOI when known, else `source:source_id`. */
export function paperKey(paper: Paper): string {
  return paper.doi ? `doi:${paper.doi}` : sourceKey(paper);
}

/** Key of the paper within its source: `source:source_id`. */
export function sourceKey(paper: Pick<Paper, "source" | "source_id">): string {
  return `${paper.source}:${paper.source_id}`;
}

/** Title and abstract as one text, the input of parameter extraction. */
export function paperText(paper: Pick<Paper, "title" | "abstract">): string {
  if (!paper.abstract) return paper.title;
  // A full stop ends the title's sentence, so title words never join the abstract's first one.
  return /[.!?]\s*$/.test(paper.title)
    ? `${paper.title}\n${paper.abstract}`
    : `${paper.title}.\n${paper.abstract}`;
}

/** Collapses runs of whitespace (line breaks in titles and abstracts) to single spaces. */
export function collapseSpace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
