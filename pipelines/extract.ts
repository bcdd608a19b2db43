/**
 * Extracts the buildings of a box from the OSM store with their surfaces and heating-demand link
 * (lib/extraction/extract_box.ts, the pipeline the extraction service and the notebook share)
 * and writes them through DuckDB.
 *
 * Usage: `deno task extract --country LI --heat-country AT --bbox 9.50,47.08,9.56,47.13
 * --out triesen.parquet [--surfaces] [--osm-store PATH] [--store PATH] [--option key=value ...]`
 *
 * `--out` gets one row per building (Parquet for `.parquet`, CSV for `.csv`); `--surfaces` also
 * writes one row per surface into `<out stem>_surfaces.<ext>` beside it. A progress bar goes to
 * stderr, a summary to stdout. Exit 0 written, 1 failed (no imported region covers the box,
 * unreadable store), 2 bad usage (as model-import and model-export).
 *
 * A country without a TABULA typology (LI) and no --heat-country still gets its buildings and
 * surfaces: each has no heat link, and its `tabula_absent_reason` column (and a problem line on
 * stderr) says which --heat-country to name.
 */
import { basename, dirname, extname, join } from "node:path";
import {
  type BuildingRecord,
  type ExtractionOptions,
  extractionOptionsSchema,
} from "../lib/extraction/building_record.ts";
import {
  BUILDING_COLUMNS,
  buildingRow,
  type Column,
  SURFACE_COLUMNS,
  surfaceRows,
  surfaceTotals,
} from "../lib/extraction/building_table.ts";
import { extractBox, type LonLatBox } from "../lib/extraction/extract_box.ts";
import {
  buildingReferenceArea,
  loadTabulaForRun,
  typologyCountries,
} from "../lib/extraction/tabula_link.ts";
import { listImportedRegions } from "../lib/osm/osm_store.ts";
import { defaultSteps } from "../lib/data_sets.ts";
import { ensureStore } from "../lib/store/build_store.ts";
import { openStore, type SqlValue, type Store } from "../lib/store/store.ts";
import { type TableFileFormat, writeTableFile } from "../lib/store/table_file.ts";
import { defaultOsmStorePath } from "./geo_import.ts";

/** The greatest box side, degrees (the extraction service's limit). */
export const MAX_BOX_DEGREES = 0.2;

const USAGE = "usage: deno task extract --country LI [--heat-country AT] " +
  "--bbox XMIN,YMIN,XMAX,YMAX --out FILE.parquet|FILE.csv [--surfaces] [--osm-store PATH] " +
  "[--store PATH] [--option key=value ...]\n" +
  "  --surfaces also writes one row per surface to <out stem>_surfaces.<ext>\n" +
  "  options: " + Object.keys(extractionOptionsSchema.shape).join(", ");

/** The output formats, by file extension. */
export type OutputFormat = TableFileFormat;

/** A parsed command line. */
export interface ExtractArgs {
  readonly country: string;
  readonly heatCountry?: string;
  readonly bbox: LonLatBox;
  readonly out: string;
  readonly format: OutputFormat;
  /** Where the surface rows go with --surfaces; absent without it. */
  readonly surfacesOut?: string;
  readonly osmStore: string;
  readonly store: string;
  readonly options: ExtractionOptions;
}

/** A usage error: the message names the argument and is followed by the usage. */
export class UsageError extends RangeError {
  constructor(message: string) {
    super(`${message}\n${USAGE}`);
    this.name = "UsageError";
  }
}

/** The box of "xmin,ymin,xmax,ymax" in lon/lat; throws UsageError naming what is wrong. */
export function parseBbox(text: string): LonLatBox {
  const parts = text.split(",").map((p) => p.trim());
  const values = parts.map(Number);
  if (parts.length !== 4 || parts.some((p) => p === "") || !values.every(Number.isFinite)) {
    throw new UsageError(`--bbox: four numbers xmin,ymin,xmax,ymax in lon/lat, got "${text}"`);
  }
  const [xmin, ymin, xmax, ymax] = values as [number, number, number, number];
  if (xmin < -180 || xmax > 180 || ymin < -90 || ymax > 90) {
    throw new UsageError(`--bbox: longitudes within -180..180 and latitudes within -90..90`);
  }
  if (!(xmin < xmax && ymin < ymax)) {
    throw new UsageError(`--bbox: xmin < xmax and ymin < ymax, got "${text}"`);
  }
  if (xmax - xmin > MAX_BOX_DEGREES + 1e-9 || ymax - ymin > MAX_BOX_DEGREES + 1e-9) {
    throw new UsageError(
      `--bbox: at most ${MAX_BOX_DEGREES} x ${MAX_BOX_DEGREES} degrees, got ` +
        `${+(xmax - xmin).toFixed(6)} x ${+(ymax - ymin).toFixed(6)}`,
    );
  }
  return [xmin, ymin, xmax, ymax];
}

