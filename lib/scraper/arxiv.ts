/**
 * arXiv search (`GET {base}/api/query?search_query=all:…&max_results=N`), read from its Atom
 * feed and normalised to Paper.
 *
 * arXiv answers query errors with HTTP 200 and a single entry titled "Error" whose id points
 * at `/api/errors`; that is reported as an error, not as a paper.
 */
import { DOMParser } from "linkedom";
import { endpoint, getText } from "./_http.ts";
import { collapseSpace, normaliseDoi, type Paper } from "./paper.ts";
import { DEFAULT_BASE_URLS, type SearchOptions } from "./source.ts";

/** The minimal element interface used here (linkedom's XML nodes). */
interface XmlElement {
  getAttribute(name: string): string | null;
  getElementsByTagName(name: string): ArrayLike<XmlElement>;
  textContent: string | null;
}

/** arXiv's query syntax for free text: every word must occur in any field. */
export function arxivSearchQuery(query: string): string {
  const words = query.split(/\s+/).map((w) => w.replace(/[^\p{L}\p{N}-]/gu, "")).filter(Boolean);
  return words.map((w) => `all:${w}`).join(" AND ");
}

function text(parent: XmlElement, tag: string): string | undefined {
  const value = parent.getElementsByTagName(tag)[0]?.textContent;
  if (value === undefined || value === null) return undefined;
  const collapsed = collapseSpace(value);
  return collapsed === "" ? undefined : collapsed;
}

function toPaper(entry: XmlElement): Paper | undefined {
  const id = text(entry, "id");
  const title = text(entry, "title");
  if (!id || !title) return undefined;
  const match = /\/abs\/(.+?)(?:v\d+)?$/.exec(id);
  if (!match?.[1]) return undefined;
  const links = Array.from(entry.getElementsByTagName("link"));
  const alternate = links.find((link) => link.getAttribute("rel") === "alternate");
  const paper: Paper = {
    source: "arxiv",
    source_id: match[1],
    title,
    url: alternate?.getAttribute("href") ?? id,
  };
  const doi = normaliseDoi(text(entry, "arxiv:doi"));
  if (doi) paper.doi = doi;
  const abstract = text(entry, "summary");
  if (abstract) paper.abstract = abstract;
  const year = Number(text(entry, "published")?.slice(0, 4));
  if (Number.isInteger(year) && year > 0) paper.year = year;
  const authors = Array.from(entry.getElementsByTagName("author"))
    .map((author) => text(author, "name") ?? "")
    .filter((name) => name !== "");
  if (authors.length > 0) paper.authors = authors;
  return paper;
}

/** Reads the papers of an arXiv Atom feed; throws on a non-feed body or an error entry. */
export function parseArxivFeed(xml: string): Paper[] {
  const document = new DOMParser().parseFromString(xml, "text/xml");
  const feed = document.getElementsByTagName("feed")[0] as XmlElement | undefined;
  if (!feed) throw new SyntaxError(`arxiv: answer is not an Atom feed: ${xml.slice(0, 120)}`);
  const entries = Array.from(feed.getElementsByTagName("entry"));
  const error = entries.find((entry) => text(entry, "id")?.includes("/api/errors"));
  if (error) throw new Error(`arxiv: query rejected: ${text(error, "summary") ?? "no detail"}`);
  return entries.map(toPaper).filter((paper): paper is Paper => paper !== undefined);
}

/** Searches arXiv for `query` (all words, any field); at most `options.limit` papers. */
export async function searchArxiv(query: string, options: SearchOptions): Promise<Paper[]> {
  const url = endpoint(options.baseUrl ?? DEFAULT_BASE_URLS.arxiv, "/api/query");
  url.searchParams.set("search_query", arxivSearchQuery(query));
  url.searchParams.set("start", "0");
  url.searchParams.set("max_results", String(options.limit));
  const body = await getText(url, {
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
    accept: "application/atom+xml",
    label: "arxiv",
  });
  return parseArxivFeed(body).slice(0, options.limit);
}
