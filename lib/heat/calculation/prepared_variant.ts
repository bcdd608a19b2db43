/**
 * A variant's inputs read once from its row: every number the calculation needs, the U-value
 * chain of each slot and the archetype's g-value. Rows of a loaded typology are frozen, so their
 * preparation is kept and the calculation does no column lookups on repeated use.
 */
import { type EstimationCodes, estimationCodes } from "./envelope_estimate.ts";
import {
  type Category,
  type Orientation,
  ORIENTATION_AREA_COLUMNS,
  ORIENTATIONS,
  SLOTS,
  type SlotSpec,
} from "../parameters/slots.ts";
import { type SlotUValue, slotUValue } from "./u_values.ts";
import { codeOf, numberOf, type VariantRow } from "../parameters/variant_row.ts";

/** The scalar inputs of the calculation (the archetype's, or after overrides). */
export interface CalculationInputs {
  HeatingDays: number;
  Theta_e: number;
  theta_i: number;
  I_Sol: Record<Orientation, number>;
  delta_U_ThermalBridging_Original: number;
  delta_U_ThermalBridging_Refurbished: number;
  h_room: number;
  n_Storey: number;
  n_air_infiltration: number;
  n_air_use: number;
  c_m: number;
  phi_int: number;
  F_red_htr1: number;
  F_red_htr4: number;
  F_sh_hor: number;
  F_sh_vert: number;
  F_f: number;
  F_w: number;
}

/** One archetype slot as read from the row. */
export interface PreparedSlot {
  readonly spec: SlotSpec;
  /** Area, m2. */
  readonly area: number;
  /** Temperature adjustment factor (1 for windows and doors). */
  readonly b: number;
  readonly u: SlotUValue;
}

/** Everything the calculation reads from a variant row. */
export interface PreparedVariant {
  readonly code: string;
  /** Reference floor area A_C_Ref, m2 (0 when the row gives none). */
  readonly aRef: number;
  readonly typeVariant: string;
  readonly estimationCodes: EstimationCodes;
  readonly inputs: Readonly<CalculationInputs>;
  readonly slots: readonly PreparedSlot[];
  /** Window area per solar orientation, m2. */
  readonly orientationAreas: Readonly<Record<Orientation, number>>;
  /** Area-weighted g-value of the archetype windows (the measure's g where one applies). */
  readonly gValue: number;
  /** b_Transmission of each category's first slot with an area (1 if none). */
  readonly firstAreaB: Readonly<Record<Category, number>>;
}

/**
 * Reference floor area A_C_Ref (m2): the input value, else the first positive of the other
 * area definitions converted by TABULA's factors.
 */
export function referenceArea(row: VariantRow): number {
  const candidates = [
    numberOf(row, "A_C_Ref_Input"),
    numberOf(row, "A_C_IntDim"),
    0.85 * numberOf(row, "A_C_ExtDim"),
    1.1 * numberOf(row, "A_C_Living"),
    1.4 * numberOf(row, "A_C_Use"),
    (0.85 / 3) * numberOf(row, "V_C"),
  ];
  return candidates.find((a) => a > 0) ?? 0;
}

function archetypeInputs(row: VariantRow): CalculationInputs {
  const I_Sol = { Horizontal: 0, East: 0, South: 0, West: 0, North: 0 };
  I_Sol.Horizontal = numberOf(row, "I_Sol_Hor");
  for (const o of ["East", "South", "West", "North"] as const) {
    I_Sol[o] = numberOf(row, `I_Sol_${o}`);
  }
  return {
    HeatingDays: numberOf(row, "HeatingDays"),
    Theta_e: numberOf(row, "Theta_e"),
    theta_i: numberOf(row, "theta_i"),
    I_Sol,
    delta_U_ThermalBridging_Original: numberOf(row, "delta_U_ThermalBridging_Original"),
    delta_U_ThermalBridging_Refurbished: numberOf(row, "delta_U_ThermalBridging_Refurbished"),
    h_room: numberOf(row, "h_room"),
    n_Storey: numberOf(row, "n_Storey"),
    n_air_infiltration: numberOf(row, "n_air_infiltration"),
    n_air_use: numberOf(row, "n_air_use"),
    c_m: numberOf(row, "c_m"),
    phi_int: numberOf(row, "phi_int"),
    F_red_htr1: numberOf(row, "F_red_htr1"),
    F_red_htr4: numberOf(row, "F_red_htr4"),
    F_sh_hor: numberOf(row, "F_sh_hor"),
    F_sh_vert: numberOf(row, "F_sh_vert"),
    F_f: numberOf(row, "F_f"),
    F_w: numberOf(row, "F_w"),
  };
}

/** Reads a variant row into the calculation's inputs. */
function readVariant(row: VariantRow): PreparedVariant {
  const slots: PreparedSlot[] = [];
  const firstAreaB: Record<Category, number> = { roof: 1, wall: 1, floor: 1, window: 1, door: 1 };
  const seen = new Set<Category>();
  let windowArea = 0;
  let windowGArea = 0;
  for (const spec of SLOTS) {
    const area = numberOf(row, spec.columns.area);
    const b = spec.opaque ? numberOf(row, spec.columns.b) : 1;
    const u = slotUValue(row, spec);
    if (area > 0 && !seen.has(spec.category)) {
      seen.add(spec.category);
      firstAreaB[spec.category] = b;
    }
    if (spec.category === "window" && area > 0) {
      const gMeasure = numberOf(row, spec.columns.gPredefined);
      const gOriginal = numberOf(row, spec.columns.g);
      const g = u.R_measure > 0 && gMeasure > 0
        ? (1 - u.f_measure) * gOriginal + u.f_measure * gMeasure
        : gOriginal;
      windowArea += area;
      windowGArea += area * g;
    }
    slots.push({ spec, area, b, u });
  }
  const orientationAreas = { Horizontal: 0, East: 0, South: 0, West: 0, North: 0 };
  for (const o of ORIENTATIONS) orientationAreas[o] = numberOf(row, ORIENTATION_AREA_COLUMNS[o]);
  return {
    code: codeOf(row, "Code_BuildingVariant"),
    aRef: referenceArea(row),
    typeVariant: codeOf(row, "Code_TypeVariant"),
    estimationCodes: estimationCodes(row),
    inputs: archetypeInputs(row),
    slots,
    orientationAreas,
    gValue: windowArea > 0 ? windowGArea / windowArea : 0,
    firstAreaB,
  };
}

const prepared = new WeakMap<VariantRow, PreparedVariant>();

/**
 * The prepared inputs of a row. Frozen rows (those of a loaded typology) are prepared once and
 * remembered; a row that may still change is read anew on every call.
 */
export function prepareVariant(row: VariantRow): PreparedVariant {
  if (!Object.isFrozen(row)) return readVariant(row);
  let p = prepared.get(row);
  if (!p) {
    p = readVariant(row);
    prepared.set(row, p);
  }
  return p;
}
