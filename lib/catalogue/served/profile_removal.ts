/**
 * An admin's removal of a served profile (OpenTech-DB's `DELETE /timeseries/{id}`), as stored in
 * the state store and applied on every load (the profile files are never written).
 *
 * A removal hides what was served under the id when it was made: a profile of the files for good,
 * and an approved submission approved before it. A submission of that id approved later is served.
 */

/** An admin's removal of a served profile, as stored. */
export interface ProfileRemoval {
  /** Order of the removals. */
  seq: number;
  profile_id: string;
  /** ISO 8601. */
  removed_at: string;
  /** Subject of the admin who removed it. */
  removed_by: string;
}

/** An approved submitted profile and when it was approved. */
export interface ApprovedProfile<P extends { profile_id: string }> {
  profile: P;
  /** ISO 8601. */
  approved_at: string;
}

/**
 * The approved submitted profiles still served after `removals` (approval order kept), and the
 * ids whose file profiles are hidden.
 */
export function applyProfileRemovals<P extends { profile_id: string }>(
  approved: readonly ApprovedProfile<P>[],
  removals: readonly ProfileRemoval[],
): { served: P[]; hiddenFileProfiles: string[] } {
  const lastRemoval = new Map<string, string>();
  for (const r of removals) {
    const before = lastRemoval.get(r.profile_id);
    if (before === undefined || r.removed_at > before) lastRemoval.set(r.profile_id, r.removed_at);
  }
  const served = approved
    .filter((a) => {
      const removedAt = lastRemoval.get(a.profile.profile_id);
      return removedAt === undefined || a.approved_at > removedAt;
    })
    .map((a) => a.profile);
  return { served, hiddenFileProfiles: [...lastRemoval.keys()] };
}
