/**
 * The ModelConfig's `parameters.time`, shaped as Calliope 0.6.10's `model.time`: masks that keep
 * some timesteps at full resolution, then one time function on the rest, each with exactly
 * Calliope's options (`calliope/time/masks.py`, `funcs.py`, `clustering.py`). An option
 * Calliope does not have is refused by name, never dropped.
 */
import { z } from "zod";

/** A strict object: an unknown key is named, with the ones `what` takes. */
function strict<T extends z.ZodRawShape>(what: string, shape: T, noun = "option") {
  const names = Object.keys(shape).join(", ");
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown ${noun}(s) ${issue.keys.join(", ")}: ${what} takes ${names}`
        : undefined,
  });
}

/** Strict options of a function. */
const options = <T extends z.ZodRawShape>(what: string, shape: T) => strict(what, shape);

/** A strict entry of the settings (a mask, or `parameters.time` itself). */
const entry = <T extends z.ZodRawShape>(what: string, shape: T) => strict(what, shape, "key");

const names = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

/** Which series a mask reads, besides its tech. */
const selection = {
  var: z.string().min(1).optional().describe("Calliope's variable to read (default resource)"),
  locs: names.optional().describe("Only these locations of the tech (default: all, averaged)"),
  costs: names.optional().describe("cost_* variables only: only these cost classes"),
};

/** What `extreme` and `extreme_diff` share. */
const extremeSettings = {
  ...selection,
  how: z.enum(["max", "min"]).optional().describe("Largest (default) or smallest periods"),
  length: z.string().min(1).optional().describe("Length of each period (pandas, default 1D)"),
  n: z.number().int().min(1).optional().describe("How many periods (default 1)"),
  groupby_length: z.string().min(1).optional().describe(
    "Look for n periods within each group of this length (1D..., W, M)",
  ),
  padding: z.string().min(1).optional().describe(
    "Time added either side of each period (pandas, e.g. 12H), or calendar_week",
  ),
  normalize: z.boolean().optional().describe("Normalise each tech's series first (default true)"),
};

/** One entry of `masks`. */
export const maskSchema = z.discriminatedUnion("function", [
  entry("a mask", {
    function: z.literal("zero"),
    options: options("zero", { tech: z.string().min(1), ...selection }),
  }),
  entry("a mask", {
    function: z.literal("extreme"),
    options: options("extreme", { tech: z.string().min(1), ...extremeSettings }),
  }),
  entry("a mask", {
    function: z.literal("extreme_diff"),
    options: options("extreme_diff", {
      tech0: z.string().min(1),
      tech1: z.string().min(1),
      ...extremeSettings,
    }),
  }),
]);
export type MaskConfig = z.infer<typeof maskSchema>;

const masks = z.array(maskSchema).optional().describe(
  "Timesteps to keep at full resolution (their union); the function handles the rest",
);

/** Calliope's resample: only `resolution`. */
export const resampleOptionsSchema = options("resample", {
  resolution: z.string().min(1).describe("New step length (pandas frequency: 2H, 30min, 1D)"),
});

/** Calliope's apply_clustering options (and get_clusters' k, variables, tech). */
export const clusteringOptionsSchema = options("apply_clustering", {
  clustering_func: z.string().regex(
    /^(kmeans|hierarchical|file=.+)$/,
    "clustering_func is kmeans, hierarchical or file=FILE.csv:COLUMN",
  ),
  how: z.enum(["mean", "closest"]).describe(
    "Each cluster's day: the mean of its days, or the day closest to that mean",
  ),
  k: z.number().int().min(1).optional().describe("Number of clusters"),
  normalize: z.boolean().optional().describe("Normalise the series before clustering"),
  scale_clusters: z.enum(["mean", "sum", "max", "min"]).nullable().optional().describe(
    "Scale each clustered series to match this statistic of the original (null: do not)",
  ),
  storage_inter_cluster: z.boolean().optional().describe(
    "Carry storage across the chronology of days",
  ),
  variables: names.optional().describe("Cluster on these variables only"),
  tech: names.optional().describe("Cluster on these techs only"),
});

/** Calliope's drop: the timesteps to remove (without masks), their weight spread on the rest. */
export const dropOptionsSchema = options("drop", {
  timesteps: z.array(z.string().min(1)).min(1).optional().describe(
    "Timesteps to drop; with masks and no timesteps, every timestep the masks did not pick",
  ),
});

/**
 * `parameters.time`: masks, then one time function on the timesteps they did not pick. Without
 * a function (left out, or null), masks change nothing, as in Calliope (`{}` is its default).
 * Free of transforms and `undefined` literals, so it renders as JSON Schema.
 */
export const timeConfigSchema = z.discriminatedUnion("function", [
  entry("parameters.time", {
    masks,
    function: z.literal("resample"),
    function_options: resampleOptionsSchema,
  }),
  entry("parameters.time", {
    masks,
    function: z.literal("apply_clustering"),
    function_options: clusteringOptionsSchema,
  }),
  entry("parameters.time", {
    masks,
    function: z.literal("drop"),
    function_options: dropOptionsSchema.optional(),
  }),
  entry("parameters.time without a function", { masks, function: z.null().optional() }),
]);
export type TimeConfig = z.infer<typeof timeConfigSchema>;
