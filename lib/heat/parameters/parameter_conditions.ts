/**
 * TABULA parameters of climate, solar gains, thermal bridges, air exchange, heat transfer and the
 * usage boundary conditions (all under AdvancedParameters), following IWU's "TABULA Calculation
 * Method - Energy Use for Heating and Domestic Hot Water" (seasonal method of EN ISO 13790).
 */
import { WINDOW_SLOTS } from "./slots.ts";
import { parameter, type ParameterInput, type ParameterSpec } from "./parameter_spec.ts";

type Entry = Omit<ParameterInput, "parent">;

const advanced = (e: Entry): ParameterSpec => parameter({ ...e, parent: "AdvancedParameters" });

const CLIMATE: readonly ParameterSpec[] = [
  advanced({
    column: "Code_ClimateRegion",
    group: "ClimateConditions",
    unit: "-",
    label: "Climate region code",
    simple_description: "Which regional climate the building type is calculated with.",
    expert_description: "Code of the climate data set, <country>.<region> (e.g. DE.N national" +
      " average, GR.ZoneA); gives HeatingDays, Theta_e and the I_Sol_* radiation.",
    type: "string",
  }),
  advanced({
    column: "Name_ClimateRegion",
    group: "ClimateConditions",
    unit: "-",
    label: "Climate region",
    simple_description: "The name of that climate region.",
    expert_description: "Name of the climate data set, e.g. the reference location it stands for.",
    type: "string",
  }),
  advanced({
    column: "HeatingDays",
    group: "ClimateConditions",
    unit: "d/a",
    label: "Heating days",
    simple_description: "How many days a year the building needs heating in this climate.",
    expert_description: "Length of the heating season: days per year whose mean outdoor" +
      " temperature is below the base temperature Theta_e_Base. Degree days = (Theta_i -" +
      " Theta_e) x HeatingDays; internal gains q_int = 0.024 x phi_int x HeatingDays. Some" +
      " climate data sets give a fractional value.",
    type: "number",
    min: 0,
    max: 366,
    // A year at most; the data has 22.4 to 365 (fractional in 336 rows).
    override: { member: "HeatingDays", min: 0, max: 366 },
  }),
  advanced({
    column: "Theta_e_Base",
    group: "ClimateConditions",
    unit: "deg C",
    label: "Base temperature",
    simple_description: "The outdoor temperature below which a day counts as a heating day.",
    expert_description: "Base (heating-limit) temperature that defines the heating season of the" +
      " climate data set (12 deg C throughout the TABULA data).",
    type: "number",
    min: -10,
    max: 30,
  }),
  advanced({
    column: "Theta_e",
    group: "ClimateConditions",
    unit: "deg C",
    label: "Outdoor temperature",
    simple_description: "How cold it is outside on average during the heating season.",
    expert_description: "Mean external air temperature over the heating season (not a design" +
      " minimum); sets the temperature difference Theta_i - Theta_e of the seasonal balance.",
    type: "number",
    min: -30,
    max: 30,
    // Seasonal means of inhabited climates; the data has -1.2 to 11.5 deg C. At or above the
    // set-point there is no heat loss and the demand is 0.
    override: { member: "Theta_e", min: -30, max: 30 },
  }),
  advanced({
    column: "theta_i",
    key: "Theta_i",
    group: "ClimateConditions",
    unit: "deg C",
    label: "Indoor temperature",
    simple_description: "The indoor temperature the heating keeps during heating hours.",
    expert_description: "Internal set-point temperature of the heated space during heating" +
      " (20 deg C in the EU boundary conditions); night setback and unheated parts are" +
      " accounted for by the reduction factor F_red_temp.",
    type: "number",
    min: 10,
    max: 30,
    // Heated rooms: from a frost-protected store to a very warm dwelling; the data has 20.
    override: { member: "theta_i", min: 10, max: 30 },
  }),
];

