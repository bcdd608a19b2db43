/**
 * The per-slot parameters of the original construction of the ten envelope-element slots:
 * areas (Envelope), construction codes (Constructions), U-values, existing insulation and the
 * adjustment for unheated spaces or soil.
 */
import { parameter, type ParameterSpec } from "./parameter_spec.ts";

// The slots are defined once in slots.ts; the calculation reads the same list.
import { OPAQUE_SLOTS, SLOTS } from "./slots.ts";

const FLOOR_AREAS: readonly ParameterSpec[] = [
  {
    column: "V_C",
    label: "Heated volume",
    simple: "The heated volume of the building, measured from its outer surfaces.",
    expert: "Conditioned gross volume V_C (external dimensions); 0 where not given. Last" +
      " fallback of the reference-area estimate (0.85 / 3 x V_C).",
    unit: "m3",
  },
  {
    column: "A_C_National",
    label: "Floor area (national)",
    simple: "The heated floor area as the country's own rules measure it.",
    expert: "Conditioned floor area according to the national definition; kept for reference," +
      " not used by the TABULA calculation.",
  },
  {
    column: "A_C_ExtDim",
    label: "Gross floor area",
    simple: "The heated floor area measured to the outside of the walls.",
    expert: "Conditioned gross floor area on the basis of external dimensions; 0 where not given." +
      " Estimates the reference area as 0.85 x A_C_ExtDim when A_C_IntDim is not given.",
  },
  {
    column: "A_C_IntDim",
    label: "Net floor area",
    simple: "The heated floor area measured inside the walls.",
    expert: "Conditioned floor area on the basis of internal dimensions; 0 where not given. When" +
      " given, it is the estimate of the reference area.",
  },
  {
    column: "A_C_Use",
    label: "Useful floor area",
    simple: "The usable floor area by the national definition.",
    expert: "Useful floor area (national definition); 0 where not given. Estimates the reference" +
      " area as 1.4 x A_C_Use when no other floor area is given.",
  },
  {
    column: "A_C_Living",
    label: "Living area",
    simple: "The living space of all dwellings.",
    expert: "Living area of the dwellings; 0 where not given. Estimates the reference area as" +
      " 1.1 x A_C_Living when neither A_C_IntDim nor A_C_ExtDim is given.",
  },
  {
    column: "A_C_Ref_Input",
    label: "Reference floor area",
    simple: "The heated floor area that all per-m2 results refer to.",
    expert: "Reference floor area A_C_Ref entered for the data set; when > 0 it replaces the" +
      " estimate from the other floor areas (A_C_IntDim, else 0.85 x A_C_ExtDim, else 1.1 x" +
      " A_C_Living, else 1.4 x A_C_Use, else 0.85 / 3 x V_C). Heat transfer, gains and the" +
      " result q_h_nd are given per m2 of A_C_Ref.",
    // A room to the largest buildings (1 km2); the data's reference areas are 53 to 30,983 m2.
    override: {
      member: "A_ref",
      min: 1,
      max: 1_000_000,
      description: "Replaces the reference floor area A_C_Ref, however the data set gives it;" +
        " heat transfer, gains and q_h_nd are per m2 of it.",
    },
  },
].map((f) =>
  parameter({
    column: f.column,
    parent: "BasicParameters",
    group: "Envelope",
    unit: f.unit ?? "m2",
    label: f.label,
    simple_description: f.simple,
    expert_description: f.expert,
    type: "number",
    min: 0,
    ...("override" in f ? { override: f.override } : {}),
  })
);

const ELEMENT_AREAS: readonly ParameterSpec[] = SLOTS.map((s) =>
  parameter({
    column: `A_${s.slot}`,
    parent: "BasicParameters",
    group: "Envelope",
    unit: "m2",
    label: `Area, ${s.name}`,
    simple_description: `How large the ${s.what} is.`,
    expert_description: `Envelope area of the ${s.what} (external dimensions), used when the` +
      " envelope areas are taken as entered (Code_TypeIntake_EnvelopeArea = Manual); 0 where the" +
      " slot is unused.",
    type: "number",
    min: 0,
  })
);

const ORIENTATIONS = [
  ["Horizontal", "horizontal or nearly flat (tilt below 30 deg)"],
  ["East", "east-facing (within 45 deg)"],
  ["South", "south-facing (within 45 deg)"],
  ["West", "west-facing (within 45 deg)"],
  ["North", "north-facing (within 45 deg)"],
] as const;

