/**
 * A section of a Calliope model kept in Calliope's shape in the ModelConfig (`model.time`,
 * `run.operation`, `run.spores_options`): its JSON when its schema accepts it, otherwise every
 * problem reported at its Calliope path.
 */
import type { z } from "zod";
import { type AttrValue, type Json, toJson } from "./calliope_yaml.ts";
import { formatPath, type ReportProblem as Report } from "../model_problem.ts";

/** `value` as JSON when `schema` accepts it (undefined otherwise); problems under `at`. */
export function checkedSection(
  value: AttrValue,
  schema: z.ZodType,
  at: string,
  problem: Report,
): Json | undefined {
  const json = toJson(value);
  const parsed = schema.safeParse(json);
  for (const issue of parsed.error?.issues ?? []) {
    problem(formatPath([...at.split("."), ...issue.path]), issue.message);
  }
  return parsed.success ? json : undefined;
}
