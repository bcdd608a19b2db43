/**
 * TABULA's seasonal heating-demand calculation (EN ISO 13790 based), per m2 reference area.
 *
 * Follows IWU's workbook (tabula-calculator.xlsx, sheet Calc.Set.Building) step by step and
 * returns every intermediate, so that callers can show as much of it as they need.
 */
import type { Overrides } from "./overrides.ts";
import { codeOf, numberOf, type VariantRow } from "./variant_row.ts";
import {
  type Category,
  type Orientation,
  ORIENTATION_AREA_COLUMNS,
  ORIENTATIONS,
  SLOTS,
} from "./slots.ts";
import { slotUValue } from "./u_values.ts";
import { type EnvelopeEstimate, estimateEnvelope, estimationCodes } from "./envelope_estimate.ts";
import { collapseSurfaces } from "./surfaces.ts";

/** One envelope slot as it enters the transmission heat transfer. */
export interface SlotResult {
  slot: string;
  category: Category;
  /** Area, m2. */
  area: number;
  /** Adjustment factor for the temperature difference (1 for windows and doors). */
  b_Transmission: number;
  /** U of the original construction, W/(m2.K). */
  U_original: number;
  /** Resistance added by the refurbishment measure, m2.K/W. */
  R_measure: number;
  /** U after the measure, blended by f_Measure, W/(m2.K). */
  U_actual: number;
  /** Heat transfer coefficient U_actual * A * b, W/K. */
  H: number;
  /** "archetype", "scaled" (n_Storey override) or "surfaces" (caller's surfaces). */
  source: "archetype" | "scaled" | "surfaces";
}

/** Every intermediate of the calculation, named as in the workbook. */
export interface Explain {
  A_C_Ref: number;
  slots: SlotResult[];
  A_Envelope: number;
  Fraction_EnvelopeRefurbished: number;
  Type_ThermalBridging: "original" | "refurbished" | "blend";
  delta_U_ThermalBridging: number;
  H_Transmission_ThermalBridging: number;
  h_Transmission: number;
  h_Ventilation: number;
  F_red: number;
  q_ht_tr: number;
  q_ht_ve: number;
  q_ht: number;
  g_gl_n: number;
  A_Window_Orientation: Record<Orientation, number>;
  q_sol_Orientation: Record<Orientation, number>;
  q_sol: number;
  q_int: number;
  tau: number;
  a_H: number;
  gamma_h_gn: number;
  eta_h_gn: number;
  q_h_nd: number;
  inputs: CalculationInputs;
  envelope_estimate: { archetype: EnvelopeEstimate; actual?: EnvelopeEstimate };
}

/** The scalar inputs actually used, after overrides. */
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

/** Result of a calculation: the demand in kWh/(m2.a) and how it was reached. */
export interface Calculation {
  q_h_nd: number;
  explain: Explain;
}

/** Hours per day / 1000: turns W/(m2.K) times K.d into kWh/m2. */
const KWH_PER_WATT_DAY = 0.024;
/** Volumetric heat capacity of air, Wh/(m3.K). */
const C_AIR = 0.34;

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

/**
 * Temperature-reduction factor for intermittent heating, from the heat transfer coefficient
 * per m2 (W/(m2.K)): F_red_htr4 from 4 on, linear between (1, F1) and (4, F4), and below 1 the
 * extension of the line through (0.5, 1) and (1, F1), as the workbook does (not capped at 1).
 */
export function temperatureReduction(h: number, f1: number, f4: number): number {
  if (h >= 4) return f4;
  if (h >= 1) return f1 + (f4 - f1) * (h - 1) / 3;
  return 1 + (f1 - 1) * (h - 0.5) / 0.5;
}

/**
 * Gain utilisation factor eta (EN ISO 13790, 12.2.1.1) from the gain/loss ratio gamma and the
 * numerical parameter a_H.
 */
export function gainUtilisation(gamma: number, aH: number): number {
  if (gamma === 1) return aH / (aH + 1);
  if (gamma <= 0) return 1;
  return (1 - gamma ** aH) / (1 - gamma ** (aH + 1));
}

