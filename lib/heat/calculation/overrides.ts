/**
 * Calculation overrides: the optional members a caller may send to replace archetype inputs.
 *
 * One zod schema gives the request validation, the TypeScript type and the OpenAPI document.
 * Unknown members are rejected (strict), so a misspelt `theta_e` is an error, not a silent no-op.
 * Every number has physical bounds: those of the overrides live with their columns in the
 * parameter tables (`ParameterSpec.override`), those of the surfaces below.
 */
import { z } from "@hono/zod-openapi";
import { PARAMETERS } from "../parameters/parameter_list.ts";
import type { ParameterSpec } from "../parameters/parameter_spec.ts";

/** Element categories a caller-supplied surface may belong to. */
export const SURFACE_TYPES = ["roof", "wall", "floor", "window", "door"] as const;
export type SurfaceType = (typeof SURFACE_TYPES)[number];

/** Inclusive bounds of a number and their unit (`-` where there is none). */
export interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly unit: string;
}

/** The rule a value out of bounds breaks: "must be between 10 and 30 deg C". */
export function boundsRule({ min, max, unit }: Bounds): string {
  return `must be between ${min} and ${max}${unit === "-" ? "" : ` ${unit}`}`;
}

/** What a refused value probably meant, added to the bounds rule; undefined when nothing fits. */
type UnitHint = (value: number) => string | undefined;

/**
 * A finite number within `bounds`; both range issues carry boundsRule() as their message, and
 * `hint`'s reading of the value after it when there is one.
 */
function boundedNumber(bounds: Bounds, hint?: UnitHint) {
  const rule = boundsRule(bounds);
  const error = hint === undefined ? rule : (issue: { input?: unknown }) => {
    const meant = typeof issue.input === "number" ? hint(issue.input) : undefined;
    return meant === undefined ? rule : `${rule}; ${meant}`;
  };
  return z.number().gte(bounds.min, { error }).lte(bounds.max, { error });
}

/** Joules per watt-hour. */
const J_PER_WH = 3600;

/**
 * The spec labels c_m J/(m2.K); TABULA's data and this calculation use Wh/(m2.K) (45 =
 * medium), so a value that is in bounds once divided by 3,600 was most likely sent in J.
 */
function joulesHint(bounds: Bounds): UnitHint {
  return (value) => {
    const wh = value / J_PER_WH;
    if (!(wh >= bounds.min && wh <= bounds.max)) return undefined;
    return `${value} looks like J/(m2.K): that is ${Number(wh.toFixed(1))} Wh/(m2.K) after ` +
      "dividing by 3,600 (TABULA's unit is Wh/(m2.K), 45 = medium)";
  };
}

/**
 * Bounds of the surface members. A surface stands for real building parts: from a 10 x 10 cm
 * vent to 1 km2 of envelope (the data's slots have 0.82 to 14,623 m2); U from 0.01 W/(m2.K),
 * below the best built elements (the data's U after measures start at 0.046), up to the U-value
 * columns' own limit of 10 (single glazing is about 5.8); directions in degrees.
 */
export const SURFACE_BOUNDS = {
  area: { min: 0.01, max: 1_000_000, unit: "m2" },
  u_value: { min: 0.01, max: 10, unit: "W/(m2.K)" },
  azimuth: { min: 0, max: 360, unit: "deg" },
  tilt: { min: 0, max: 180, unit: "deg" },
} as const satisfies Record<string, Bounds>;

const withRange = (what: string, bounds: Bounds) =>
  `${what}; ${bounds.min} to ${bounds.max} ${bounds.unit}`;

/** An azimuth as 0 <= a < 360 deg. */
export function normalizedAzimuth(azimuth: number): number {
  return ((azimuth % 360) + 360) % 360;
}

const azimuthRule = boundsRule(SURFACE_BOUNDS.azimuth);

/** Whether a (possibly otherwise invalid) surface is a window with an azimuth out of bounds. */
function windowAzimuthOutOfBounds(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const { type, azimuth } = value as { type?: unknown; azimuth?: unknown };
  return type === "window" && typeof azimuth === "number" &&
    !(azimuth >= SURFACE_BOUNDS.azimuth.min && azimuth <= SURFACE_BOUNDS.azimuth.max);
}

/**
 * One physical surface of the building, replacing the archetype slots of its category. The
 * spec's azimuth is for windows only (it picks the solar-gain orientation), so windows keep its
 * bounds, while any number is taken on other surfaces (extraction tools send -1 for "none" on
 * roofs and floors), normalised to 0..360 and not used.
 */
