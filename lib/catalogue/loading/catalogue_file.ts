/**
 * Reading technology catalogue files of both formats into one internal shape.
 *
 * A JSON file is in the catalogue format when its root object has a `metadata` or a
 * `technologies` member, else in the legacy individual format (spec: "recognised by the absence
 * of the metadata and technologies root members"); both may sit in one folder. Both normalise
 * into `Technology` (the served shape, catalogue units): catalogue records keep their numbers and
 * split `oeo_class` into the full IRI (`oeo_uri`) and its last segment; legacy records convert
 * capacity kW -> MW, efficiency fraction -> percent, CO2 tCO2/MWh -> g/kWh, and ramp-up/down
 * rates -> one ramping rate. Every problem is reported with file and JSON path, all at once.
 */
import { join } from "node:path";
import type { z } from "zod";
import type { FuelRecord } from "../schema/fuel_schema.ts";
import { type LegacyTechnology, legacyTechnologySchema } from "../schema/legacy_schema.ts";
import { MANIFEST_FILE } from "./manifest.ts";
import {
  catalogueFileSchema,
  type CatalogueInstance,
  type CatalogueMetadata,
  type CatalogueTechnology,
  type Instance,
  iriLastSegment,
  noFigures,
  type Technology,
  technologySchema,
} from "../schema/technology_schema.ts";
import { fractionToPercent, kwToMw, tPerMwhToGPerKwh } from "../schema/units.ts";

/** The two file formats. */
export type CatalogueFormat = "catalogue" | "legacy";

/** One problem in a catalogue file; `path` is a JSON path such as `technologies[2].domain`. */
export interface CatalogueProblem {
  readonly file: string;
  /** JSON path of the member; "" for the file as a whole. */
  readonly path: string;
  readonly message: string;
}

/** One file read: its format, metadata (catalogue format), technologies and problems. */
export interface CatalogueFileResult {
  readonly file: string;
  /** null when the file is not a JSON object at all. */
  readonly format: CatalogueFormat | null;
  readonly metadata: CatalogueMetadata | null;
  /** Normalised technologies; empty when the file has problems. */
  readonly technologies: readonly Technology[];
  /** Fuel records of a catalogue-format file (`fuels`); empty when none or with problems. */
  readonly fuels: readonly FuelRecord[];
  readonly problems: readonly CatalogueProblem[];
}

/** One line per problem: `file: path: message` (`file: message` for the whole file). */
export function formatCatalogueProblem(p: CatalogueProblem): string {
  return p.path ? `${p.file}: ${p.path}: ${p.message}` : `${p.file}: ${p.message}`;
}

/** Thrown when catalogue files have problems; carries every problem found. */
export class CatalogueError extends Error {
  readonly problems: readonly CatalogueProblem[];

  constructor(problems: readonly CatalogueProblem[]) {
    const head = problems.slice(0, 20).map(formatCatalogueProblem).join("\n");
    const more = problems.length > 20 ? `\n... and ${problems.length - 20} more` : "";
    super(`${problems.length} problem(s) in the catalogue files:\n${head}${more}`);
    this.name = "CatalogueError";
    this.problems = problems;
  }
}

/** The format of a parsed JSON document, or undefined when it is not an object. */
export function detectFormat(json: unknown): CatalogueFormat | undefined {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
  return "metadata" in json || "technologies" in json ? "catalogue" : "legacy";
}

