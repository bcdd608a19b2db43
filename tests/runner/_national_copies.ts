/**
 * Big models from a small body: Calliope's national-scale example (shipped in
 * data/models/calliope_national_scale) with its five locations copied `groups` times, each copy
 * linked to the next by AC transmission, over its first `days` days at 1 h. The time series are
 * cut to those days and shared by every copy, so the body stays small (about 2 KB per copy plus
 * 0.5 KB per day) while the LP grows with groups x days x 24 (about 41 variables per location
 * copy and hour). Used by the runner's load tests and by benchmarks/health_during_load.ts. It
 * runs on the built-in HiGHS.
 */
import { importCalliopeModel } from "../../lib/model/calliope/calliope_import.ts";

const NATIONAL = new URL("../../data/models/calliope_national_scale", import.meta.url).pathname;

type Json = Record<string, unknown>;

/**
 * The national-scale model, `groups` copies of its locations, `days` days from 2005-01-01.
 * `shiftDays` > 0 gives copy g the year's series from `g × shiftDays` days later (around the
 * year's end), in columns of its own: copies that differ, as real locations do, instead of one
 * copy's data repeated (an LP so degenerate that simplex methods stall on it).
 */
export async function nationalScaleCopies(
  options: { groups: number; days: number; shiftDays?: number },
): Promise<Json> {
  const { groups, days, shiftDays = 0 } = options;
  if (!(groups >= 1 && days >= 1 && days <= 365)) {
    throw new RangeError(`groups >= 1 and days 1..365, got ${groups} and ${days}`);
  }
  const config = structuredClone(
    // On the built-in HiGHS, whatever the example names (cbc): the load tests follow HiGHS's log
    // and interrupts; a benchmark sets parameters.solver.name to compare solvers.
    await importCalliopeModel(NATIONAL, { overrides: { "run.solver": "highs" } }),
  ) as unknown as Json;
  const steps = days * 24;
  const round = (v: number) => Math.round(v * 1000) / 1000;
  const series = config["timeSeries"] as { id: string; timestamps: string[]; columns: Json }[];
  /** `steps` values of a series from step `from` of the year on. */
  const cut = (values: number[], from: number) =>
    Array.from({ length: steps }, (_, t) => round(values[(from + t) % values.length]!));
  for (const s of series) {
    s.timestamps = s.timestamps.slice(0, steps);
    for (const [name, values] of Object.entries(s.columns)) {
      for (let g = 1; shiftDays > 0 && g < groups; g++) {
        s.columns[`${name}_g${g}`] = cut(values as number[], g * shiftDays * 24);
      }
      s.columns[name] = cut(values as number[], 0);
    }
  }
  /** A technology's `file=` resource, for copy g: its own shifted column when there is one. */
  const shifted = (tech: string | Json, g: number): string | Json => {
    if (shiftDays === 0 || g === 0 || typeof tech === "string") return tech;
    const constraints = tech["constraints"] as Json | undefined;
    const resource = constraints?.["resource"];
    if (typeof resource !== "string" || !resource.startsWith("file=")) return tech;
    return { ...tech, constraints: { ...constraints, resource: `${resource}_g${g}` } };
  };
  const parameters = config["parameters"] as Json;
  delete parameters["subset_time"];
  delete parameters["overrides"];

  const locations = config["locations"] as (Json & { id: string; lat: number; lon: number })[];
  const links = config["links"] as (Json & { source: string; target: string })[];
  const id = (location: string, g: number) => `${location}_g${g}`;
  const copiedLocations: Json[] = [];
  const copiedLinks: Json[] = [];
  for (let g = 0; g < groups; g++) {
    for (const location of locations) {
      const techs = (location["technologies"] as (string | Json)[]).map((tech) =>
        // csp's resource names no column: each copy names its original location's column.
        tech === "csp"
          ? { name: "csp", constraints: { resource: `file=csp_resource.csv:${location.id}` } }
          : tech
      );
      copiedLocations.push({
        ...location,
        id: id(location.id, g),
        lat: location.lat + (g % 10) * 0.5,
        lon: location.lon + Math.floor(g / 10) * 0.5,
        technologies: techs.map((tech) => shifted(tech, g)),
      });
    }
    for (const link of links) {
      copiedLinks.push({ ...link, source: id(link.source, g), target: id(link.target, g) });
    }
    if (g > 0) {
      copiedLinks.push({
        source: id("region1", g - 1),
        target: id("region1", g),
        technology: "ac_transmission",
        constraints: { energy_cap_max: 10000 },
      });
    }
  }
  config["name"] = `National-scale example x${groups}, ${days} days`;
  config["locations"] = copiedLocations;
  config["links"] = copiedLinks;
  return config;
}

/**
 * A model body of about `bytes` bytes that is valid JSON but an invalid model: one technology
 * and as many locations as fit, each with a misspelt member (`technologis`), so that validation
 * has a problem for every location (a 60 MB one froze the whole process for 13 s before issue 18).
 */
export function invalidModelBody(bytes: number): Uint8Array<ArrayBuffer> {
  // Written straight into bytes (a fixed-width counter in one template): a million strings
  // joined would leave the caller's heap full of garbage, and its next GC would pause it.
  const encoder = new TextEncoder();
  const head = encoder.encode(
    '{"name":"invalid","technologies":[{"name":"ccgt","type":"supply",' +
      '"carrier_out":"power"}],"locations":[',
  );
  const item = encoder.encode(
    ',{"id":"loc0000000","lat":40,"lon":-2,"technologis":["ccgt","demand_power","battery"]}',
  );
  const digitsAt = item.indexOf(0x30); // the counter's first digit
  const count = Math.max(1, Math.ceil((bytes - head.length - 2) / item.length));
  const out = new Uint8Array(head.length + count * item.length - 1 + 2);
  out.set(head, 0);
  let offset = head.length;
  for (let i = 0; i < count; i++) {
    let n = i;
    for (let d = 6; d >= 0; d--) {
      item[digitsAt + d] = 0x30 + (n % 10);
      n = Math.floor(n / 10);
    }
    // The first item has no leading comma.
    const piece = i === 0 ? item.subarray(1) : item;
    out.set(piece, offset);
    offset += piece.length;
  }
  out.set(encoder.encode("]}"), offset);
  return out;
}
