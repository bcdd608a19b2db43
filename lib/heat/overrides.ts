/**
 * Calculation overrides: the optional members a caller may send to replace archetype inputs.
 *
 * One zod schema gives the request validation, the TypeScript type and the OpenAPI document.
 * Unknown members are rejected (strict), so a misspelt `theta_e` is an error, not a silent no-op.
 */
import { z } from "@hono/zod-openapi";

/** Element categories a caller-supplied surface may belong to. */
export const SURFACE_TYPES = ["roof", "wall", "floor", "window", "door"] as const;
export type SurfaceType = (typeof SURFACE_TYPES)[number];

/** One physical surface of the building, replacing the archetype slots of its category. */
export const surfaceSchema = z
  .strictObject({
    id: z.string().describe("Caller-assigned identifier, used only in error messages"),
    type: z.enum(SURFACE_TYPES).describe("Element category"),
    area: z.number().positive().describe("Area, m2 (> 0)"),
    u_value: z.number().positive().describe("Thermal transmittance, W/(m2.K) (> 0)"),
    azimuth: z.number().optional().describe(
      "Degrees, 0 = N, 90 = E, 180 = S, 270 = W; windows only; default 180 (South)",
    ),
    tilt: z.number().optional().describe(
      "Degrees from horizontal, 0 = flat skylight, 90 = vertical; windows only",
    ),
  })
  .openapi("Surface");
export type Surface = z.infer<typeof surfaceSchema>;

const nonNegative = (what: string) => z.number().nonnegative().optional().describe(what);
const positive = (what: string) => z.number().positive().optional().describe(what);

/** The CalculateRequest body: every member optional, an omitted member keeps the archetype value. */
export const overridesSchema = z
  .strictObject({
    A_ref: positive("Reference floor area A_C_Ref, m2 (> 0)"),
    HeatingDays: z.number().int().nonnegative().optional().describe(
      "Length of the heating season, days (integer >= 0)",
    ),
    Theta_e: z.number().optional().describe(
      "Mean external temperature of the heating season, deg C",
    ),
    theta_i: z.number().optional().describe("Internal set-point temperature, deg C"),
    I_Sol_South: nonNegative("Solar radiation on south-facing vertical surfaces, kWh/(m2.a)"),
    I_Sol_East: nonNegative("Solar radiation on east-facing vertical surfaces, kWh/(m2.a)"),
    I_Sol_West: nonNegative("Solar radiation on west-facing vertical surfaces, kWh/(m2.a)"),
    I_Sol_North: nonNegative("Solar radiation on north-facing vertical surfaces, kWh/(m2.a)"),
    I_Sol_Hor: nonNegative("Solar radiation on horizontal surfaces, kWh/(m2.a)"),
    delta_U_ThermalBridging_Original: nonNegative(
      "Thermal-bridging surcharge of the original state, W/(m2.K), on the whole envelope area",
    ),
    delta_U_ThermalBridging_Refurbished: nonNegative(
      "Thermal-bridging surcharge of the refurbished state, W/(m2.K), on the whole envelope area",
    ),
    h_room: positive("Room height used for the ventilation heat transfer, m (> 0)"),
    n_Storey: z.number().int().positive().optional().describe(
      "Number of storeys (integer > 0); scales the archetype areas through TABULA's envelope estimation",
    ),
    n_air_infiltration: nonNegative("Air change rate by infiltration, 1/h"),
    n_air_use: nonNegative("Air change rate by use, 1/h"),
    c_m: positive("Internal heat capacity per m2 reference area, Wh/(m2.K) (> 0)"),
    surfaces: z.array(surfaceSchema).optional().describe(
      "Physical surfaces; each listed category replaces the archetype slots of that category",
    ),
  })
  .openapi("CalculateRequest");
export type Overrides = z.infer<typeof overridesSchema>;
