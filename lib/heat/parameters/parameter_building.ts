/**
 * TABULA parameters that identify and classify a building variant and describe its shape:
 * groups Identification, Classification, BuildingAppearance, SolarPotential (basic) and
 * EnvelopeAreaEstimation (advanced).
 */
import { parameter, type ParameterInput, type ParameterSpec } from "./parameter_spec.ts";

/** Variant code: country, variant set, size class, period, subtype, data type, building, variant. */
export const VARIANT_CODE_PATTERN = /^[A-Z]{2}(\.[A-Za-z0-9-]+)+\.\d{3}\.\d{3}$/;

/** Building size classes of the TABULA typologies. */
export const SIZE_CLASSES = ["SFH", "TH", "MFH", "AB"] as const;

const text = (column: string, label: string, simple: string, expert: string) => ({
  column,
  unit: "-",
  label,
  simple_description: simple,
  expert_description: expert,
  type: "string" as const,
});

/** An entry before its parent and group are set. */
type Entry = Omit<ParameterInput, "parent" | "group">;

const identification = (p: Entry) =>
  parameter({ ...p, parent: "BasicParameters", group: "Identification" });
const classification = (p: Entry) =>
  parameter({ ...p, parent: "BasicParameters", group: "Classification" });
const appearance = (p: Entry) =>
  parameter({ ...p, parent: "BasicParameters", group: "BuildingAppearance" });

const IDENTIFICATION: readonly ParameterSpec[] = [
  identification({
    ...text(
      "Code_BuildingVariant",
      "Variant code",
      "The unique code of this building variant; its first two letters are the country.",
      "TABULA building-variant code <country>.<variant set>.<size class>.<period>.<subtype>." +
        "<data type>.<building no.>.<variant no.>, e.g. DE.N.SFH.02.Gen.ReEx.001.002; the last" +
        " group numbers the refurbishment variants of one example building (001 = existing state).",
    ),
    required: true,
    pattern: VARIANT_CODE_PATTERN,
  }),
  identification(text(
    "Remark_BuildingVariant_1",
    "Remark 1",
    "A free-text remark on the variant, if any.",
    "First free-text remark of the data-set author on the variant; 0 where there is none.",
  )),
  identification(text(
    "Remark_BuildingVariant_2",
    "Remark 2",
    "A second free-text remark on the variant, if any.",
    "Second free-text remark of the data-set author on the variant; 0 where there is none.",
  )),
  identification(text(
    "Date_Entry",
    "Entry date",
    "When the variant was first entered in the TABULA database.",
    "Date the data set was entered (YYYY-MM-DD); empty where not recorded.",
  )),
  identification(text(
    "Date_Change",
    "Change date",
    "When the variant was last changed in the TABULA database.",
    "Date of the last change of the data set (YYYY-MM-DD); empty where never changed.",
  )),
  identification(text(
    "Code_StatusDataset",
    "Data-set status",
    "Whether the variant belongs to the published typology or to an analysis or test.",
    "Status of the data set in the TABULA database: Typology (national typology), Analysis," +
      " Demonstration or Test.",
  )),
  identification({
    ...text(
      "Code_Country",
      "Country code",
      "The country the building type belongs to.",
      "ISO 3166-1 alpha-2 country code; equals the first two characters of the variant code.",
    ),
    required: true,
    pattern: /^[A-Z]{2}$/,
  }),
  identification({
    ...text(
      "Number_BuildingVariant",
      "Variant number",
      "The running number of this variant for its example building.",
      "Serial number of the variant within its example building, as in the last group of the" +
        " variant code (1 = existing state, higher numbers = refurbishment variants).",
    ),
    type: "integer",
    min: 1,
  }),
  identification(text(
    "Code_TypeVariant",
    "Variant type",
    "Whether the variant is a refurbishment of the building or another variation of it.",
    "Kind of variant: Refurbishment (energy-saving measures applied to the existing building) or" +
      " Variation (other change of the input data, e.g. a different thermal-bridging class).",
  )),
  identification({
    ...text(
      "Code_Building",
      "Example building code",
      "The example building this variant belongs to.",
      "Code of the example building: the variant code without the variant number.",
    ),
    required: true,
  }),
  identification(text(
    "Description_BuildingVariant",
    "Description",
    "A short English description of the variant, e.g. its refurbishment level.",
    "English description of the variant (e.g. existing state, usual or advanced refurbishment);" +
      " 0 where none was given.",
  )),
  identification(text(
    "Description_BuildingVariant_National",
    "National description",
    "The same description in the country's own language.",
    "Description of the variant in the national language; 0 where none was given.",
  )),
];