/** A `--option` value as the schema expects it: a number, true/false, else the text. */
function optionValue(text: string): string | number | boolean {
  if (text === "true") return true;
  if (text === "false") return false;
  const n = Number(text);
  return text.trim() !== "" && Number.isFinite(n) ? n : text;
}

/**
 * The run options from `key=value` pairs, validated by extractionOptionsSchema (defaults
 * filled in); throws UsageError listing every problem.
 */
export function parseOptions(pairs: readonly string[]): ExtractionOptions {
  const raw: Record<string, string | number | boolean> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0) throw new UsageError(`--option: key=value, got "${pair}"`);
    raw[pair.slice(0, at).trim()] = optionValue(pair.slice(at + 1).trim());
  }
  const parsed = extractionOptionsSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const keys = "keys" in issue && Array.isArray(issue.keys) ? issue.keys.join(", ") : "";
      const path = issue.path.join(".") || keys;
      return `--option ${path}: ${issue.message}`;
    });
    throw new UsageError(lines.join("\n"));
  }
  return parsed.data;
}

/** The surface file beside `out`: "a/triesen.parquet" -> "a/triesen_surfaces.parquet". */
export function surfacesPath(out: string): string {
  const ext = extname(out);
  return join(dirname(out), `${basename(out, ext)}_surfaces${ext}`);
}

/** Reads the command line; throws UsageError on a bad one. */
export function parseExtractArgs(
  args: readonly string[],
  env: { get(key: string): string | undefined } = Deno.env,
): ExtractArgs {
  let country: string | undefined, heatCountry: string | undefined;
  let bbox: LonLatBox | undefined, out: string | undefined;
  let osmStore: string | undefined, store: string | undefined;
  let surfaces = false;
  const pairs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => {
      const v = args[++i];
      if (v === undefined) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    if (arg === "--country") country = value();
    else if (arg === "--heat-country") heatCountry = value();
    else if (arg === "--bbox") bbox = parseBbox(value());
    else if (arg === "--out") out = value();
    else if (arg === "--surfaces") surfaces = true;
    else if (arg === "--osm-store") osmStore = value();
    else if (arg === "--store") store = value();
    else if (arg === "--option") pairs.push(value());
    else throw new UsageError(`unknown argument ${arg}`);
  }
  if (country === undefined) throw new UsageError("--country is required");
  if (bbox === undefined) throw new UsageError("--bbox is required");
  if (out === undefined) throw new UsageError("--out is required");
  for (const [name, code] of [["--country", country], ["--heat-country", heatCountry]]) {
    if (code !== undefined && !/^[A-Za-z]{2}$/.test(code)) {
      throw new UsageError(`${name}: an ISO 3166-1 alpha-2 code such as LI, got "${code}"`);
    }
  }
  const ext = extname(out).toLowerCase();
  if (ext !== ".parquet" && ext !== ".csv") {
    throw new UsageError(`--out: a .parquet or .csv file, got "${out}"`);
  }
  return {
    country: country.toUpperCase(),
    ...(heatCountry === undefined ? {} : { heatCountry: heatCountry.toUpperCase() }),
    bbox,
    out,
    format: ext === ".csv" ? "csv" : "parquet",
    ...(surfaces ? { surfacesOut: surfacesPath(out) } : {}),
    osmStore: osmStore ?? defaultOsmStorePath(),
    store: store ?? env.get("STORE_PATH") ?? "data/store.duckdb",
    options: parseOptions(pairs),
  };
}