function inputsOf(row: VariantRow, o: Overrides): CalculationInputs {
  return {
    HeatingDays: o.HeatingDays ?? numberOf(row, "HeatingDays"),
    Theta_e: o.Theta_e ?? numberOf(row, "Theta_e"),
    theta_i: o.theta_i ?? numberOf(row, "theta_i"),
    I_Sol: {
      Horizontal: o.I_Sol_Hor ?? numberOf(row, "I_Sol_Hor"),
      East: o.I_Sol_East ?? numberOf(row, "I_Sol_East"),
      South: o.I_Sol_South ?? numberOf(row, "I_Sol_South"),
      West: o.I_Sol_West ?? numberOf(row, "I_Sol_West"),
      North: o.I_Sol_North ?? numberOf(row, "I_Sol_North"),
    },
    delta_U_ThermalBridging_Original: o.delta_U_ThermalBridging_Original ??
      numberOf(row, "delta_U_ThermalBridging_Original"),
    delta_U_ThermalBridging_Refurbished: o.delta_U_ThermalBridging_Refurbished ??
      numberOf(row, "delta_U_ThermalBridging_Refurbished"),
    h_room: o.h_room ?? numberOf(row, "h_room"),
    n_Storey: o.n_Storey ?? numberOf(row, "n_Storey"),
    n_air_infiltration: o.n_air_infiltration ?? numberOf(row, "n_air_infiltration"),
    n_air_use: o.n_air_use ?? numberOf(row, "n_air_use"),
    c_m: o.c_m ?? numberOf(row, "c_m"),
    phi_int: numberOf(row, "phi_int"),
    F_red_htr1: numberOf(row, "F_red_htr1"),
    F_red_htr4: numberOf(row, "F_red_htr4"),
    F_sh_hor: numberOf(row, "F_sh_hor"),
    F_sh_vert: numberOf(row, "F_sh_vert"),
    F_f: numberOf(row, "F_f"),
    F_w: numberOf(row, "F_w"),
  };
}

/** Area scale per category when the storey count is overridden (estimate new / estimate old). */
function storeyScale(
  archetype: EnvelopeEstimate,
  actual: EnvelopeEstimate,
): Record<Category, number> {
  const ratio = (now: number, before: number) => (before > 0 ? now / before : 1);
  return {
    roof: ratio(actual.A_Roof + actual.A_UpperCeiling, archetype.A_Roof + archetype.A_UpperCeiling),
    wall: ratio(
      actual.A_Wall_ExtAir + actual.A_Wall_ToCellarOrSoil,
      archetype.A_Wall_ExtAir + archetype.A_Wall_ToCellarOrSoil,
    ),
    floor: ratio(actual.A_Floor, archetype.A_Floor),
    window: 1,
    door: 1,
  };
}

/**
 * Computes the annual net heating demand q_h_nd (kWh/(m2.a)) of a variant, with optional
 * overrides of its inputs and caller-supplied surfaces.
 *
 * @example calculate(row).q_h_nd // 134.47 for DE.N.AB.02.Gen.ReEx.001.001
 */