/** A zod issue path as a JSON path: `technologies[3].instances[0].capex_usd_per_kw`. */
export function jsonPath(path: readonly PropertyKey[]): string {
  return path.map((p, i) => typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`)
    .join("");
}

function issueProblems(file: string, issues: readonly z.core.$ZodIssue[]): CatalogueProblem[] {
  return issues.map((issue) => ({ file, path: jsonPath(issue.path), message: issue.message }));
}

/** A catalogue-format instance with every optional member filled in. */
export function normaliseCatalogueInstance(i: CatalogueInstance): Instance {
  return {
    instance_id: i.instance_id,
    instance_name: i.instance_name,
    year: i.year ?? null,
    lifecycle_stage: i.lifecycle_stage ?? null,
    capacity_basis: i.capacity_basis ?? null,
    capacity_unit: i.capacity_unit ?? null,
    fuel: i.fuel ?? null,
    typical_capacity_mw: i.typical_capacity_mw,
    capex_usd_per_kw: i.capex_usd_per_kw,
    opex_fixed_usd_per_kw_yr: i.opex_fixed_usd_per_kw_yr,
    opex_var_usd_per_mwh: i.opex_var_usd_per_mwh,
    efficiency_percent: i.efficiency_percent,
    lifetime_years: i.lifetime_years,
    co2_emission_factor_operational_g_per_kwh: i.co2_emission_factor_operational_g_per_kwh,
    ramping_rate_percent_per_min: i.ramping_rate_percent_per_min,
    capex_usd_per_kwh: i.capex_usd_per_kwh ?? null,
    opex_fixed_usd_per_kwh_yr: i.opex_fixed_usd_per_kwh_yr ?? null,
    capex_usd_per_kw_km: i.capex_usd_per_kw_km ?? null,
    opex_fixed_usd_per_kw_km_yr: i.opex_fixed_usd_per_kw_km_yr ?? null,
    capex_usd_per_t_co2_per_h: i.capex_usd_per_t_co2_per_h ?? null,
    opex_fixed_usd_per_t_co2_per_h_yr: i.opex_fixed_usd_per_t_co2_per_h_yr ?? null,
    capex_usd_per_t_co2_per_h_km: i.capex_usd_per_t_co2_per_h_km ?? null,
    opex_fixed_usd_per_t_co2_per_h_km_yr: i.opex_fixed_usd_per_t_co2_per_h_km_yr ?? null,
    reference_source: i.reference_source,
    source_technologies: i.source_technologies ?? [],
    notes: i.notes ?? [],
  };
}

/** A catalogue-format record in the internal shape (oeo_class -> IRI and last segment). */
export function normaliseCatalogueTechnology(t: CatalogueTechnology): Technology {
  const iri = t.oeo_uri ?? t.oeo_class;
  return {
    technology_id: t.technology_id,
    technology_name: t.technology_name,
    domain: t.domain,
    carrier: t.carrier,
    carrier_in: t.carrier_in ?? null,
    carrier_out: t.carrier_out ?? null,
    oeo_class: t.oeo_class === null
      ? (iri ? iriLastSegment(iri) : null)
      : iriLastSegment(t.oeo_class),
    oeo_uri: iri ?? null,
    description: t.description,
    tags: t.tags ?? [],
    lifecycle: t.lifecycle ?? null,
    profile_key: t.profile_key ?? null,
    instances: t.instances.map(normaliseCatalogueInstance),
  };
}

/** Rules beyond the schema for one catalogue-format file. */
function checkCatalogueRecords(
  file: string,
  metadata: CatalogueMetadata,
  technologies: readonly CatalogueTechnology[],
): CatalogueProblem[] {
  const problems: CatalogueProblem[] = [];
  const seen = new Map<string, number>();
  technologies.forEach((t, i) => {
    const at = `technologies[${i}]`;
    if (t.domain !== metadata.domain) {
      problems.push({
        file,
        path: `${at}.domain`,
        message: `is "${t.domain}" but the file's metadata.domain is "${metadata.domain}"`,
      });
    }
    const first = seen.get(t.technology_id);
    if (first !== undefined) {
      problems.push({
        file,
        path: `${at}.technology_id`,
        message: `"${t.technology_id}" is also technologies[${first}]`,
      });
    } else seen.set(t.technology_id, i);
    if (t.oeo_class && t.oeo_uri && iriLastSegment(t.oeo_class) !== iriLastSegment(t.oeo_uri)) {
      problems.push({
        file,
        path: `${at}.oeo_uri`,
        message: `names class ${iriLastSegment(t.oeo_uri)} but oeo_class names ` +
          iriLastSegment(t.oeo_class),
      });
    }
    problems.push(...duplicateInstances(file, at, t.instances.map((x) => x.instance_id)));
  });
  return problems;
}

