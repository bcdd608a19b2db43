/**
 * Identifiers as the existing modelling frontend's runner derived them (its `_safe_id(x).lower()`,
 * research notes `tempo_client.md` section 1.3), so that locations, links and technologies that
 * referred to each other there still match here.
 */

/**
 * The frontend runner's `_safe_id` as the research notes give it: `::` -> `__`, `:` -> `_`, any
 * other character outside `[A-Za-z0-9_-]` -> `_`, runs of `_` collapsed (so `::` ends as one
 * `_`), `_` trimmed from both ends. Case is kept.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(safeId("Region 1::North"), "Region_1_North");
 * ```
 */
export function safeId(text: string): string {
  return text
    .replaceAll("::", "__")
    .replaceAll(":", "_")
    .replace(/[^A-Za-z0-9_-]/g, "_")
    .replace(/_+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/**
 * The key of a location or technology: `safeId(text)` lower-cased.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(frontendKey("Region 1"), "region_1");
 * ```
 */
export function frontendKey(text: string): string {
  return safeId(text).toLowerCase();
}
