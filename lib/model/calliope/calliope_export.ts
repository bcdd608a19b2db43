/**
 * A ModelConfig written back as a Calliope 0.6 model directory that Calliope itself can run:
 * one `model.yaml` (model, run, techs, locations, links, overrides) and `timeseries_data/ID.csv`
 * per series in Calliope's CSV layout (an empty first header cell, `YYYY-MM-DD HH:MM:SS`).
 */
import { dirname, join } from "node:path";
import { Document, isScalar, Scalar, visit } from "yaml";
import {
  CARRIER_KEYS,
  type Link,
  type Location,
  type ModelConfig,
  type Technology,
  type TimeSeries,
} from "../model_config.ts";

/** Directory of the CSV series inside the written model. */
export const TIMESERIES_DIR = "timeseries_data";

/** A value as Calliope reads it: `ts:ID:col` -> `file=ID.csv:col`, `.inf` -> `inf`. */
function calliopeValue(value: unknown): unknown {
  if (typeof value === "string") {
    const ts = /^ts:([^:]+):(.+)$/.exec(value);
    if (ts) return `file=${ts[1]}.csv:${ts[2]}`;
    if (value === ".inf") return "inf";
    if (value === "-.inf") return "-inf";
    return value;
  }
  if (typeof value === "number") {
    if (value === Infinity) return "inf";
    if (value === -Infinity) return "-inf";
    return value;
  }
  if (Array.isArray(value)) return value.map(calliopeValue);
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v !== undefined) out[k] = calliopeValue(v);
    }
    return out;
  }
  return value;
}

function techEntry(tech: Technology): Record<string, unknown> {
  const essentials: Record<string, unknown> = {};
  if (tech.essentials?.name !== undefined) essentials["name"] = tech.essentials.name;
  if (tech.essentials?.color !== undefined) essentials["color"] = tech.essentials.color;
  essentials["parent"] = tech.type;
  for (const key of CARRIER_KEYS) {
    const v = tech[key];
    if (v !== undefined) essentials[key] = v;
  }
  const out: Record<string, unknown> = { essentials };
  if (tech.constraints && Object.keys(tech.constraints).length > 0) {
    out["constraints"] = calliopeValue(tech.constraints);
  }
  if (tech.costs && Object.keys(tech.costs).length > 0) out["costs"] = calliopeValue(tech.costs);
  return out;
}

function locationEntry(loc: Location): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (loc.lat !== undefined || loc.lon !== undefined) {
    out["coordinates"] = { lat: loc.lat, lon: loc.lon };
  } else if (loc.x !== undefined || loc.y !== undefined) {
    out["coordinates"] = { x: loc.x, y: loc.y };
  }
  const area = loc.available_area ?? loc.constraints?.available_area;
  if (area !== undefined) out["available_area"] = calliopeValue(area);
  const techs: Record<string, unknown> = {};
  for (const entry of loc.technologies ?? []) {
    if (typeof entry === "string") {
      techs[entry] = null;
      continue;
    }
    const settings: Record<string, unknown> = {};
    if (entry.constraints && Object.keys(entry.constraints).length > 0) {
      settings["constraints"] = calliopeValue(entry.constraints);
    }
    if (entry.costs && Object.keys(entry.costs).length > 0) {
      settings["costs"] = calliopeValue(entry.costs);
    }
    techs[entry.name] = Object.keys(settings).length > 0 ? settings : null;
  }
  // A location with no settings at all would vanish in Calliope (an empty entry is skipped).
  if (Object.keys(techs).length > 0 || Object.keys(out).length === 0) out["techs"] = techs;
  return out;
}

function linksSection(links: readonly Link[]): Record<string, unknown> {
  const out: Record<string, { techs: Record<string, unknown> }> = {};
  for (const link of links) {
    const key = `${link.source},${link.target}`;
    const entry = out[key] ?? (out[key] = { techs: {} });
    const techs = Array.isArray(link.technology) ? link.technology : [link.technology];
    for (const tech of techs) {
      const settings: Record<string, unknown> = {};
      if (link.distance !== undefined) settings["distance"] = link.distance;
      if (link.constraints && Object.keys(link.constraints).length > 0) {
        settings["constraints"] = calliopeValue(link.constraints);
      }
      if (link.costs && Object.keys(link.costs).length > 0) {
        settings["costs"] = calliopeValue(link.costs);
      }
      entry.techs[tech] = Object.keys(settings).length > 0 ? settings : null;
    }
  }
  return out;
}

/** A pandas frequency for a resolution in hours (`6H`, or minutes when fractional). */
function frequency(hours: number): string {
  if (Number.isInteger(hours)) return `${hours}H`;
  const minutes = hours * 60;
  if (Number.isInteger(minutes)) return `${minutes}min`;
  return `${Math.round(hours * 3600)}S`;
}

function modelSection(config: ModelConfig): Record<string, unknown> {
  const p = config.parameters;
  const model: Record<string, unknown> = { name: config.name, calliope_version: "0.6.10" };
  if (config.timeSeries.length > 0) model["timeseries_data_path"] = TIMESERIES_DIR;
  if (p.subset_time !== undefined) {
    model["subset_time"] = typeof p.subset_time === "string" ? p.subset_time : [...p.subset_time];
  }
  if (p.time_resolution_h !== undefined) {
    model["time"] = {
      function: "resample",
      function_options: { resolution: frequency(p.time_resolution_h) },
    };
  }
  if (p.time !== undefined) model["time"] = structuredClone(p.time);
  if (p.random_seed !== undefined) model["random_seed"] = p.random_seed;
  if (p.reserve_margin !== undefined) model["reserve_margin"] = { ...p.reserve_margin };
  return model;
}

