/**
 * TABULA's seasonal heating-demand calculation (EN ISO 13790 based), per m2 reference area.
 *
 * Follows IWU's workbook (tabula-calculator.xlsx, sheet Calc.Set.Building) step by step and
 * returns every intermediate, so that callers can show as much of it as they need.
 */
import type { Overrides } from "./overrides.ts";
import type { VariantRow } from "../parameters/variant_row.ts";
import { type Category, type Orientation, ORIENTATIONS } from "../parameters/slots.ts";
import { type EnvelopeEstimate, estimateEnvelope } from "./envelope_estimate.ts";
import { collapseSurfaces } from "./surfaces.ts";
import { type CalculationInputs, prepareVariant } from "./prepared_variant.ts";

export { type CalculationInputs, referenceArea } from "./prepared_variant.ts";

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
  const eta = (1 - gamma ** aH) / (1 - gamma ** (aH + 1));
  if (Number.isFinite(eta)) return eta;
  // A large a_H (a long time constant: heavy mass, little heat transfer) overflows gamma ** a_H.
  // The same ratio divided by gamma ** (a_H + 1) has no overflow for gamma > 1 and tends to
  // 1 / gamma; for gamma < 1 the powers vanish and eta tends to 1.
  if (gamma < 1) return 1;
  const r = 1 / gamma;
  return (r ** (aH + 1) - r) / (r ** (aH + 1) - 1);
}

/** The archetype's inputs with the overrides applied. */
function inputsOf(base: Readonly<CalculationInputs>, o: Overrides): CalculationInputs {
  return {
    ...base,
    HeatingDays: o.HeatingDays ?? base.HeatingDays,
    Theta_e: o.Theta_e ?? base.Theta_e,
    theta_i: o.theta_i ?? base.theta_i,
    I_Sol: {
      Horizontal: o.I_Sol_Hor ?? base.I_Sol.Horizontal,
      East: o.I_Sol_East ?? base.I_Sol.East,
      South: o.I_Sol_South ?? base.I_Sol.South,
      West: o.I_Sol_West ?? base.I_Sol.West,
      North: o.I_Sol_North ?? base.I_Sol.North,
    },
    delta_U_ThermalBridging_Original: o.delta_U_ThermalBridging_Original ??
      base.delta_U_ThermalBridging_Original,
    delta_U_ThermalBridging_Refurbished: o.delta_U_ThermalBridging_Refurbished ??
      base.delta_U_ThermalBridging_Refurbished,
    h_room: o.h_room ?? base.h_room,
    n_Storey: o.n_Storey ?? base.n_Storey,
    n_air_infiltration: o.n_air_infiltration ?? base.n_air_infiltration,
    n_air_use: o.n_air_use ?? base.n_air_use,
    c_m: o.c_m ?? base.c_m,
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
 * For DE.N.AB.02.Gen.ReEx.001.001, `calculate(row).q_h_nd` is 134.47.
 */
export function calculate(row: VariantRow, overrides: Overrides = {}): Calculation {
  // The archetype's own result never changes for a frozen row: computed once, then shared.
  if (Object.keys(overrides).length === 0 && Object.isFrozen(row)) {
    let result = archetypeResults.get(row);
    if (!result) {
      result = deepFreeze(compute(row, overrides));
      archetypeResults.set(row, result);
    }
    return result;
  }
  return compute(row, overrides);
}

const archetypeResults = new WeakMap<VariantRow, Calculation>();

/** Freezes an object and everything it holds, so a shared result cannot be changed. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

function compute(row: VariantRow, overrides: Overrides): Calculation {
  const variant = prepareVariant(row);
  const inputs = inputsOf(variant.inputs, overrides);
  const aRef = overrides.A_ref ?? variant.aRef;
  if (!(aRef > 0)) throw new RangeError(`Variant ${variant.code} has no reference area`);

  // Envelope estimation: only its ratios act, and only when the storey count changes.
  const archetypeStoreys = variant.inputs.n_Storey;
  const archetypeEstimate = estimateEnvelope(variant.estimationCodes, aRef, archetypeStoreys);
  const actualEstimate = inputs.n_Storey === archetypeStoreys
    ? undefined
    : estimateEnvelope(variant.estimationCodes, aRef, inputs.n_Storey);
  const scale = actualEstimate ? storeyScale(archetypeEstimate, actualEstimate) : undefined;

  const surfaces = overrides.surfaces ? collapseSurfaces(overrides.surfaces) : undefined;
  const listedFirstSlot = new Set<Category>();
  const slots: SlotResult[] = [];
  let refurbishedArea = 0;
  let envelopeArea = 0;

  for (const { spec, area: archetypeArea, b: bArchetype, u } of variant.slots) {
    const listed = surfaces?.categories[spec.category];
    let slot: SlotResult;
    if (listed) {
      const first = !listedFirstSlot.has(spec.category);
      listedFirstSlot.add(spec.category);
      const b = spec.opaque ? variant.firstAreaB[spec.category] : 1;
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
  if (variant.typeVariant === "Variation") {
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

  // Solar gains through the windows, by orientation; the g-value stays the archetype's, also
  // when the windows are the caller's.
  const gValue = variant.gValue;
  const orientationAreas = surfaces?.windowOrientation ?? { ...variant.orientationAreas };
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