const ORIENTATIONS = [
  ["I_Sol_Hor", "I_Sol_Horizontal", "horizontal", "a horizontal surface"],
  ["I_Sol_East", "I_Sol_East", "east", "a vertical east-facing surface"],
  ["I_Sol_South", "I_Sol_South", "south", "a vertical south-facing surface"],
  ["I_Sol_West", "I_Sol_West", "west", "a vertical west-facing surface"],
  ["I_Sol_North", "I_Sol_North", "north", "a vertical north-facing surface"],
] as const;

const SOLAR: readonly ParameterSpec[] = [
  ...ORIENTATIONS.map(([column, key, name, surface]) =>
    advanced({
      column,
      key,
      group: "SolarGains",
      unit: "kWh/(m2.a)",
      label: `Solar radiation, ${name}`,
      simple_description: `How much solar energy reaches ${surface} during the heating season.`,
      expert_description: `Global solar radiation on ${surface}, summed over the heating` +
        " season, per m2 of surface; multiplied by the window area of that orientation, the" +
        " g-value and the reduction factors F_sh, (1 - F_f) and F_w for the solar gains (TABULA" +
        " values are kWh, not Wh, per m2 and year).",
      type: "number",
      min: 0,
      max: 2500,
      // Up to the sunniest sites' annual global radiation (~2,500 kWh/(m2.a)); the data has
      // 11 to 993 kWh/(m2.a) for the heating season.
      override: { member: column, min: 0, max: 2500 },
    })
  ),
  ...WINDOW_SLOTS.map((s) =>
    advanced({
      column: `g_gl_n_${s.slot}`,
      group: "SolarGains",
      unit: "-",
      label: `g-value, ${s.name}`,
      simple_description: `How much sunlight the glazing of the ${s.what} lets through.`,
      expert_description: `Total solar energy transmittance at normal incidence of the glazing` +
        ` of the ${s.what} in its original state; 0 where the slot is unused.`,
      type: "number",
      min: 0,
      max: 1,
    })
  ),
  advanced({
    column: "F_sh_hor",
    group: "SolarGains",
    unit: "-",
    label: "Shading factor, horizontal",
    simple_description: "How much of the sun on roof windows is lost to shading.",
    expert_description: "Reduction factor for external shading of horizontal windows (0.8 in" +
      " the EU boundary conditions).",
    type: "number",
    min: 0,
    max: 1,
  }),
  advanced({
    column: "F_sh_vert",
    group: "SolarGains",
    unit: "-",
    label: "Shading factor, vertical",
    simple_description: "How much of the sun on wall windows is lost to shading by neighbours," +
      " trees and reveals.",
    expert_description: "Reduction factor for external shading of vertical windows (0.6 in the" +
      " EU boundary conditions).",
    type: "number",
    min: 0,
    max: 1,
  }),
  advanced({
    column: "F_f",
    group: "SolarGains",
    unit: "-",
    label: "Frame fraction",
    simple_description: "Which share of the window area is frame rather than glass.",
    expert_description: "Frame area fraction of the windows; the glazed share (1 - F_f) admits" +
      " solar gains (0.3 in the EU boundary conditions).",
    type: "number",
    min: 0,
    max: 1,
  }),
  advanced({
    column: "F_w",
    group: "SolarGains",
    unit: "-",
    label: "Non-perpendicular incidence factor",
    simple_description: "Allowance for sunlight hitting the glass at an angle.",
    expert_description: "Reduction factor of the g-value for radiation that is not" +
      " perpendicular to the glazing (0.9 in the EU boundary conditions).",
    type: "number",
    min: 0,
    max: 1,
  }),
];