function runSection(config: ModelConfig): Record<string, unknown> {
  const p = config.parameters;
  // Calliope's own default when the model names none.
  const run: Record<string, unknown> = { solver: p.solver?.name ?? "cbc", mode: p.mode ?? "plan" };
  if (p.spores !== undefined) run["spores_options"] = structuredClone(p.spores);
  if (p.operation !== undefined) run["operation"] = { ...p.operation };
  if (p.ensure_feasibility !== undefined) run["ensure_feasibility"] = p.ensure_feasibility;
  if (p.bigM !== undefined) run["bigM"] = p.bigM;
  if (p.cyclic_storage !== undefined) run["cyclic_storage"] = p.cyclic_storage;
  if (p.objective !== undefined) run["objective"] = p.objective;
  const objectiveOptions: Record<string, unknown> = {};
  if (p.objective_cost_class !== undefined) {
    objectiveOptions["cost_class"] = { ...p.objective_cost_class };
  }
  if (p.objective_sense !== undefined) objectiveOptions["sense"] = p.objective_sense;
  if (Object.keys(objectiveOptions).length > 0) run["objective_options"] = objectiveOptions;
  if (p.zero_threshold !== undefined) run["zero_threshold"] = p.zero_threshold;
  if (p.relax_constraint !== undefined) run["relax_constraint"] = { ...p.relax_constraint };
  // In the spellings the importer reads back (calliope_solver.ts).
  const solverOptions: Record<string, number> = {};
  if (p.solver?.mip_rel_gap !== undefined) solverOptions["mipgap"] = p.solver.mip_rel_gap;
  if (p.solver?.time_limit_s !== undefined) solverOptions["time_limit"] = p.solver.time_limit_s;
  if (p.solver?.threads !== undefined) solverOptions["threads"] = p.solver.threads;
  if (Object.keys(solverOptions).length > 0) run["solver_options"] = solverOptions;
  return run;
}

/** Strings YAML readers may turn into dates or other types are written quoted. */
function quoteAmbiguous(doc: Document): void {
  visit(doc, {
    Scalar(_key, node: Scalar) {
      if (
        isScalar(node) && typeof node.value === "string" &&
        /^\d{4}-\d{2}(-\d{2})?([ T].*)?$/.test(node.value)
      ) {
        node.type = "QUOTE_SINGLE";
      }
    },
  });
}

/** The text of `model.yaml`. */
export function calliopeModelYaml(config: ModelConfig): string {
  const body: Record<string, unknown> = {
    model: modelSection(config),
    run: runSection(config),
    techs: Object.fromEntries(config.technologies.map((t) => [t.name, techEntry(t)])),
    locations: Object.fromEntries(config.locations.map((l) => [l.id, locationEntry(l)])),
  };
  if (config.links.length > 0) body["links"] = linksSection(config.links);
  if (config.groupConstraints && Object.keys(config.groupConstraints).length > 0) {
    body["group_constraints"] = calliopeValue(config.groupConstraints);
  }
  const overrides = config.parameters.overrides;
  if (overrides && Object.keys(overrides).length > 0) body["overrides"] = calliopeValue(overrides);
  const doc = new Document(body, { version: "1.2" });
  quoteAmbiguous(doc);
  const head = [
    `# ${config.name}: Calliope 0.6 model written from a ModelConfig.`,
    ...(config.description ? [`# ${config.description.replace(/\s*\n\s*/g, " ")}`] : []),
  ];
  const scenario = config.parameters.scenario;
  if (scenario !== undefined) {
    const names = typeof scenario === "string" ? scenario : scenario.join(",");
    head.push(`# scenario: ${names} (run with: calliope run model.yaml --scenario ${names})`);
  }
  return `${head.join("\n")}\n${doc.toString({ lineWidth: 0 })}`;
}

/** Calliope's time-series CSV: an empty first header cell, `YYYY-MM-DD HH:MM:SS` stamps. */
export function calliopeSeriesCsv(series: TimeSeries): string {
  const names = Object.keys(series.columns);
  const quote = (s: string) => (/[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
  const lines = [["", ...names.map(quote)].join(",")];
  series.timestamps.forEach((stamp, i) => {
    const time = stamp.replace("T", " ").replace(/Z$/, "");
    const full = /^\d{4}-\d{2}-\d{2}$/.test(time)
      ? `${time} 00:00:00`
      : /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(time)
      ? `${time}:00`
      : time;
    const cells = names.map((n) => {
      const v = series.columns[n]?.[i];
      if (v === undefined) {
        throw new RangeError(`time series "${series.id}": column "${n}" has no value at row ${i}`);
      }
      return String(v);
    });
    lines.push([full, ...cells].join(","));
  });
  return `${lines.join("\n")}\n`;
}

/** The files of the Calliope model directory, by relative path. */
export function exportCalliopeModel(config: ModelConfig): Map<string, string> {
  const files = new Map<string, string>();
  files.set("model.yaml", calliopeModelYaml(config));
  for (const series of config.timeSeries) {
    files.set(`${TIMESERIES_DIR}/${series.id}.csv`, calliopeSeriesCsv(series));
  }
  return files;
}

/** Writes the Calliope model directory into `dir` (created if missing); returns the paths. */
export async function writeCalliopeModel(config: ModelConfig, dir: string): Promise<string[]> {
  const written: string[] = [];
  for (const [relative, text] of exportCalliopeModel(config)) {
    const path = join(dir, relative);
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(path, text);
    written.push(path);
  }
  return written;
}
