/**
 * Where an imported region came from, in the form a client may see: a download URL without
 * user-info, query or fragment (a mirror's credentials stay on the server), or a local file's
 * base name without its directory (the server's file system is not shown).
 */

/** The public form of a region's recorded source. */
export interface RegionSource {
  /** The http(s) URL the extract was downloaded from; null for a local file. */
  source_url: string | null;
  /** The base name of the local file it was imported from; null for a download. */
  source_file: string | null;
}

/**
 * The public form of `source` (as `osm_regions.source_url` records it: a URL or a file path).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(regionSource("/srv/data/li.osm.pbf"), {
 *   source_url: null,
 *   source_file: "li.osm.pbf",
 * });
 * ```
 */
export function regionSource(source: string): RegionSource {
  let url: URL | undefined;
  try {
    url = new URL(source);
  } catch {
    url = undefined;
  }
  if (url && (url.protocol === "http:" || url.protocol === "https:")) {
    return { source_url: `${url.origin}${url.pathname}`, source_file: null };
  }
  // A path (or file: URL): only its last component, whichever separator it uses.
  const path = url?.protocol === "file:" ? decodeURIComponent(url.pathname) : source;
  const name = path.split(/[\\/]/).filter((p) => p !== "").at(-1) ?? "";
  return { source_url: null, source_file: name === "" ? null : name };
}