export const surfaceSchema = z
  .strictObject({
    id: z.string().describe("Caller-assigned identifier, used only in error messages"),
    type: z.enum(SURFACE_TYPES).describe("Element category"),
    area: boundedNumber(SURFACE_BOUNDS.area).describe(withRange("Area", SURFACE_BOUNDS.area)),
    u_value: boundedNumber(SURFACE_BOUNDS.u_value).describe(
      withRange("Thermal transmittance", SURFACE_BOUNDS.u_value),
    ),
    azimuth: z.number().optional().describe(
      "Direction the surface faces, 0 = N, 90 = E, 180 = S, 270 = W; used for windows only " +
        `(default 180, South), where it must be ${SURFACE_BOUNDS.azimuth.min} to ` +
        `${SURFACE_BOUNDS.azimuth.max} ${SURFACE_BOUNDS.azimuth.unit}; on other surfaces any ` +
        "number is taken, normalised to 0..360 and not used",
    ),
    tilt: boundedNumber(SURFACE_BOUNDS.tilt).optional().describe(
      withRange(
        "Tilt from horizontal, 0 = flat skylight, 90 = vertical; windows only",
        SURFACE_BOUNDS.tilt,
      ),
    ),
  })
  // Checked also when other members are wrong, so that every problem is named at once.
  .refine((surface) => !windowAzimuthOutOfBounds(surface), {
    path: ["azimuth"],
    message: azimuthRule,
    when: (payload) => windowAzimuthOutOfBounds(payload.value),
  })
  .overwrite((surface) =>
    surface.type === "window" || surface.azimuth === undefined
      ? surface
      : { ...surface, azimuth: normalizedAzimuth(surface.azimuth) }
  )
  .openapi("Surface");
export type Surface = z.infer<typeof surfaceSchema>;

/** The numeric override members, in the order the request documents them. */
export const OVERRIDE_MEMBERS = [
  "A_ref",
  "HeatingDays",
  "Theta_e",
  "theta_i",
  "I_Sol_South",
  "I_Sol_East",
  "I_Sol_West",
  "I_Sol_North",
  "I_Sol_Hor",
  "delta_U_ThermalBridging_Original",
  "delta_U_ThermalBridging_Refurbished",
  "h_room",
  "n_Storey",
  "n_air_infiltration",
  "n_air_use",
  "c_m",
] as const;
export type OverrideMember = (typeof OVERRIDE_MEMBERS)[number];

/** A numeric override member with the column it replaces and its bounds. */
export interface OverrideField extends Bounds {
  readonly member: OverrideMember;
  /** The parameter whose value the member replaces. */
  readonly parameter: ParameterSpec;
  readonly description: string;
}

function overrideField(member: OverrideMember): OverrideField {
  const parameter = PARAMETERS.find((p) => p.override?.member === member);
  if (!parameter?.override) {
    throw new TypeError(`Override ${member} has no parameter entry with override.member`);
  }
  const { min, max, description } = parameter.override;
  return {
    member,
    parameter,
    min,
    max,
    unit: parameter.unit,
    description: `${parameter.label} (replaces ${parameter.key})` +
      `${parameter.unit === "-" ? "" : `, ${parameter.unit}`}; ${min} to ${max}. ` +
      (description ?? parameter.expert_description),
  };
}

/** Every numeric override with its bounds, read from the parameter tables. */
export const OVERRIDE_FIELDS: readonly OverrideField[] = OVERRIDE_MEMBERS.map(overrideField);

/** Readings of a refused value beyond its bounds, by member. */
const UNIT_HINTS: Partial<Record<OverrideMember, (field: OverrideField) => UnitHint>> = {
  c_m: joulesHint,
};

const numberMembers = Object.fromEntries(
  OVERRIDE_FIELDS.map((f) => [
    f.member,
    boundedNumber(f, UNIT_HINTS[f.member]?.(f)).optional().describe(f.description),
  ]),
) as Record<OverrideMember, z.ZodOptional<z.ZodNumber>>;

/** The CalculateRequest body: every member optional, an omitted member keeps the archetype value. */
export const overridesSchema = z
  .strictObject({
    ...numberMembers,
    surfaces: z.array(surfaceSchema).optional().describe(
      "Physical surfaces; each listed category replaces the archetype slots of that category",
    ),
  })
  .openapi("CalculateRequest");
export type Overrides = z.infer<typeof overridesSchema>;