const BRIDGES: readonly ParameterSpec[] = [
  advanced({
    column: "Code_ThermalBridging_Original",
    group: "ThermalBridges",
    unit: "-",
    label: "Thermal-bridging class, original",
    simple_description: "How much heat leaks at corners and junctions of the original building.",
    expert_description: "Thermal-bridging class of the original envelope: Minimal, VeryLow, Low," +
      " Medium or High.",
    type: "string",
  }),
  advanced({
    column: "Code_ThermalBridging_Refurbished",
    group: "ThermalBridges",
    unit: "-",
    label: "Thermal-bridging class, refurbished",
    simple_description: "The same after the refurbishment measures of this variant.",
    expert_description: "Thermal-bridging class of the refurbished envelope parts (Minimal," +
      " VeryLow, Low, Medium, High); 0 where no refurbished class applies.",
    type: "string",
  }),
  advanced({
    column: "delta_U_ThermalBridging_Original",
    key: "Delta_U_ThermalBridging_Original",
    group: "ThermalBridges",
    unit: "W/(m2.K)",
    label: "Thermal-bridging surcharge, original",
    simple_description: "Extra heat loss through corners and junctions, for the building as it" +
      " was built.",
    expert_description: "Surcharge on the U-values of the whole envelope area for thermal" +
      " bridges of the original construction (standard values 0 minimal, 0.02 very low, 0.05" +
      " low, 0.10 medium, 0.15 high; for areas by external dimensions).",
    type: "number",
    min: 0,
    max: 1,
    // TABULA's classes end at 0.15 (high), as the data does; 1 leaves room for poor details.
    override: { member: "delta_U_ThermalBridging_Original", min: 0, max: 1 },
  }),
  advanced({
    column: "delta_U_ThermalBridging_Refurbished",
    key: "Delta_U_ThermalBridging_Refurbished",
    group: "ThermalBridges",
    unit: "W/(m2.K)",
    label: "Thermal-bridging surcharge, refurbished",
    simple_description: "Extra heat loss through corners and junctions of the refurbished parts.",
    expert_description: "Surcharge on the U-values for thermal bridges of refurbished envelope" +
      " parts; the applied surcharge is the mean of original and refurbished values weighted by" +
      " the refurbished fraction of the envelope area.",
    type: "number",
    min: 0,
    max: 1,
    override: { member: "delta_U_ThermalBridging_Refurbished", min: 0, max: 1 },
  }),
];

const AIR: readonly ParameterSpec[] = [
  advanced({
    column: "Code_Infiltration_Actual",
    group: "AirInfiltration",
    unit: "-",
    label: "Air-tightness class",
    simple_description: "How draughty the building envelope is.",
    expert_description: "Air-tightness class of the envelope in this variant (Minimal, Low," +
      " Medium, High), which sets n_air_infiltration.",
    type: "string",
  }),
  advanced({
    column: "n_air_infiltration",
    key: "N_air_infiltration",
    group: "AirInfiltration",
    unit: "1/h",
    label: "Infiltration air change rate",
    simple_description: "How much outside air leaks in through gaps and cracks.",
    expert_description: "Air change rate by infiltration through the envelope; adds to" +
      " n_air_use in the ventilation heat transfer h_ve = 0.34 Wh/(m3.K) x (n_air_use +" +
      " n_air_infiltration) x h_room.",
    type: "number",
    min: 0,
    max: 10,
    // From an airtight envelope to a very leaky one; the data has 0.05 to 0.4 1/h.
    override: { member: "n_air_infiltration", min: 0, max: 10 },
  }),
  advanced({
    column: "n_air_use",
    key: "N_air_use",
    group: "AirInfiltration",
    unit: "1/h",
    label: "Ventilation air change rate",
    simple_description: "How often the indoor air is renewed through normal use, such as" +
      " opening windows.",
    expert_description: "Air change rate due to use (window ventilation or ventilation system)," +
      " 0.4 1/h in the EU boundary conditions.",
    type: "number",
    min: 0,
    max: 10,
    // The data has 0.4 1/h; 10 1/h is far beyond any dwelling's ventilation.
    override: { member: "n_air_use", min: 0, max: 10 },
  }),
];