function duplicateInstances(file: string, at: string, ids: readonly string[]): CatalogueProblem[] {
  const first = new Map<string, number>();
  const problems: CatalogueProblem[] = [];
  ids.forEach((id, j) => {
    const k = first.get(id);
    if (k === undefined) first.set(id, j);
    else {
      problems.push({
        file,
        path: `${at}${at ? "." : ""}instances[${j}]`,
        message: `instance id "${id}" is also instances[${k}]`,
      });
    }
  });
  return problems;
}

/** A fuel id and year given twice in one file. */
function duplicateFuels(file: string, fuels: readonly FuelRecord[]): CatalogueProblem[] {
  const first = new Map<string, number>();
  const problems: CatalogueProblem[] = [];
  fuels.forEach((f, i) => {
    const k = `${f.fuel_id}/${f.year}`;
    const j = first.get(k);
    if (j === undefined) first.set(k, i);
    else {
      problems.push({
        file,
        path: `fuels[${i}]`,
        message: `fuel "${f.fuel_id}" of ${f.year} is also fuels[${j}]`,
      });
    }
  });
  return problems;
}

const LEGACY_NOTE = "Converted from the legacy individual format: capacity kW / 1000, " +
  "efficiency fraction × 100, CO2 tCO2/MWh × 1000, one ramping rate for up and down.";

/** A legacy record in the internal shape, with the problems its conversion meets. */
export function normaliseLegacyTechnology(
  t: LegacyTechnology,
  file: string,
): { technology: Technology; problems: CatalogueProblem[] } {
  // UUIDs are compared and served in their canonical lower-case form.
  const id = t.id.toLowerCase();
  const problems: CatalogueProblem[] = duplicateInstances(
    file,
    "",
    t.instances.map((x, j) => x.id ?? `${id}-${j}`),
  );
  const instances = t.instances.map((x, j): Instance => {
    const up = x.ramp_up_rate?.value;
    const down = x.ramp_down_rate?.value;
    if (up !== undefined && down !== undefined && up !== down) {
      problems.push({
        file,
        path: `instances[${j}].ramp_down_rate`,
        message: `differs from ramp_up_rate (${down} vs ${up} %/min); the catalogue format ` +
          "has one ramping rate for both",
      });
    }
    const values = [
      x.capacity_kw,
      x.capex_per_kw,
      x.opex_fixed_per_kw_yr,
      x.opex_var_per_mwh,
      x.electrical_efficiency,
      x.lifetime,
      x.co2_emission_factor,
      x.ramp_up_rate,
      x.ramp_down_rate,
    ];
    const sources = [...new Set(values.flatMap((v) => v?.source ? [v.source] : []))];
    return {
      instance_id: x.id ?? `${id}-${j}`,
      instance_name: x.name,
      year: x.year ?? null,
      lifecycle_stage: null,
      capacity_basis: null,
      capacity_unit: null,
      fuel: null,
      // Legacy files know only the spec's figures; the other capacity bases stay empty.
      ...noFigures(),
      typical_capacity_mw: x.capacity_kw ? kwToMw(x.capacity_kw.value) : null,
      capex_usd_per_kw: x.capex_per_kw?.value ?? null,
      opex_fixed_usd_per_kw_yr: x.opex_fixed_per_kw_yr?.value ?? null,
      opex_var_usd_per_mwh: x.opex_var_per_mwh?.value ?? null,
      efficiency_percent: x.electrical_efficiency
        ? fractionToPercent(x.electrical_efficiency.value)
        : null,
      lifetime_years: x.lifetime?.value ?? null,
      co2_emission_factor_operational_g_per_kwh: x.co2_emission_factor
        ? tPerMwhToGPerKwh(x.co2_emission_factor.value)
        : null,
      ramping_rate_percent_per_min: up ?? down ?? null,
      reference_source: sources.length ? sources.join(" | ") : null,
      source_technologies: [],
      notes: [LEGACY_NOTE],
    };
  });
  const technology: Technology = {
    technology_id: id,
    technology_name: t.name,
    domain: t.domain,
    carrier: t.carrier,
    carrier_in: null,
    carrier_out: null,
    oeo_class: t.oeo_class ? iriLastSegment(t.oeo_class) : null,
    oeo_uri: t.oeo_class ?? null,
    description: t.description ?? null,
    tags: t.tags ?? [],
    lifecycle: t.lifecycle ?? null,
    profile_key: t.profile_key ?? null,
    instances,
  };
  return { technology, problems };
}