/** Writes `rows` to `path` as Parquet or CSV through an in-memory DuckDB. */
export async function writeTable(
  columns: readonly Column[],
  rows: Iterable<readonly SqlValue[]>,
  path: string,
  format: OutputFormat,
): Promise<void> {
  const db = await openStore(":memory:", { readers: 0 });
  try {
    await writeTableFile(db, { name: "t", columns, rows }, path, format);
  } finally {
    await db.close();
  }
}

/** The summary printed on stdout. */
export interface ExtractSummary {
  buildings: number;
  surfaces: number;
  footprint_area_m2: number;
  exposed_wall_m2: Record<"N" | "E" | "S" | "W", number>;
  party_wall_m2: number;
  /** Median q_h_nd of the linked buildings, kWh/(m2.a); null when none has one. */
  q_h_nd_median: number | null;
  /** q_h_nd weighted by reference area (A_C_Ref), kWh/(m2.a). */
  q_h_nd_area_weighted: number | null;
  /** Sum of q_h_nd x A_C_Ref, MWh/a. */
  heat_demand_mwh: number;
  without_heat_link: number;
  problems: number;
  seconds: number;
}

/** The summary of an extraction's buildings. */
export function summarize(buildings: readonly BuildingRecord[], seconds: number, problems = 0) {
  const exposed = { N: 0, E: 0, S: 0, W: 0 };
  let footprint = 0, party = 0, surfaces = 0, weighted = 0, weights = 0, unlinked = 0;
  const qs: number[] = [];
  for (const b of buildings) {
    const t = surfaceTotals(b.surfaces);
    footprint += b.footprint_area;
    party += t.partyWall;
    surfaces += b.surfaces.length;
    for (const k of ["N", "E", "S", "W"] as const) exposed[k] += t.exposedByQuarter[k];
    const q = b.tabula?.q_h_nd ?? null;
    if (q === null) {
      unlinked++;
      continue;
    }
    const area = buildingReferenceArea(b.footprint_area, b.storeys, b.roof_levels);
    qs.push(q);
    weighted += q * area;
    weights += area;
  }
  qs.sort((a, b) => a - b);
  const mid = qs.length >> 1;
  const median = qs.length === 0
    ? null
    : qs.length % 2 === 1
    ? qs[mid]!
    : (qs[mid - 1]! + qs[mid]!) / 2;
  return {
    buildings: buildings.length,
    surfaces,
    footprint_area_m2: footprint,
    exposed_wall_m2: exposed,
    party_wall_m2: party,
    q_h_nd_median: median,
    q_h_nd_area_weighted: weights > 0 ? weighted / weights : null,
    heat_demand_mwh: weighted / 1000,
    without_heat_link: unlinked,
    problems,
    seconds,
  } satisfies ExtractSummary;
}

/** A progress bar on stderr: redrawn in place on a terminal, one line per phase otherwise. */
function progressBar(): (fraction: number, phase: string) => void {
  const tty = Deno.stderr.isTerminal();
  const encoder = new TextEncoder();
  return (fraction, phase) => {
    const filled = Math.round(fraction * 30);
    const line = `[${"#".repeat(filled)}${"-".repeat(30 - filled)}] ${
      Math.round(fraction * 100).toString().padStart(3)
    }% ${phase}`;
    if (!tty) return console.error(line);
    Deno.stderr.writeSync(encoder.encode(`\r${line.padEnd(72)}${fraction >= 1 ? "\n" : ""}`));
  };
}

const PHASES: readonly [number, string][] = [
  [0.2, "footprints read"],
  [0.7, "surfaces extracted"],
  [1, "linked to the heating demand"],
];