const CLASSIFICATION: readonly ParameterSpec[] = [
  classification(text(
    "Code_BuildingType",
    "Building type code",
    "The building type this variant represents, e.g. a German single-family house of 1919-1948.",
    "TABULA building-type code <country>.<variant set>.<size class>.<period>.<subtype>, e.g." +
      " DE.N.SFH.03.Gen.",
  )),
  classification(text(
    "Code_DataType_Building",
    "Data type",
    "Whether the data describe a real example building or a statistical average.",
    "Origin of the building data: ReEx real example building, ReAv real average, SyAv synthetic" +
      " average, SyHy synthetic hypothetical building.",
  )),
  classification({
    ...text(
      "Code_BuildingSizeClass",
      "Size class",
      "The kind of house: single-family, terraced, multi-family or apartment block.",
      "TABULA building size class: SFH single-family house, TH terraced house, MFH multi-family" +
        " house, AB apartment block.",
    ),
    required: true,
    values: SIZE_CLASSES,
  }),
  classification(text(
    "Code_ConstructionYearClass",
    "Construction period code",
    "The national construction period the building type stands for.",
    "Code of the construction-year class, <country>.<nn>, numbered from the oldest band.",
  )),
  classification({
    ...text(
      "Year1_Building",
      "Period start year",
      "First year of the construction period.",
      "First year of the construction-year class; 0 means open-ended (oldest band).",
    ),
    unit: "year",
    type: "integer",
    min: 0,
    max: 9999,
  }),
  classification({
    ...text(
      "Year2_Building",
      "Period end year",
      "Last year of the construction period.",
      "Last year of the construction-year class; 9999 means open-ended (newest band).",
    ),
    unit: "year",
    type: "integer",
    min: 0,
    max: 9999,
  }),
  classification(text(
    "Code_UtilisationType",
    "Utilisation type",
    "How the building is used, e.g. a single family or several apartments.",
    "Utilisation type of the building: SingleFamily, Apartment or Residential.",
  )),
];

const APPEARANCE: readonly ParameterSpec[] = [
  appearance({
    ...text(
      "n_Storey",
      "Number of storeys",
      "How many full storeys the heated part of the building has.",
      "Number of full (conditioned) storeys, attic and cellar excluded; feeds the envelope-area" +
        " estimation (effective storeys = n_Storey + attic and cellar shares). Some types have a" +
        " half storey (e.g. 1.5).",
    ),
    key: "N_Storey",
    type: "number",
    min: 0,
    exclusiveMin: true,
    max: 100,
    // One storey to the tallest towers; the data has 1 to 27, half storeys included.
    override: {
      member: "n_Storey",
      min: 1,
      max: 100,
      description: "Number of full storeys (half storeys allowed, e.g. 1.5); scales the" +
        " archetype areas through TABULA's envelope estimation.",
    },
  }),
  appearance({
    ...text(
      "h_room",
      "Room height",
      "The room height used to turn air changes into ventilation heat loss.",
      "Reference room height for the air-exchange rate: the ventilation heat transfer" +
        " coefficient per m2 reference area is h_ve = 0.34 Wh/(m3.K) x (n_air_use +" +
        " n_air_infiltration) x h_room (2.5 m in the EU boundary conditions).",
    ),
    key: "H_room",
    unit: "m",
    type: "number",
    min: 0,
    exclusiveMin: true,
    max: 10,
    // A room one can stand in, up to a hall; the data has 2.5 m.
    override: { member: "h_room", min: 1, max: 10 },
  }),
  appearance({
    ...text(
      "n_Apartment",
      "Number of dwellings",
      "How many apartments or dwellings the building contains.",
      "Number of dwelling units in the example building (1 for single-family and terraced" +
        " houses).",
    ),
    type: "integer",
    min: 0,
  }),
  appearance({
    ...text(
      "h_Ceiling",
      "Ceiling height",
      "The typical room height of the storeys, where given.",
      "Room (ceiling) height of the storeys of the example building; 0 where not given.",
    ),
    unit: "m",
    type: "number",
    min: 0,
    max: 10,
  }),
  appearance(text(
    "Code_RoofType",
    "Roof type",
    "Whether the building has a flat or a pitched roof.",
    "Roof type code: FR flat roof, TR tilted (pitched) roof, UC other national code; 0 where not" +
      " given. Used by the envelope-area estimation.",
  )),
  appearance(text(
    "Code_AtticCond",
    "Attic condition",
    "Whether the attic is heated, partly heated or unheated, or there is none.",
    "Condition of the attic: C conditioned, P partly conditioned, N not conditioned, NI / PI not" +
      " or partly conditioned but inside the insulated envelope, - no attic; sets the roof and" +
      " ceiling parameters of the envelope-area estimation.",
  )),
  appearance(text(
    "Code_CellarCond",
    "Cellar condition",
    "Whether the cellar is heated, partly heated or unheated, or there is none.",
    "Condition of the cellar: C conditioned, P partly conditioned, N not conditioned, NI not" +
      " conditioned but inside the insulated envelope, - no cellar; sets the floor and" +
      " basement-wall parameters of the envelope-area estimation.",
  )),
  appearance(text(
    "Code_AttachedNeighbours",
    "Attached neighbours",
    "Whether the house stands alone or shares walls with one or two neighbours.",
    "Attached neighbouring buildings: B_Alone detached, B_N1 one neighbour, B_N2 two neighbours;" +
      " reduces the estimated external wall area.",
  )),
  appearance(text(
    "Code_ComplexFootprint",
    "Footprint complexity",
    "Whether the floor plan is a simple rectangle or more articulated.",
    "Complexity of the footprint (Simple or Standard; 0 where not given); scales the estimated" +
      " wall area by the factor f_ComplexFootprint.",
  )),
  appearance(text(
    "Code_ComplexRoof",
    "Roof complexity",
    "Whether the roof shape is simple or more articulated (dormers, valleys).",
    "Complexity of the roof (Simple or Standard; 0 where not given); scales the estimated roof" +
      " area by the factor f_ComplexRoof.",
  )),
];

