/**
 * Deterministic text of the catalogue files: members in schema order, numbers as JavaScript
 * prints them (the shortest text that reads back to the same number, so no float noise), and a
 * profile's values 24 to a line (one day per line at 1h), so a diff shows which day changed.
 */
import {
  type CatalogueMetadata,
  catalogueMetadataSchema,
  type CatalogueProfile,
  type ProfileIndex,
} from "./profile_schema.ts";

/** Metadata member names in the order files carry them. */
export const METADATA_KEYS = Object.keys(catalogueMetadataSchema.shape) as readonly (
  keyof CatalogueMetadata
)[];

const VALUES_PER_LINE = 24;

/** The metadata of a catalogue profile, members in schema order, without `values`. */
export function metadataOf(profile: CatalogueMetadata): CatalogueMetadata {
  return Object.fromEntries(METADATA_KEYS.map((k) => [k, profile[k]])) as CatalogueMetadata;
}

/** The text of `catalogues/profiles/<profile_id>.json`. */
export function formatProfileFile(profile: CatalogueProfile): string {
  const head = JSON.stringify(metadataOf(profile), null, 2);
  const lines: string[] = [];
  for (let i = 0; i < profile.values.length; i += VALUES_PER_LINE) {
    const chunk = profile.values.slice(i, i + VALUES_PER_LINE);
    lines.push("    " + chunk.map((v) => JSON.stringify(v)).join(", "));
  }
  return `${head.slice(0, -2)},\n  "values": [\n${lines.join(",\n")}\n  ]\n}\n`;
}

/** The text of `catalogues/profiles/index.json`. */
export function formatIndexFile(index: ProfileIndex): string {
  const ordered = {
    profiles: index.profiles.map(metadataOf),
    not_published: index.not_published.map((u) => ({ profile_id: u.profile_id, reason: u.reason })),
  };
  return JSON.stringify(ordered, null, 2) + "\n";
}