function phaseOf(fraction: number): string {
  return PHASES.find(([at]) => fraction <= at)?.[1] ?? "done";
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

function geoImportHint(osmStore: string): string {
  return `run \`deno task geo-import FILE --store ${osmStore}\` first (e.g. FILE = ` +
    `data/geo/liechtenstein/osm/liechtenstein-2024-03-04.osm.pbf)`;
}

/** Opens the OSM store read-only and checks that an imported region meets the box. */
async function openOsmStore(path: string, bbox: LonLatBox): Promise<Store> {
  if (path !== ":memory:" && !(await exists(path))) {
    throw new Error(`The OSM store ${path} does not exist: ${geoImportHint(path)}`);
  }
  const store = await openStore(path, { readOnly: true, readers: 1 }).catch((error) => {
    if (/lock/i.test(String(error))) {
      throw new Error(`The OSM store ${path} is open for writing in another process: stop it`);
    }
    throw error;
  });
  const [xmin, ymin, xmax, ymax] = bbox;
  const regions = (await listImportedRegions(store)).filter((r) =>
    r.bbox !== null && r.bbox[0] <= xmax && r.bbox[2] >= xmin && r.bbox[1] <= ymax &&
    r.bbox[3] >= ymin
  );
  if (regions.length === 0) {
    await store.close();
    throw new Error(
      `No imported OSM region in ${path} covers the box ${bbox.join(",")}: ${geoImportHint(path)}`,
    );
  }
  return store;
}

const round = (x: number) => Math.round(x);

/** Runs the command; returns the exit code. */
export async function main(
  args: readonly string[],
  env: { get(key: string): string | undefined } = Deno.env,
): Promise<number> {
  let parsed: ExtractArgs;
  try {
    parsed = parseExtractArgs(args, env);
  } catch (error) {
    console.error((error as Error).message);
    return error instanceof UsageError ? 2 : 1;
  }
  const started = performance.now();
  let osmStore: Store | undefined, heatStore: Store | undefined;
  try {
    osmStore = await openOsmStore(parsed.osmStore, parsed.bbox);
    if (!(await exists(parsed.store))) {
      console.error(`building the data store ${parsed.store} (deno task etl)`);
      await ensureStore(parsed.store, { steps: defaultSteps() });
    }
    heatStore = await openStore(parsed.store, { readOnly: true, readers: 1 });
    if (parsed.heatCountry !== undefined) {
      const available = await typologyCountries(heatStore);
      if (!available.includes(parsed.heatCountry)) {
        throw new Error(
          `--heat-country ${parsed.heatCountry} has no TABULA typology; one of ` +
            available.join(", "),
        );
      }
    }
    // Without a typology the buildings are written all the same, each saying why it has no
    // heat link (the first problem line says it once).
    const heat = await loadTabulaForRun(heatStore, parsed.country, parsed.heatCountry);
    const bar = progressBar();
    const result = await extractBox(osmStore, heat, {
      country: parsed.country,
      bbox: parsed.bbox,
      options: parsed.options,
    }, (fraction) => bar(fraction, phaseOf(fraction)));
    await Deno.mkdir(dirname(parsed.out), { recursive: true });
    await writeTable(
      BUILDING_COLUMNS,
      result.buildings.map(buildingRow),
      parsed.out,
      parsed.format,
    );
    const written = [parsed.out];
    if (parsed.surfacesOut !== undefined) {
      await writeTable(
        SURFACE_COLUMNS,
        result.buildings.flatMap(surfaceRows),
        parsed.surfacesOut,
        parsed.format,
      );
      written.push(parsed.surfacesOut);
    }
    for (const p of result.problems.slice(0, 20)) console.error(`problem: ${p}`);
    if (result.problems.length > 20) {
      console.error(`... and ${result.problems.length - 20} more problems`);
    }
    const s = summarize(
      result.buildings,
      (performance.now() - started) / 1000,
      result.problems.length,
    );
    const q = (x: number | null) => x === null ? "n/a" : x.toFixed(1);
    console.log(
      [
        `buildings: ${s.buildings} (${s.surfaces} surfaces, ${s.without_heat_link} without ` +
        `q_h_nd, ${s.problems} problems)`,
        `footprint area: ${round(s.footprint_area_m2)} m2`,
        `exposed wall area: N ${round(s.exposed_wall_m2.N)}, E ${round(s.exposed_wall_m2.E)}, ` +
        `S ${round(s.exposed_wall_m2.S)}, W ${round(s.exposed_wall_m2.W)} m2; party walls ` +
        `${round(s.party_wall_m2)} m2`,
        `q_h_nd: median ${q(s.q_h_nd_median)}, reference-area-weighted mean ` +
        `${q(s.q_h_nd_area_weighted)} kWh/(m2.a); total ${round(s.heat_demand_mwh)} MWh/a`,
        `time: ${s.seconds.toFixed(2)} s`,
        `written: ${written.join(", ")}`,
      ].join("\n"),
    );
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  } finally {
    await osmStore?.close();
    await heatStore?.close();
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
