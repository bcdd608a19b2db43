/**
 * Actual U-values of the envelope slots after the variant's refurbishment measures.
 *
 * TABULA calculation method (IWU), "U-values of the actual state": a measure adds a thermal
 * resistance to the construction, or replaces the construction (or its insulation layer), and
 * is applied to the fraction f_Measure of the element area.
 */
import { codeOf, numberOf, type VariantRow } from "../parameters/variant_row.ts";
import type { SlotSpec } from "../parameters/slots.ts";

/** Thermal conductivity the workbook assumes for removed insulation, W/(m.K). */
const LAMBDA_INSULATION = 0.04;

/** The U-value chain of one slot, W/(m2.K), and resistances, m2.K/W. */
export interface SlotUValue {
  /** Original U including the additional resistance of an unheated space. */
  U_original: number;
  /** Thermal resistance the measure adds (0 when there is none). */
  R_measure: number;
  /** Resistance of the construction that stays when the measure is applied. */
  R_before: number;
  /** U of the construction with the measure applied. */
  U_measure: number;
  /** Blend of original and measure by f_Measure. */
  U_actual: number;
  /** Share of the element area the measure covers. */
  f_measure: number;
  /** Measure type code: Add, Replace, ReplaceInsulation, or "" for none. */
  measure_type: string;
}

/** Resistance a measure adds: the predefined R scaled by input over predefined thickness. */
function measureResistance(row: VariantRow, spec: SlotSpec): number {
  const rPredefined = numberOf(row, spec.columns.rPredefined);
  if (!spec.opaque) return rPredefined;
  const dPredefined = numberOf(row, spec.columns.dPredefined);
  const dInput = numberOf(row, spec.columns.dInput);
  return dPredefined > 0 && dInput > 0 ? rPredefined * dInput / dPredefined : rPredefined;
}

/** Computes the U-value chain of one slot from its variant row columns. */
export function slotUValue(row: VariantRow, spec: SlotSpec): SlotUValue {
  const { opaque, columns } = spec;
  const u = numberOf(row, columns.u);
  const rAdd = opaque ? numberOf(row, columns.rAdd) : 0;
  const uOriginal = u > 0 ? 1 / (1 / u + rAdd) : 0;
  const rMeasure = measureResistance(row, spec);
  const measureType = codeOf(row, columns.measureType);
  const fMeasure = numberOf(row, columns.fMeasure);
  const rConstruction = u > 0 ? 1 / u : 0;
  let rBefore: number;
  if (opaque) {
    if (measureType === "Replace") rBefore = rAdd;
    else if (measureType === "ReplaceInsulation") {
      rBefore = rAdd + rConstruction - numberOf(row, columns.dInsulation) / LAMBDA_INSULATION;
    } else rBefore = rAdd + rConstruction;
  } else {
    rBefore = measureType === "Replace" ? 0 : rConstruction;
  }
  const rTotal = rBefore + rMeasure;
  // Without a measure resistance the construction stays as it was.
  const uMeasure = rMeasure > 0 && rTotal > 0 ? 1 / rTotal : uOriginal;
  return {
    U_original: uOriginal,
    R_measure: rMeasure,
    R_before: rBefore,
    U_measure: uMeasure,
    U_actual: (1 - fMeasure) * uOriginal + fMeasure * uMeasure,
    f_measure: fMeasure,
    measure_type: measureType,
  };
}
