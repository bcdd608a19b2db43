/**
 * Crossref works search (`GET {base}/works?query=…&rows=N`), normalised to Paper.
 *
 * Crossref abstracts are JATS XML fragments (`<jats:p>…</jats:p>`); tags are stripped and
 * entities decoded. Titles are arrays; the first entry is the title.
 */
import { z } from "zod";
import { endpoint, getText, parseItems, parseJson } from "./_http.ts";
import { collapseSpace, normaliseDoi, type Paper } from "./paper.ts";
import { DEFAULT_BASE_URLS, type SearchOptions } from "./source.ts";

const DateSchema = z.object({
  "date-parts": z.array(z.array(z.number().int().nullable())),
});

const ItemSchema = z.object({
  DOI: z.string(),
  title: z.array(z.string()).nullish(),
  abstract: z.string().nullish(),
  URL: z.string().nullish(),
  issued: DateSchema.nullish(),
  author: z.array(z.object({
    given: z.string().nullish(),
    family: z.string().nullish(),
    name: z.string().nullish(),
  })).nullish(),
});

const ListSchema = z.object({
  status: z.literal("ok"),
  "message-type": z.literal("work-list"),
  message: z.object({ items: z.array(z.unknown()) }),
});

/** Fields requested with `select`, so Crossref leaves out references and licences. */
const SELECT = "DOI,title,abstract,URL,issued,author";

const ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

/** Decodes named (`&amp;`) and numeric (`&#8364;`, `&#x20AC;`) XML entities. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X")) {
      return String.fromCodePoint(parseInt(name.slice(2), 16));
    }
    if (name.startsWith("#")) return String.fromCodePoint(parseInt(name.slice(1), 10));
    // Own members only: `&constructor;` is not an entity, however Object.prototype is named.
    const key = name.toLowerCase();
    return Object.hasOwn(ENTITIES, key) ? ENTITIES[key] as string : whole;
  });
}

/** Plain text of a JATS abstract: tags removed, a leading "Abstract" heading dropped. */
export function jatsToText(jats: string): string {
  const text = jats
    .replace(/<jats:title>[^<]*<\/jats:title>/gi, " ")
    .replace(/<[^>]+>/g, " ");
  return collapseSpace(decodeEntities(text)).replace(/^abstract[:.]?\s+/i, "");
}

function toPaper(item: unknown): Paper | undefined {
  const parsed = ItemSchema.safeParse(item);
  if (!parsed.success) return undefined;
  const work = parsed.data;
  const title = collapseSpace(decodeEntities((work.title?.[0] ?? "").replace(/<[^>]+>/g, "")));
  const doi = normaliseDoi(work.DOI);
  if (title === "" || !doi) return undefined;
  const paper: Paper = {
    source: "crossref",
    source_id: doi,
    doi,
    title,
    url: work.URL ?? `https://doi.org/${doi}`,
  };
  if (work.abstract) {
    const abstract = jatsToText(work.abstract);
    if (abstract !== "") paper.abstract = abstract;
  }
  const year = work.issued?.["date-parts"][0]?.[0];
  if (typeof year === "number") paper.year = year;
  const authors = (work.author ?? [])
    .map((a) => a.name ?? [a.given, a.family].filter(Boolean).join(" "))
    .filter((name) => name !== "");
  if (authors.length > 0) paper.authors = authors;
  return paper;
}

/** Searches Crossref works for `query`; at most `options.limit` papers. */
export async function searchCrossref(query: string, options: SearchOptions): Promise<Paper[]> {
  const url = endpoint(options.baseUrl ?? DEFAULT_BASE_URLS.crossref, "/works");
  url.searchParams.set("query", query);
  url.searchParams.set("rows", String(options.limit));
  url.searchParams.set("select", SELECT);
  if (options.mailto) url.searchParams.set("mailto", options.mailto);
  const body = await getText(url, {
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
    accept: "application/json",
    headers: options.apiKey ? { "Crossref-Plus-API-Token": `Bearer ${options.apiKey}` } : {},
    label: "crossref",
  });
  const list = ListSchema.safeParse(parseJson(body, "crossref"));
  if (!list.success) {
    throw new TypeError(`crossref: answer is not a work list: ${z.prettifyError(list.error)}`);
  }
  return parseItems(list.data.message.items, toPaper, "crossref").slice(0, options.limit);
}