export function calculate(row: VariantRow, overrides: Overrides = {}): Calculation {
  const inputs = inputsOf(row, overrides);
  const aRef = overrides.A_ref ?? referenceArea(row);
  if (!(aRef > 0)) {
    throw new RangeError(`Variant ${codeOf(row, "Code_BuildingVariant")} has no reference area`);
  }

  // Envelope estimation: only its ratios act, and only when the storey count changes.
  const codes = estimationCodes(row);
  const archetypeStoreys = numberOf(row, "n_Storey");
  const archetypeEstimate = estimateEnvelope(codes, aRef, archetypeStoreys);
  const actualEstimate = inputs.n_Storey === archetypeStoreys
    ? undefined
    : estimateEnvelope(codes, aRef, inputs.n_Storey);
  const scale = actualEstimate ? storeyScale(archetypeEstimate, actualEstimate) : undefined;

  const surfaces = collapseSurfaces(overrides.surfaces ?? []);
  const listedFirstSlot = new Set<Category>();
  const slots: SlotResult[] = [];
  let refurbishedArea = 0;
  let envelopeArea = 0;
  let windowArea = 0;
  let windowGArea = 0;

  for (const spec of SLOTS) {
    const archetypeArea = numberOf(row, spec.columns.area);
    const bArchetype = spec.opaque ? numberOf(row, spec.columns.b) : 1;
    const u = slotUValue(row, spec);
    // The g-value stays the archetype's, also when the windows are the caller's.
    if (spec.category === "window" && archetypeArea > 0) {
      const gMeasure = numberOf(row, spec.columns.gPredefined);
      const gOriginal = numberOf(row, spec.columns.g);
      const g = u.R_measure > 0 && gMeasure > 0
        ? (1 - u.f_measure) * gOriginal + u.f_measure * gMeasure
        : gOriginal;
      windowArea += archetypeArea;
      windowGArea += archetypeArea * g;
    }

    const listed = surfaces.categories[spec.category];
    let slot: SlotResult;
    if (listed) {
      const first = !listedFirstSlot.has(spec.category);
      listedFirstSlot.add(spec.category);
      const b = spec.opaque ? firstAreaB(row, spec.category) : 1;
      const area = first ? listed.area : 0;
      const uValue = first ? listed.u_value : 0;
      slot = {
        slot: spec.slot,
        category: spec.category,
        area,
        b_Transmission: b,
        U_original: uValue,
        R_measure: 0,
        U_actual: uValue,
        H: uValue * area * b,
        source: "surfaces",
      };
    } else {
      const area = archetypeArea * (scale?.[spec.category] ?? 1);
      slot = {
        slot: spec.slot,
        category: spec.category,
        area,
        b_Transmission: bArchetype,
        U_original: u.U_original,
        R_measure: u.R_measure,
        U_actual: u.U_actual,
        H: u.U_actual * area * bArchetype,
        source: scale && scale[spec.category] !== 1 ? "scaled" : "archetype",
      };
      if (u.R_measure > 0) refurbishedArea += u.f_measure * area;
    }
    envelopeArea += slot.area;
    slots.push(slot);
  }

  // Thermal bridging surcharge on the whole envelope area.
  const fractionRefurbished = envelopeArea > 0 ? refurbishedArea / envelopeArea : 0;
  const dUOriginal = inputs.delta_U_ThermalBridging_Original;
  const dURefurbished = inputs.delta_U_ThermalBridging_Refurbished;
  let typeTB: Explain["Type_ThermalBridging"];
  let dU: number;
  if (codeOf(row, "Code_TypeVariant") === "Variation") {
    typeTB = "refurbished";
    dU = dURefurbished;
  } else if (fractionRefurbished > 0) {
    // The workbook blends even where no refurbished class is coded (its dU is then 0).
    typeTB = "blend";
    dU = (1 - fractionRefurbished) * dUOriginal + fractionRefurbished * dURefurbished;
  } else {
    typeTB = "original";
    dU = dUOriginal;
  }
  const hThermalBridging = dU * envelopeArea;
  const hTr = (slots.reduce((sum, s) => sum + s.H, 0) + hThermalBridging) / aRef;
  const hVe = C_AIR * (inputs.n_air_use + inputs.n_air_infiltration) * inputs.h_room;

  const fRed = temperatureReduction(hTr, inputs.F_red_htr1, inputs.F_red_htr4);
  const degreeDays = KWH_PER_WATT_DAY * (inputs.theta_i - inputs.Theta_e) * inputs.HeatingDays *
    fRed;
  const qHtTr = hTr * degreeDays;
  const qHtVe = hVe * degreeDays;
  const qHt = qHtTr + qHtVe;

  // Solar gains through the windows, by orientation.
  const gValue = windowArea > 0 ? windowGArea / windowArea : 0;
  const orientationAreas = surfaces.windowOrientation ?? orientationAreasOf(row);
  const frameAndWindow = (1 - inputs.F_f) * inputs.F_w * gValue;
  const qSolOrientation = { Horizontal: 0, East: 0, South: 0, West: 0, North: 0 };
  let qSol = 0;
  for (const o of ORIENTATIONS) {
    const shading = o === "Horizontal" ? inputs.F_sh_hor : inputs.F_sh_vert;
    qSolOrientation[o] = orientationAreas[o] * inputs.I_Sol[o] * shading * frameAndWindow / aRef;
    qSol += qSolOrientation[o];
  }
  const qInt = inputs.phi_int * KWH_PER_WATT_DAY * inputs.HeatingDays;

  // Gain utilisation (EN ISO 13790, 12.2.1.1, seasonal method with a_H,0 = 0.8, tau_H,0 = 30 h).
  const tau = inputs.c_m / (hTr + hVe);
  const aH = 0.8 + tau / 30;
  const gamma = qHt > 0 ? (qSol + qInt) / qHt : Infinity;
  const eta = Number.isFinite(gamma) ? gainUtilisation(gamma, aH) : 0;
  // No heat loss to cover (e.g. theta_i <= Theta_e): no heating need, not a negative one.
  const qHNd = qHt > 0 ? qHt - eta * (qSol + qInt) : 0;

  const explain: Explain = {
    A_C_Ref: aRef,
    slots,
    A_Envelope: envelopeArea,
    Fraction_EnvelopeRefurbished: fractionRefurbished,
    Type_ThermalBridging: typeTB,
    delta_U_ThermalBridging: dU,
    H_Transmission_ThermalBridging: hThermalBridging,
    h_Transmission: hTr,
    h_Ventilation: hVe,
    F_red: fRed,
    q_ht_tr: qHtTr,
    q_ht_ve: qHtVe,
    q_ht: qHt,
    g_gl_n: gValue,
    A_Window_Orientation: orientationAreas,
    q_sol_Orientation: qSolOrientation,
    q_sol: qSol,
    q_int: qInt,
    tau,
    a_H: aH,
    gamma_h_gn: gamma,
    eta_h_gn: eta,
    q_h_nd: qHNd,
    inputs,
    envelope_estimate: actualEstimate
      ? { archetype: archetypeEstimate, actual: actualEstimate }
      : { archetype: archetypeEstimate },
  };
  return { q_h_nd: qHNd, explain };
}

/** b_Transmission of the category's first archetype slot that has an area (1 if none). */
function firstAreaB(row: VariantRow, category: Category): number {
  const spec = SLOTS.find((s) => s.category === category && numberOf(row, s.columns.area) > 0);
  return spec ? numberOf(row, spec.columns.b) : 1;
}

/** The archetype's window area per orientation, m2. */
function orientationAreasOf(row: VariantRow): Record<Orientation, number> {
  const areas = { Horizontal: 0, East: 0, South: 0, West: 0, North: 0 };
  for (const o of ORIENTATIONS) areas[o] = numberOf(row, ORIENTATION_AREA_COLUMNS[o]);
  return areas;
}
