/**
 * An admin's edit of a served technology as OpenTech-DB's frontend sends it
 * (`PATCH /admin/technologies/{id}`), and the technology it makes: the members given replace the
 * technology's, the others stay; `instances`, when given, replace all instances.
 *
 * The frontend sends back the instances it was served, in the catalogue file form, edited in its
 * form: `capacity_mw` is its name for `typical_capacity_mw` (and replaces it when both are
 * there), `missing_fields` and the OpenTech-DB members served beside the flat fields
 * (`capex_per_kw`, ...) restate the flat fields and are dropped, and an empty reference text
 * means none. Any other member an instance has not is refused.
 *
 * `oeo_class` may be a full class IRI (it becomes `oeo_uri`, and `oeo_class` its last segment),
 * the class the technology has already (its last segment), an OEO class id such as
 * `OEO_00000311` (read as that class of the Open Energy Ontology), or empty or null for none;
 * any other name is refused, since no IRI can be told from it.
 */
import { z } from "zod";
import { jsonPath, normaliseCatalogueInstance } from "../loading/catalogue_file.ts";
import { opentechInstanceShape } from "../opentech/opentech_technology.ts";
import type { ServedTechnology } from "../served/served_technology.ts";
import {
  catalogueInstanceSchema,
  type Instance,
  iriLastSegment,
  type Technology,
  technologySchema,
} from "../schema/technology_schema.ts";

/** Body of `PATCH /admin/technologies/{id}`: the members to change. */
export const technologyPatchSchema = z.strictObject({
  technology_name: z.string().optional().describe("Display name; must not be empty"),
  carrier: z.string().optional().describe("Main energy carrier (lower-case snake_case)"),
  oeo_class: z.string().nullable().optional().describe(
    "Open Energy Ontology class: a full class IRI, an OEO class id such as `OEO_00000311`, or " +
      "empty or null for none",
  ),
  description: z.string().nullable().optional().describe("Text; empty or null for none"),
  instances: z.array(z.record(z.string(), z.unknown())).optional().describe(
    "Every instance of the technology (they replace the current ones), in the catalogue file " +
      "form; `capacity_mw` stands for `typical_capacity_mw`, `missing_fields` is ignored",
  ),
}).describe("An admin's edit of a served technology (OpenTech-DB frontend)");

/** An admin's edit of a served technology. */
export type TechnologyPatch = z.infer<typeof technologyPatchSchema>;

/** The technology a patch makes, or every problem that stops it (`path: message`). */
export type PatchResult =
  | { ok: true; technology: Technology }
  | { ok: false; problems: string[] };

/** Where the Open Energy Ontology's classes live; an OEO class id is read in it. */
export const OEO_NAMESPACE = "https://openenergyplatform.org/ontology/oeo/";

/** Instance members served beside the file form: derived from it, so dropped when sent back. */
const SERVED_ONLY = new Set(["missing_fields", ...Object.keys(opentechInstanceShape)]);

/** The frontend form's name for `typical_capacity_mw`. */
const FORM_CAPACITY = "capacity_mw";

/** A served technology in the stored form: its instances without `missing_fields`. */
export function storedTechnology(t: ServedTechnology): Technology {
  return {
    ...t,
    instances: t.instances.map(({ missing_fields: _, ...instance }) => instance),
  };
}

/** `path: message` for each zod issue, `at` before its path; one line per unknown member. */
function issueLines(issues: readonly z.core.$ZodIssue[], at: readonly PropertyKey[]): string[] {
  return issues.flatMap((issue) => {
    const path = [...at, ...issue.path];
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => `${jsonPath([...path, key])}: unknown member`);
    }
    return [`${jsonPath(path) || "(body)"}: ${issue.message}`];
  });
}

/** The instance a sent record stands for, or its problems (named as sent). */
function patchedInstance(
  sent: Record<string, unknown>,
  index: number,
): { ok: true; instance: Instance } | { ok: false; problems: string[] } {
  const record: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(sent)) {
    if (!SERVED_ONLY.has(key) && key !== FORM_CAPACITY) record[key] = value;
  }
  const fromForm = FORM_CAPACITY in sent;
  if (fromForm) record.typical_capacity_mw = sent[FORM_CAPACITY];
  if (typeof record.reference_source === "string" && record.reference_source.trim() === "") {
    record.reference_source = null;
  }
  const parsed = catalogueInstanceSchema.safeParse(record);
  if (parsed.success) return { ok: true, instance: normaliseCatalogueInstance(parsed.data) };
  const issues = parsed.error.issues.map((issue) =>
    fromForm && issue.path[0] === "typical_capacity_mw"
      ? { ...issue, path: [FORM_CAPACITY, ...issue.path.slice(1)] }
      : issue
  );
  return { ok: false, problems: issueLines(issues, ["instances", index]) };
}

