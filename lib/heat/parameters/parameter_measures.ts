/**
 * TABULA parameters of the refurbishment measures applied per envelope-element slot
 * (group AdvancedParameters.Measures).
 */
import { OPAQUE_SLOTS, SLOTS, type SlotSpec, WINDOW_SLOTS } from "./slots.ts";
import { parameter, type ParameterSpec } from "./parameter_spec.ts";

interface MeasureField {
  readonly column: (s: SlotSpec) => string;
  readonly slots: readonly SlotSpec[];
  readonly label: string;
  readonly unit: string;
  readonly simple: (s: SlotSpec) => string;
  readonly expert: (s: SlotSpec) => string;
  readonly range?: { readonly min: number; readonly max: number };
}

const FIELDS: readonly MeasureField[] = [
  {
    column: (s) => `Code_Measure_${s.slot}`,
    slots: SLOTS,
    label: "Measure",
    unit: "-",
    simple: (s) => `Which energy-saving measure this variant applies to the ${s.what}.`,
    expert: (s) =>
      `Code of the refurbishment measure applied to the ${s.what} in the TABULA measure table` +
      " (e.g. DE.Wall.Insulation08cm.02); 0 where the element is left as it is.",
  },
  {
    column: (s) => `Code_MeasureType_${s.slot}`,
    slots: SLOTS,
    label: "Measure type",
    unit: "-",
    simple: (s) => `Whether the measure adds insulation to the ${s.what} or replaces it.`,
    expert: (s) =>
      `How the measure acts on the ${s.what}: Add (resistance added to the existing` +
      " construction), Replace (new element, U = 1 / R of the measure), ReplaceInsulation" +
      " (existing insulation replaced); 0 where there is no measure.",
  },
  {
    column: (s) => `f_Measure_${s.slot}`,
    slots: SLOTS,
    label: "Measure area fraction",
    unit: "-",
    simple: (s) => `Which share of the ${s.what} the measure covers.`,
    expert: (s) =>
      `Fraction of the area of the ${s.what} to which the measure applies; the actual U-value is` +
      " the area-weighted mean of the original and the refurbished U-value. The refurbished" +
      " envelope fraction also weights the thermal-bridging surcharge.",
    range: { min: 0, max: 1 },
  },
  {
    column: (s) => `R_PredefinedMeasure_${s.slot}`,
    slots: SLOTS,
    label: "Measure thermal resistance",
    unit: "m2.K/W",
    simple: (s) => `How much the predefined measure improves the ${s.what}.`,
    expert: (s) =>
      `Thermal resistance of the predefined measure for the ${s.what}: the resistance added` +
      " (type Add) or the total resistance of the new element (type Replace); 0 where there" +
      " is no measure.",
    range: { min: 0, max: 50 },
  },
  {
    column: (s) => `g_gl_n_PredefinedMeasure_${s.slot}`,
    slots: WINDOW_SLOTS,
    label: "Measure g-value",
    unit: "-",
    simple: (s) => `How much sunlight the new glazing of the ${s.what} lets in.`,
    expert: (s) =>
      `Total solar energy transmittance at normal incidence of the glazing installed by the` +
      ` measure for the ${s.what}; 0 where there is no measure.`,
    range: { min: 0, max: 1 },
  },
  {
    column: (s) => `d_Insulation_PredefinedMeasure_${s.slot}`,
    slots: OPAQUE_SLOTS,
    label: "Measure insulation thickness",
    unit: "m",
    simple: (s) => `How thick the insulation of the predefined measure for the ${s.what} is.`,
    expert: (s) =>
      `Insulation thickness of the predefined measure for the ${s.what}; 0 where there is no` +
      " insulation measure.",
    range: { min: 0, max: 2 },
  },
  {
    column: (s) => `d_Insulation_Input_Measure_${s.slot}`,
    slots: OPAQUE_SLOTS,
    label: "Entered insulation thickness",
    unit: "m",
    simple: (s) => `An insulation thickness entered for the ${s.what} instead of the predefined.`,
    expert: (s) =>
      `Insulation thickness entered for the measure on the ${s.what}; when > 0 it replaces the` +
      " thickness of the predefined measure, 0 = use the predefined measure.",
    range: { min: 0, max: 2 },
  },
];

/** The refurbishment-measure entries, one per field and slot. */
export const MEASURE_PARAMETERS: readonly ParameterSpec[] = FIELDS.flatMap((f) =>
  f.slots.map((s) =>
    parameter({
      column: f.column(s),
      parent: "AdvancedParameters",
      group: "Measures",
      unit: f.unit,
      label: `${f.label}, ${s.name}`,
      simple_description: f.simple(s),
      expert_description: f.expert(s),
      type: f.range ? "number" : "string",
      ...(f.range ?? {}),
    })
  )
);
