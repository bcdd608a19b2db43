/**
 * The fixed construction-element slots of a TABULA building variant.
 *
 * The workbook describes every envelope with the same ten slots: two roofs (roof or upper
 * ceiling), three walls, two floors, two windows and one door. Columns of a variant row carry
 * the slot name as suffix (`A_Wall_2`, `U_Wall_2`, `Code_MeasureType_Wall_2`, ...).
 */

/** Element categories of the envelope. */
export type Category = "roof" | "wall" | "floor" | "window" | "door";

/** Raw column names of one slot, built once so the hot path does no string work. */
export interface SlotColumns {
  readonly area: string;
  readonly u: string;
  readonly b: string;
  readonly rAdd: string;
  readonly rPredefined: string;
  readonly dPredefined: string;
  readonly dInput: string;
  readonly dInsulation: string;
  readonly measureType: string;
  readonly fMeasure: string;
  readonly g: string;
  readonly gPredefined: string;
}

/** One slot: its column suffix, its category and whether it is opaque (has R_Add, b, insulation). */
export interface SlotSpec {
  /** Column suffix, e.g. `Wall_2`. */
  readonly slot: string;
  readonly category: Category;
  readonly opaque: boolean;
  /** Short name for labels, e.g. `wall 2`. */
  readonly name: string;
  /** What the slot holds, for descriptions. */
  readonly what: string;
  readonly columns: SlotColumns;
}

function slotSpec(slot: string, category: Category, opaque: boolean, what: string): SlotSpec {
  const columns: SlotColumns = {
    area: `A_${slot}`,
    u: `U_${slot}`,
    b: `b_Transmission_${slot}`,
    rAdd: `R_Add_UnheatedSpace_${slot}`,
    rPredefined: `R_PredefinedMeasure_${slot}`,
    dPredefined: `d_Insulation_PredefinedMeasure_${slot}`,
    dInput: `d_Insulation_Input_Measure_${slot}`,
    dInsulation: `d_Insulation_${slot}`,
    measureType: `Code_MeasureType_${slot}`,
    fMeasure: `f_Measure_${slot}`,
    g: `g_gl_n_${slot}`,
    gPredefined: `g_gl_n_PredefinedMeasure_${slot}`,
  };
  const name = `${category} ${slot.slice(slot.indexOf("_") + 1)}`;
  return { slot, category, opaque, name, what, columns };
}

/** All ten slots in workbook order. */
export const SLOTS: readonly SlotSpec[] = [
  slotSpec("Roof_1", "roof", true, "roof or uppermost ceiling, construction type 1"),
  slotSpec("Roof_2", "roof", true, "roof or uppermost ceiling, construction type 2"),
  slotSpec("Wall_1", "wall", true, "external wall, construction type 1"),
  slotSpec("Wall_2", "wall", true, "wall, construction type 2 (e.g. against an unheated space)"),
  slotSpec("Wall_3", "wall", true, "wall, construction type 3 (e.g. against soil)"),
  slotSpec("Floor_1", "floor", true, "floor or lowest ceiling, construction type 1"),
  slotSpec("Floor_2", "floor", true, "floor or lowest ceiling, construction type 2"),
  slotSpec("Window_1", "window", false, "window, type 1"),
  slotSpec("Window_2", "window", false, "window, type 2"),
  slotSpec("Door_1", "door", false, "external door"),
];

/** Opaque slots (roofs, walls, floors): the ones with insulation and unheated-space factors. */
export const OPAQUE_SLOTS: readonly SlotSpec[] = SLOTS.filter((s) => s.opaque);

/** Window slots. */
export const WINDOW_SLOTS: readonly SlotSpec[] = SLOTS.filter((s) => s.category === "window");

/** Window orientations of the solar-gain calculation, with the column suffix of each. */
export const ORIENTATIONS = ["Horizontal", "East", "South", "West", "North"] as const;
export type Orientation = (typeof ORIENTATIONS)[number];

/** Window-area column of each orientation. */
export const ORIENTATION_AREA_COLUMNS: Readonly<Record<Orientation, string>> = {
  Horizontal: "A_Window_Horizontal",
  East: "A_Window_East",
  South: "A_Window_South",
  West: "A_Window_West",
  North: "A_Window_North",
};
