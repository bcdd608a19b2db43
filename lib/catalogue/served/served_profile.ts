/**
 * An hourly profile as the catalogue serves it: the metadata of a catalogue file or of an
 * approved submission with every member present (null where the source has none), and where it
 * comes from. The zod schemas are the one declaration of these shapes; the server names them in
 * its OpenAPI document.
 */
import { z } from "zod";
import { type CatalogueProfile, profileMetadataSchema } from "../../profiles/profile_schema.ts";

/** Where a served profile comes from. */
export const PROFILE_ORIGINS = ["catalogue", "submission"] as const;

/** Where a served profile comes from. */
export type ProfileOrigin = typeof PROFILE_ORIGINS[number];

/** Profile metadata as served: a member the source lacks is null. */
export const servedProfileMetadataSchema = z.object({
  profile_id: profileMetadataSchema.shape.profile_id,
  name: profileMetadataSchema.shape.name,
  type: z.string().nullable().describe("`capacity_factor`, `load`, `price`, ...; null if unknown"),
  resolution: z.string().describe("Step length, e.g. `1h`"),
  location: z.string().nullable().describe("Country or region code; null if unknown"),
  carrier: z.string().nullable().describe("Energy carrier; null if unknown"),
  year: z.number().int().nullable().describe("Data year; null if unknown"),
  n_timesteps: z.number().int().describe("Number of steps, equal to the number of values"),
  source: z.string().nullable().describe("Source reference; null if unknown"),
  unit: z.string().nullable().describe("Unit of the values; null if unknown"),
  start: z.string().nullable().describe("Start of the first step, UTC; null if unknown"),
  end: z.string().nullable().describe("Start of the last step, UTC; null if unknown"),
  notes: z.array(z.string()).describe("What was done to the source data"),
  origin: z.enum(PROFILE_ORIGINS).describe(
    "`catalogue`: from the data files; `submission`: an approved contributor submission",
  ),
});

/** Profile metadata as served. */
export type ServedProfileMetadata = z.infer<typeof servedProfileMetadataSchema>;

/** The values of a served profile. */
export const servedValuesSchema = z.array(z.number()).describe("One value per step");

/** A full served profile: the metadata and one value per step. */
export const servedProfileSchema = servedProfileMetadataSchema.extend({
  values: servedValuesSchema,
});

/** A full served profile. */
export type ServedProfile = z.infer<typeof servedProfileSchema>;

/** The served form of a catalogue file's profile. */
export function serveCatalogueProfile(p: CatalogueProfile): ServedProfile {
  return {
    profile_id: p.profile_id,
    name: p.name,
    type: p.type,
    resolution: p.resolution,
    location: p.location,
    carrier: p.carrier,
    year: p.year,
    n_timesteps: p.n_timesteps,
    source: p.source,
    unit: p.unit,
    start: p.start,
    end: p.end,
    notes: p.notes,
    origin: "catalogue",
    values: p.values,
  };
}

/** The metadata of a full profile (without `values`). */
export function profileMetadata(profile: ServedProfile): ServedProfileMetadata {
  const { values: _values, ...metadata } = profile;
  return metadata;
}
