import assert from "node:assert/strict";
import { applyProfileRemovals } from "../../../lib/catalogue/served/profile_removal.ts";

const approved = (id: string, at: string) => ({ profile: { profile_id: id }, approved_at: at });
const removal = (id: string, at: string, seq = 1) => ({
  seq,
  profile_id: id,
  removed_at: at,
  removed_by: "admin:a@example.org",
});

Deno.test("a removal hides what was approved before it, not what is approved after", () => {
  const { served, hiddenFileProfiles } = applyProfileRemovals(
    [
      approved("a", "2026-01-01T00:00:00.000Z"),
      approved("b", "2026-01-02T00:00:00.000Z"),
      approved("a", "2026-01-05T00:00:00.000Z"),
    ],
    [removal("a", "2026-01-03T00:00:00.000Z"), removal("DE_load_2016", "2026-01-04T00:00:00Z", 2)],
  );
  assert.deepEqual(served.map((p) => p.profile_id), ["b", "a"]);
  assert.deepEqual(hiddenFileProfiles.sort(), ["DE_load_2016", "a"]);
});

Deno.test("no removals: everything served, in approval order", () => {
  const list = [approved("x", "2026-01-02T00:00:00Z"), approved("y", "2026-01-01T00:00:00Z")];
  const { served, hiddenFileProfiles } = applyProfileRemovals(list, []);
  assert.deepEqual(served.map((p) => p.profile_id), ["x", "y"]);
  assert.deepEqual(hiddenFileProfiles, []);
});
