/**
 * JSON Schema documents for the catalogue's data files, generated from the zod schemas, so that
 * editors and other tools can check `catalogues/profiles/*.json` without this code. Rules zod
 * keeps as refinements (capacity factors in [0, 1], `n_timesteps` equal to the number of values)
 * cannot be expressed there; the descriptions name them.
 */
import { z } from "zod";
import { catalogueProfileSchema, profileIndexSchema } from "./profile_schema.ts";

function document(schema: z.ZodType, title: string, description: string): string {
  const { $schema, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
  return JSON.stringify({ $schema, title, description, ...rest }, null, 2) + "\n";
}

/** The schema files by name, as written to `data/schemas/`. */
export function profileJsonSchemaFiles(): Record<string, string> {
  return {
    "profile.schema.json": document(
      catalogueProfileSchema,
      "Profile file",
      "One hourly profile of the catalogue, catalogues/profiles/<profile_id>.json: metadata " +
        "plus values. Also checked by the pipeline, not expressible here: n_timesteps equals " +
        "the number of values; values of type capacity_factor lie within [0, 1]; end is not " +
        "before start.",
    ),
    "profile_index.schema.json": document(
      profileIndexSchema,
      "Profile catalogue index",
      "catalogues/profiles/index.json: the metadata of every profile file and the series " +
        "that are not published. Also checked by the pipeline: every entry has its file with " +
        "the same metadata, and every file has an entry.",
    ),
  };
}