/** Parses and normalises one file's text; `file` names it in problems. */
export function parseCatalogueText(file: string, text: string): CatalogueFileResult {
  const empty = { file, metadata: null, technologies: [], fuels: [] };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const message = `not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
    return { ...empty, format: null, problems: [{ file, path: "", message }] };
  }
  const format = detectFormat(json);
  if (format === undefined) {
    const message = "the root must be a JSON object (catalogue or legacy technology file)";
    return { ...empty, format: null, problems: [{ file, path: "", message }] };
  }
  if (format === "catalogue") {
    const parsed = catalogueFileSchema.safeParse(json);
    if (!parsed.success) {
      return { ...empty, format, problems: issueProblems(file, parsed.error.issues) };
    }
    const { metadata, technologies, fuels = [] } = parsed.data;
    const problems = checkCatalogueRecords(file, metadata, technologies);
    problems.push(...duplicateFuels(file, fuels));
    return {
      file,
      format,
      metadata,
      technologies: problems.length ? [] : technologies.map(normaliseCatalogueTechnology),
      fuels: problems.length ? [] : fuels,
      problems,
    };
  }
  const parsed = legacyTechnologySchema.safeParse(json);
  if (!parsed.success) {
    return { ...empty, format, problems: issueProblems(file, parsed.error.issues) };
  }
  const { technology, problems } = normaliseLegacyTechnology(parsed.data, file);
  // A safety net: the converted record must be a valid served technology.
  const served = technologySchema.safeParse(technology);
  if (!served.success) problems.push(...issueProblems(file, served.error.issues));
  return {
    file,
    format,
    metadata: null,
    technologies: problems.length ? [] : [technology],
    fuels: [],
    problems,
  };
}

/** Every file of a catalogue folder, read and checked, with the problems across files. */
export interface CatalogueDir {
  readonly files: readonly CatalogueFileResult[];
  /** Every problem, of single files and across files (duplicate technology ids). */
  readonly problems: readonly CatalogueProblem[];
  /** All technologies in file-name order, then file order; empty when there are problems. */
  readonly technologies: readonly Technology[];
}

/**
 * Paths of the `*.json` files directly in `dir` (not below), sorted by name; the folder's
 * `manifest.json` (the list of served files, `manifest.ts`) is not a technology file.
 */
export async function catalogueFiles(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && e.name.endsWith(".json") && e.name !== MANIFEST_FILE) names.push(e.name);
  }
  return names.sort().map((n) => join(dir, n));
}

/** Reads every `*.json` file directly in `dir`; sub-folders (e.g. `profiles/`) are not read. */
export async function readCatalogueDir(dir: string): Promise<CatalogueDir> {
  const files: CatalogueFileResult[] = [];
  for (const path of await catalogueFiles(dir)) {
    files.push(parseCatalogueText(path, await Deno.readTextFile(path)));
  }
  const problems = files.flatMap((f) => f.problems);
  const owner = new Map<string, string>();
  for (const f of files) {
    f.technologies.forEach((t, i) => {
      const other = owner.get(t.technology_id);
      if (other === undefined) owner.set(t.technology_id, f.file);
      else {
        problems.push({
          file: f.file,
          path: f.format === "legacy" ? "id" : `technologies[${i}].technology_id`,
          message: `technology id "${t.technology_id}" is also defined in ${other}`,
        });
      }
    });
  }
  return {
    files,
    problems,
    technologies: problems.length ? [] : files.flatMap((f) => f.technologies),
  };
}
