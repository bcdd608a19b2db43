/**
 * OpenAlex works search (`GET {base}/works?search=…&per-page=N`), normalised to Paper.
 *
 * OpenAlex ships abstracts only as an inverted index (word -> positions) for legal reasons;
 * the text is rebuilt by placing each word at its positions.
 */
import { z } from "zod";
import { endpoint, getText, parseItems, parseJson } from "./_http.ts";
import { collapseSpace, normaliseDoi, type Paper } from "./paper.ts";
import { DEFAULT_BASE_URLS, type SearchOptions } from "./source.ts";

const WorkSchema = z.object({
  id: z.string(),
  doi: z.string().nullish(),
  title: z.string().nullish(),
  display_name: z.string().nullish(),
  publication_year: z.number().int().nullish(),
  abstract_inverted_index: z.record(z.string(), z.array(z.number().int().nonnegative()))
    .nullish(),
  primary_location: z.object({ landing_page_url: z.string().nullish() }).nullish(),
  authorships: z.array(z.object({ author: z.object({ display_name: z.string().nullish() }) }))
    .nullish(),
});

const ListSchema = z.object({
  meta: z.object({ count: z.number() }),
  results: z.array(z.unknown()),
});

/** Rebuilds the abstract text from OpenAlex's `abstract_inverted_index`. */
export function abstractFromInvertedIndex(
  index: Readonly<Record<string, readonly number[]>>,
): string {
  const words: string[] = [];
  for (const [word, positions] of Object.entries(index)) {
    for (const position of positions) words[position] = word;
  }
  // Positions can have gaps; `filter` drops the holes of the sparse array.
  return words.filter((word) => word !== undefined).join(" ");
}

function toPaper(item: unknown): Paper | undefined {
  const parsed = WorkSchema.safeParse(item);
  if (!parsed.success) return undefined;
  const work = parsed.data;
  const title = collapseSpace(work.title ?? work.display_name ?? "");
  if (title === "") return undefined;
  const doi = normaliseDoi(work.doi);
  const paper: Paper = {
    source: "openalex",
    source_id: work.id.replace(/^https?:\/\/openalex\.org\//, ""),
    title,
    url: work.primary_location?.landing_page_url ?? (doi ? `https://doi.org/${doi}` : work.id),
  };
  if (doi) paper.doi = doi;
  if (work.abstract_inverted_index) {
    const abstract = abstractFromInvertedIndex(work.abstract_inverted_index);
    if (abstract !== "") paper.abstract = abstract;
  }
  if (work.publication_year) paper.year = work.publication_year;
  const authors = (work.authorships ?? []).map((a) => a.author.display_name ?? "")
    .filter((name) => name !== "");
  if (authors.length > 0) paper.authors = authors;
  return paper;
}

/** Searches OpenAlex works for `query`; at most `options.limit` papers. */
export async function searchOpenAlex(query: string, options: SearchOptions): Promise<Paper[]> {
  const url = endpoint(options.baseUrl ?? DEFAULT_BASE_URLS.openalex, "/works");
  url.searchParams.set("search", query);
  url.searchParams.set("per-page", String(options.limit));
  if (options.mailto) url.searchParams.set("mailto", options.mailto);
  if (options.apiKey) url.searchParams.set("api_key", options.apiKey);
  const body = await getText(url, {
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
    accept: "application/json",
    label: "openalex",
  });
  const list = ListSchema.safeParse(parseJson(body, "openalex"));
  if (!list.success) {
    throw new TypeError(`openalex: answer is not a works list: ${z.prettifyError(list.error)}`);
  }
  return parseItems(list.data.results, toPaper, "openalex").slice(0, options.limit);
}