const HEAT_TRANSFER: readonly ParameterSpec[] = [
  advanced({
    column: "c_m",
    key: "C_m",
    group: "HeatTransfer",
    unit: "Wh/(m2.K)",
    label: "Internal heat capacity",
    simple_description: "How much heat the building's structure can store; heavy buildings" +
      " store more.",
    expert_description: "Internal heat capacity per m2 reference area (45 Wh/(m2.K) = medium" +
      " class in the TABULA data). Gives the time constant tau = c_m / (h_tr + h_ve) in hours" +
      " and with it the gain utilisation factor of the EN ISO 13790 seasonal method (TABULA" +
      " values are Wh, not J, per m2 and K).",
    type: "number",
    min: 0,
    exclusiveMin: true,
    max: 1000,
    // Below EN ISO 13790's "very light" class (80 kJ/(m2.K) = 22 Wh/(m2.K)) and above its
    // "very heavy" (103 Wh/(m2.K)) with room; the data has 45 Wh/(m2.K).
    override: { member: "c_m", min: 10, max: 1000 },
  }),
  advanced({
    column: "F_red_htr1",
    group: "HeatTransfer",
    unit: "-",
    label: "Temperature reduction factor, h_tr = 1",
    simple_description: "Allowance for night setback and unheated rooms in a well-insulated" +
      " building.",
    expert_description: "Temperature reduction factor F_red_temp (night setback, partly heated" +
      " space) for a transmission heat transfer coefficient h_tr of 1 W/(m2.K) per m2 reference" +
      " area; linear interpolation with F_red_htr4 between h_tr = 1 and 4.",
    type: "number",
    min: 0,
    max: 1,
  }),
  advanced({
    column: "F_red_htr4",
    group: "HeatTransfer",
    unit: "-",
    label: "Temperature reduction factor, h_tr = 4",
    simple_description: "The same allowance for a poorly insulated building.",
    expert_description: "Temperature reduction factor F_red_temp at a transmission heat transfer" +
      " coefficient h_tr of 4 W/(m2.K) per m2 reference area and above.",
    type: "number",
    min: 0,
    max: 1,
  }),
];

const BOUNDARY: readonly ParameterSpec[] = [
  advanced({
    column: "Code_BoundaryCond",
    group: "BoundaryConditions",
    unit: "-",
    label: "Boundary-condition set",
    simple_description: "Which standard assumptions on use (indoor temperature, gains, hot" +
      " water) apply.",
    expert_description: "Code of the usage boundary-condition set (EU.SUH single-unit houses," +
      " EU.MUH multi-unit houses) that supplies theta_i, F_red_htr1/4, n_air_use, h_room," +
      " phi_int, q_w_nd and the solar reduction factors.",
    type: "string",
  }),
  advanced({
    column: "phi_int",
    key: "Phi_int",
    group: "BoundaryConditions",
    unit: "W/m2",
    label: "Internal heat gains",
    simple_description: "Heat given off indoors by people, appliances and lighting.",
    expert_description: "Mean internal heat gains per m2 reference area during the heating" +
      " season; q_int = 0.024 x phi_int x HeatingDays in kWh/(m2.a).",
    type: "number",
    min: 0,
    max: 50,
  }),
  advanced({
    column: "q_w_nd",
    key: "Q_w_nd",
    group: "BoundaryConditions",
    unit: "kWh/(m2.a)",
    label: "Hot-water energy need",
    simple_description: "Energy needed for hot tap water per m2 and year.",
    expert_description: "Energy need for domestic hot water per m2 reference area and year; not" +
      " part of the space-heating need q_h_nd.",
    type: "number",
    min: 0,
    max: 200,
  }),
];

/** Climate, solar, thermal-bridge, air, heat-transfer and boundary-condition entries. */
export const CONDITION_PARAMETERS: readonly ParameterSpec[] = [
  ...CLIMATE,
  ...SOLAR,
  ...BRIDGES,
  ...AIR,
  ...HEAT_TRANSFER,
  ...BOUNDARY,
];
