/** The filters of the technology and profile lists, applied to one snapshot. */
import { type CalliopeParent, calliopeParent } from "../calliope/mod.ts";
import type { CatalogueSnapshot } from "./catalogue_snapshot.ts";
import type { ServedProfileMetadata } from "./served_profile.ts";
import type { TechnologySummary } from "./served_technology.ts";
import type { Lifecycle } from "../schema/technology_schema.ts";

/** Filters of the technology lists. */
export interface TechnologyFilter {
  domain?: string | undefined;
  /**
   * The Calliope 0.6 parent the catalogue's Calliope adapter gives the technology (`supply`,
   * `supply_plus` for variable renewables, `storage`, `transmission`, `conversion`): the
   * modelling frontend's "type".
   */
  type?: CalliopeParent | undefined;
  tag?: string | undefined;
  /** Matches the technology's own stage or any instance's `lifecycle_stage`. */
  lifecycle?: Lifecycle | undefined;
}

/** Filters of the profile list. */
export interface ProfileFilter {
  type?: string | undefined;
  location?: string | undefined;
}

/** Technology summaries matching the filter, in catalogue order. */
export function filterTechnologies(
  snapshot: CatalogueSnapshot,
  filter: TechnologyFilter,
): TechnologySummary[] {
  return snapshot.summaries.filter((summary) => {
    if (filter.domain !== undefined && summary.domain !== filter.domain) return false;
    if (filter.type !== undefined && calliopeParent(summary) !== filter.type) return false;
    if (filter.tag !== undefined && !summary.tags.includes(filter.tag)) return false;
    if (filter.lifecycle !== undefined && summary.lifecycle !== filter.lifecycle) {
      const technology = snapshot.technology(summary.technology_id);
      return technology?.instances.some((i) => i.lifecycle_stage === filter.lifecycle) ?? false;
    }
    return true;
  });
}

/** Profile metadata matching the filter, in catalogue order. */
export function filterProfiles(
  snapshot: CatalogueSnapshot,
  filter: ProfileFilter,
): ServedProfileMetadata[] {
  return snapshot.profiles.filter((p) =>
    (filter.type === undefined || p.type === filter.type) &&
    (filter.location === undefined || p.location === filter.location)
  );
}