const WINDOW_ORIENTATION: readonly ParameterSpec[] = ORIENTATIONS.map(([o, what]) =>
  parameter({
    column: `A_Window_${o}`,
    parent: "BasicParameters",
    group: "Envelope",
    unit: "m2",
    label: `Window area, ${o.toLowerCase()}`,
    simple_description: `How much of the window area is ${what}.`,
    expert_description: `Window area that is ${what}. The shares by orientation are scaled to` +
      " the total window area A_Window_1 + A_Window_2 and multiplied by the matching I_Sol_*" +
      " radiation for the solar gains.",
    type: "number",
    min: 0,
  })
);

const CONSTRUCTIONS: readonly ParameterSpec[] = [
  ...SLOTS.map((s) =>
    parameter({
      column: `Code_${s.slot}`,
      parent: "BasicParameters",
      group: "Constructions",
      unit: "-",
      label: `Construction, ${s.name}`,
      simple_description: `Which typical construction the ${s.what} is built with.`,
      expert_description: `Code of the construction of the ${s.what} in the TABULA construction` +
        " table (<country>.<element>.<data type>.<nn>.<nn>, e.g. DE.Wall.ReEx.03.01); 0 where" +
        " the slot is unused.",
      type: "string",
    })
  ),
  ...OPAQUE_SLOTS.map((s) =>
    parameter({
      column: `Code_ConstructionBorder_${s.slot}`,
      parent: "BasicParameters",
      group: "Constructions",
      unit: "-",
      label: `Adjacent space, ${s.name}`,
      simple_description: `What lies on the other side of the ${s.what}.`,
      expert_description: `Kind of space on the other side of the ${s.what}: Ext outside air,` +
        " Unh unheated space, Cellar, Soil; empty where not given.",
      type: "string",
    })
  ),
];

const U_VALUES: readonly ParameterSpec[] = SLOTS.map((s) =>
  parameter({
    column: `U_${s.slot}`,
    parent: "AdvancedParameters",
    group: "Uvalues",
    unit: "W/(m2.K)",
    label: `U-value, ${s.name}`,
    simple_description: `How easily heat escapes through the ${s.what}: lower is better insulated.`,
    expert_description: `Thermal transmittance of the ${s.what} in its original state` +
      `${
        s.category === "window" ? " (glazing and frame)" : ""
      }, before any measure of this variant;` +
      " the thermal-bridging surcharge is added separately. 0 where the slot is unused.",
    type: "number",
    min: 0,
    max: 10,
  })
);

const INSULATION: readonly ParameterSpec[] = OPAQUE_SLOTS.map((s) =>
  parameter({
    column: `d_Insulation_${s.slot}`,
    parent: "AdvancedParameters",
    group: "Insulation",
    unit: "m",
    label: `Existing insulation, ${s.name}`,
    simple_description: `How thick the insulation already in the ${s.what} is.`,
    expert_description: `Thickness of the insulation layer of the original ${s.what}; 0 where` +
      " there is none or it is not given.",
    type: "number",
    min: 0,
    max: 2,
  })
);

const UNHEATED: readonly ParameterSpec[] = [
  ...OPAQUE_SLOTS.map((s) =>
    parameter({
      column: `R_Add_UnheatedSpace_${s.slot}`,
      parent: "AdvancedParameters",
      group: "UnheatedSpaces",
      unit: "m2.K/W",
      label: `Unheated-space resistance, ${s.name}`,
      simple_description: `Extra protection an unheated space (attic, cellar) in front of the` +
        ` ${s.what} gives.`,
      expert_description: `Additional thermal resistance of an unheated space adjoining the` +
        ` ${s.what}, added to the element's resistance (U = 1 / (1 / U_original + R_add)); 0` +
        " where none.",
      type: "number",
      min: 0,
      max: 10,
    })
  ),
  ...OPAQUE_SLOTS.map((s) =>
    parameter({
      column: `b_Transmission_${s.slot}`,
      parent: "AdvancedParameters",
      group: "UnheatedSpaces",
      unit: "-",
      label: `Adjustment factor, ${s.name}`,
      simple_description: `How much of the full heat loss applies to the ${s.what}: less when it` +
        " borders an unheated space or the ground.",
      expert_description: `Adjustment factor b_tr of the transmission heat transfer of the` +
        ` ${s.what} (EN ISO 13790): 1 towards outside air, below 1 towards unheated spaces or` +
        " soil (e.g. 0.5); multiplies U x A of the element.",
      type: "number",
      min: 0,
      max: 1,
    })
  ),
];

/** Envelope areas, construction codes, U-values, insulation and unheated-space entries. */
export const ELEMENT_PARAMETERS: readonly ParameterSpec[] = [
  ...FLOOR_AREAS,
  ...ELEMENT_AREAS,
  ...WINDOW_ORIENTATION,
  ...CONSTRUCTIONS,
  ...U_VALUES,
  ...INSULATION,
  ...UNHEATED,
];
