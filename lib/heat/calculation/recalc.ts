/**
 * Batch recalculation of many buildings, compared against the published reference values.
 */
import { calculate } from "./calculate.ts";
import type { Overrides } from "./overrides.ts";
import type { ReferenceRow } from "../parameters/reference_row.ts";
import type { VariantRow } from "../parameters/variant_row.ts";

/** Where archetypes and their reference values come from (a loaded typology). */
export interface VariantSource {
  variant(code: string): VariantRow | undefined;
  reference(code: string): ReferenceRow | undefined;
}

/** One recalculated building. */
export interface RecalcResult {
  code: string;
  /** Annual net heating demand, kWh/(m2.a). */
  q_h_nd: number;
  /** Published reference q_h_nd, kWh/(m2.a), where one exists and no override was applied. */
  reference: number | null;
  /** Relative deviation (q_h_nd - reference) / reference. */
  deviation: number | null;
}

/** Summary of a recalculation run. */
export interface RecalcSummary {
  count: number;
  withReference: number;
  /** Buildings within 0.5 % of their reference. */
  within05: number;
  /** The five largest absolute deviations, largest first. */
  worst: RecalcResult[];
}

/** Relative tolerance of the reference comparison (0.5 %). */
export const REFERENCE_TOLERANCE = 0.005;

/**
 * Recalculates each item; throws RangeError naming the item for an unknown code or a result
 * that is not finite. `onProgress(done, total)` is called after each item.
 */
export function recalculate(
  source: VariantSource,
  items: readonly { code: string; overrides?: Overrides; label?: string }[],
  onProgress?: (done: number, total: number) => void,
): RecalcResult[] {
  const results: RecalcResult[] = [];
  for (const item of items) {
    const row = source.variant(item.code);
    if (!row) {
      throw new RangeError(`${item.label ?? item.code}: unknown variant code "${item.code}"`);
    }
    const { q_h_nd } = calculate(row, item.overrides);
    if (!Number.isFinite(q_h_nd)) {
      throw new RangeError(`${item.label ?? item.code}: the result is not finite`);
    }
    // A reference only compares to the archetype as published, not to an altered building.
    const altered = item.overrides !== undefined && Object.keys(item.overrides).length > 0;
    const published = altered ? undefined : source.reference(item.code)?.q_h_nd;
    const reference = typeof published === "number" ? published : undefined;
    results.push({
      code: item.code,
      q_h_nd,
      reference: reference ?? null,
      deviation: reference ? (q_h_nd - reference) / reference : null,
    });
    onProgress?.(results.length, items.length);
  }
  return results;
}

/** Counts the results, those within 0.5 % of the reference, and the five worst. */
export function summarize(results: readonly RecalcResult[]): RecalcSummary {
  const referenced = results.filter((r) => r.deviation !== null);
  const within05 = referenced.filter((r) => Math.abs(r.deviation!) <= REFERENCE_TOLERANCE).length;
  const worst = [...referenced]
    .sort((a, b) => Math.abs(b.deviation!) - Math.abs(a.deviation!))
    .slice(0, 5);
  return { count: results.length, withReference: referenced.length, within05, worst };
}