/** The instances a patch sends, checked one by one and for unique ids. */
function patchedInstances(
  sent: readonly Record<string, unknown>[],
  problems: string[],
): Instance[] {
  const instances: Instance[] = [];
  const seen = new Map<string, number>();
  sent.forEach((record, i) => {
    const result = patchedInstance(record, i);
    if (!result.ok) {
      problems.push(...result.problems);
      return;
    }
    const id = result.instance.instance_id;
    const first = seen.get(id);
    if (first === undefined) seen.set(id, i);
    else problems.push(`instances[${i}].instance_id: "${id}" is also instances[${first}]`);
    instances.push(result.instance);
  });
  if (sent.length === 0) problems.push("instances: needs at least one instance");
  return instances;
}

/** `oeo_class` and `oeo_uri` after the patch's `oeo_class`, or undefined with a problem. */
function patchedClass(
  current: Pick<Technology, "oeo_class" | "oeo_uri">,
  sent: string | null,
  problems: string[],
): Pick<Technology, "oeo_class" | "oeo_uri"> | undefined {
  const name = sent?.trim() ?? "";
  if (name === "") return { oeo_class: null, oeo_uri: null };
  if (/^https?:\/\//i.test(name)) return { oeo_class: iriLastSegment(name), oeo_uri: name };
  if (name === current.oeo_class || (current.oeo_uri && iriLastSegment(current.oeo_uri) === name)) {
    return { oeo_class: name, oeo_uri: current.oeo_uri };
  }
  if (/^OEO_\d+$/.test(name)) return { oeo_class: name, oeo_uri: `${OEO_NAMESPACE}${name}` };
  problems.push(
    `oeo_class: "${name}" is neither a class IRI nor an OEO class id such as OEO_00000311`,
  );
  return undefined;
}

/**
 * The technology `patch` makes of `current` (its id and domain stay), checked as a served
 * technology; every problem is named by its path in the patch.
 *
 * @example
 * ```ts
 * import { noFigures } from "../schema/technology_schema.ts";
 * const served = {
 *   technology_id: "small_wind",
 *   technology_name: "Small wind",
 *   domain: "generation" as const,
 *   carrier: "electricity",
 *   carrier_in: [],
 *   carrier_out: ["electricity"],
 *   oeo_class: null,
 *   oeo_uri: null,
 *   description: null,
 *   tags: [],
 *   lifecycle: null,
 *   profile_key: null,
 *   instances: [{
 *     instance_id: "small_wind-2025",
 *     instance_name: "Small wind, 2025",
 *     year: 2025,
 *     lifecycle_stage: null,
 *     capacity_basis: null,
 *     capacity_unit: null,
 *     fuel: null,
 *     ...noFigures(),
 *     reference_source: null,
 *     source_technologies: [],
 *     notes: [],
 *     missing_fields: [],
 *   }],
 * };
 * const result = applyTechnologyPatch(served, { technology_name: "Small wind (edited)" });
 * if (!result.ok || result.technology.technology_name !== "Small wind (edited)") {
 *   throw new Error("the name was not changed");
 * }
 * ```
 */
export function applyTechnologyPatch(current: ServedTechnology, patch: unknown): PatchResult {
  const parsed = technologyPatchSchema.safeParse(patch);
  if (!parsed.success) return { ok: false, problems: issueLines(parsed.error.issues, []) };
  const p = parsed.data;
  const problems: string[] = [];
  const technology = storedTechnology(current);
  if (p.technology_name !== undefined) {
    technology.technology_name = p.technology_name.trim();
    if (technology.technology_name === "") problems.push("technology_name: must not be empty");
  }
  if (p.carrier !== undefined) technology.carrier = p.carrier.trim();
  if (p.oeo_class !== undefined) {
    Object.assign(technology, patchedClass(current, p.oeo_class, problems));
  }
  if (p.description !== undefined) {
    const text = p.description?.trim() ?? "";
    technology.description = text === "" ? null : text;
  }
  if (p.instances !== undefined) technology.instances = patchedInstances(p.instances, problems);

  const checked = technologySchema.safeParse(technology);
  if (!checked.success) {
    // The instances were checked one by one above (or are the served ones), and a member
    // reported already is not reported twice.
    const member = (line: string) => line.slice(0, line.indexOf(": "));
    const reported = new Set(problems.map(member));
    problems.push(
      ...issueLines(checked.error.issues, []).filter((line) =>
        !line.startsWith("instances") && !reported.has(member(line))
      ),
    );
  }
  if (problems.length > 0) return { ok: false, problems };
  if (!checked.success) return { ok: false, problems: issueLines(checked.error.issues, []) };
  return { ok: true, technology: checked.data };
}
