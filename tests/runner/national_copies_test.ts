/**
 * The benchmarks' big-model helper: copies of the national-scale example, the same data repeated,
 * or (`shiftDays`) each copy on the year's series a number of days later than the one before.
 */
import assert from "node:assert/strict";
import { nationalScaleCopies } from "./_national_copies.ts";

type Series = { id: string; timestamps: string[]; columns: Record<string, number[]> };
type Location = { id: string; technologies: (string | { constraints?: { resource?: string } })[] };

const resources = (config: Record<string, unknown>, id: string) =>
  (config["locations"] as Location[]).find((l) => l.id === id)!.technologies
    .map((t) => typeof t === "string" ? undefined : t.constraints?.resource)
    .filter((r) => r !== undefined);

Deno.test("nationalScaleCopies(): every copy names the same columns unless shiftDays is given", async () => {
  const same = await nationalScaleCopies({ groups: 2, days: 2 });
  assert.deepEqual(resources(same, "region1_g1"), resources(same, "region1_g0"));
  const demand = (same["timeSeries"] as Series[]).find((s) => "demand" in s.columns)!;
  assert.deepEqual(Object.keys(demand.columns), ["demand"]);
  assert.equal(demand.timestamps.length, 48);
});

Deno.test("nationalScaleCopies({shiftDays}): copy g reads the year g × shiftDays days on, around its end", async () => {
  const full = await nationalScaleCopies({ groups: 1, days: 365 });
  const shifted = await nationalScaleCopies({ groups: 3, days: 2, shiftDays: 200 });
  assert.deepEqual(resources(shifted, "region1_g0"), ["file=demand-1.csv:demand"]);
  assert.deepEqual(resources(shifted, "region1_g2"), ["file=demand-1.csv:demand_g2"]);
  assert.deepEqual(resources(shifted, "region1-2_g1"), ["file=csp_resource.csv:region1-2_g1"]);
  const byId = (config: Record<string, unknown>) =>
    new Map((config["timeSeries"] as Series[]).map((s) => [s.id, s]));
  const year = byId(full);
  for (const [id, series] of byId(shifted)) {
    for (const [name, base] of Object.entries(year.get(id)!.columns)) {
      assert.deepEqual(series.columns[name], base.slice(0, 48));
      assert.deepEqual(series.columns[`${name}_g1`], base.slice(200 * 24, 202 * 24));
      // 400 days on is day 35 of the year (8,760 hours).
      assert.deepEqual(series.columns[`${name}_g2`], base.slice(35 * 24, 37 * 24));
    }
  }
});