const solar = (n: 1 | 2): ParameterSpec[] => {
  const which = n === 1 ? "first" : "second";
  const base = { parent: "BasicParameters" as const, group: "SolarPotential" };
  return [
    parameter({
      ...base,
      ...text(
        `A_SolarPotential_${n}`,
        `Solar roof area ${n}`,
        `Area of the ${which} roof surface that could carry solar collectors or PV panels.`,
        `Area of the ${which} roof surface suitable for solar thermal collectors or photovoltaics;` +
          " 0 where none is given.",
      ),
      unit: "m2",
      type: "number",
      min: 0,
    }),
    parameter({
      ...base,
      ...text(
        `Code_Orientation_SolarPotential_${n}`,
        `Solar roof orientation ${n}`,
        `Which way the ${which} solar roof surface faces.`,
        `Orientation of the ${which} solar-suitable roof surface (South, SouthWest, East, West,` +
          " North; - or 0 where none).",
      ),
    }),
    parameter({
      ...base,
      ...text(
        `Inclination_SolarPotential_${n}`,
        `Solar roof tilt ${n}`,
        `How steep the ${which} solar roof surface is.`,
        `Tilt of the ${which} solar-suitable roof surface from the horizontal.`,
      ),
      unit: "deg",
      type: "number",
      min: 0,
      max: 90,
    }),
  ];
};

const estimation = (
  column: string,
  label: string,
  simple: string,
  expert: string,
  range?: { min: number; max?: number },
): ParameterSpec =>
  parameter({
    ...text(column, label, simple, expert),
    parent: "AdvancedParameters",
    group: "EnvelopeAreaEstimation",
    ...(range ? { type: "number" as const, ...range } : {}),
  });

const plausi = (what: string, bound: "Lower" | "Upper", typical: string): ParameterSpec =>
  estimation(
    `f_PlausiCrit_${what}_${bound}Limit`,
    `Plausibility ${bound.toLowerCase()} limit, ${what.replace("EnvSum", "total envelope")}`,
    `How far the entered ${
      what === "EnvSum" ? "envelope" : what.replace("Area", "").toLowerCase()
    }` +
      ` area may fall ${bound === "Lower" ? "below" : "above"} the estimated one before it is` +
      " flagged.",
    `${bound} limit of the ratio entered / estimated ${
      what === "EnvSum"
        ? "total envelope area"
        : what === "FloorArea"
        ? "floor area"
        : "window area"
    } in TABULA's plausibility check of manual envelope areas (typically ${typical}; 0 = not set).`,
    { min: 0 },
  );

const ESTIMATION: readonly ParameterSpec[] = [
  estimation(
    "Code_TypeIntake_EnvelopeArea",
    "Envelope area intake",
    "Whether the envelope areas were entered by hand or estimated from the floor area.",
    "How the calculation takes the envelope areas: Manual = the areas A_* of this data set," +
      " Estimation = areas estimated from the reference floor area, storeys and the attic," +
      " cellar, neighbour and complexity codes.",
  ),
  estimation(
    "f_Corr_CeilingHeight",
    "Ceiling-height correction",
    "Correction of the estimated wall area for unusually high or low storeys.",
    "Correction factor of the envelope-area estimation for storey heights that differ from the" +
      " standard (1 = standard height).",
    { min: 0 },
  ),
  plausi("EnvSum", "Lower", "0.8"),
  plausi("EnvSum", "Upper", "1.25"),
  plausi("FloorArea", "Lower", "0.9"),
  plausi("FloorArea", "Upper", "1.3"),
  plausi("WindowArea", "Lower", "0.67"),
  plausi("WindowArea", "Upper", "1.5"),
];

/** Identification, classification, appearance, solar potential and area-estimation entries. */
export const BUILDING_PARAMETERS: readonly ParameterSpec[] = [
  ...IDENTIFICATION,
  ...CLASSIFICATION,
  ...APPEARANCE,
  ...solar(1),
  ...solar(2),
  ...ESTIMATION,
];
