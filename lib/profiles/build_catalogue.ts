/**
 * Turns the parsed source tables into catalogue profiles: one per non-blank series, 29 February
 * dropped, a partly filled series cut to its filled span, the Norwegian run-of-river factor
 * clipped to 1; each with its metadata, source text and notes saying what was done.
 * Pure: the pipeline reads the files and writes the result.
 */
import { COUNTRIES, type Country } from "./countries.ts";
import {
  DISPASET_COUNTRY_NOTES,
  DISPASET_NOTES,
  DISPASET_SERIES,
  dispasetSource,
} from "./dispaset_series.ts";
import { PRICE_SOURCES } from "./price_sources.ts";
import type { CatalogueProfile, UnpublishedSeries } from "./profile_schema.ts";
import type { SourceTable } from "./source_table.ts";

/** The profiles to publish and the series left out, both sorted by profile id. */
export interface BuiltCatalogue {
  profiles: CatalogueProfile[];
  not_published: UnpublishedSeries[];
}

/** The price column of the per-country files; prices come from prices_2016.csv instead. */
const EMPTY_PRICE_COLUMN = "day_ahead_price_eur_per_mwh";

/** Series clipped to 1, by `<ISO>_<key>`, with the reason (data/profiles/SOURCE.md). */
const CLIPPED: Readonly<Record<string, string>> = {
  NO_hydro_ror: "the source is a scaled availability factor, not a physical capacity factor",
};

/** One series cut from a table: its filled span without 29 February. */
interface Cut {
  values: number[];
  start: string;
  end: string;
  notes: string[];
}

function isLeapDay(timestamp: string): boolean {
  return timestamp.slice(5, 10) === "02-29";
}

/** Cuts a column to its filled span and drops 29 February; null when the column is blank. */
function cutSeries(table: SourceTable, column: string): Cut | null {
  const cells = table.columns.get(column);
  if (!cells) throw new TypeError(`Cannot read "${table.file}": no column ${column}`);
  const first = cells.findIndex((v) => v !== null);
  if (first < 0) return null;
  const last = cells.findLastIndex((v) => v !== null);
  const ts = table.timestamps;
  const kept: number[] = [];
  const times: string[] = [];
  const dropped: number[] = [];
  for (let i = first; i <= last; i++) {
    const time = ts[i] ?? "";
    const value = cells[i];
    // Nothing is interpolated: a hole inside the span stops the build.
    if (value === null || value === undefined) {
      throw new RangeError(
        `"${table.file}" column ${column}: ${time} is blank inside the filled span`,
      );
    }
    if (isLeapDay(time)) {
      dropped.push(i);
      continue;
    }
    kept.push(value);
    times.push(time);
  }
  const start = times[0] ?? "";
  const end = times[times.length - 1] ?? "";
  const notes: string[] = [];
  if (dropped.length > 0) {
    const before = ts[(dropped[0] ?? 0) - 1];
    const after = ts[(dropped[dropped.length - 1] ?? 0) + 1];
    notes.push(
      `29 February is dropped (${dropped.length} hours of a leap year), so the series has ` +
        `${kept.length} steps: the step after ${before} is ${after}.`,
    );
  }
  if (first > 0 || last < cells.length - 1) {
    const blank = [
      first > 0 ? `${first} hours before ${start}` : "",
      last < cells.length - 1 ? `${cells.length - 1 - last} hours after ${end}` : "",
    ].filter(Boolean).join(" and ");
    notes.push(
      `Published only for the hours the source fills, ${start} to ${end} (${kept.length} ` +
        `steps): the ${blank} are blank in the source and were not filled. Not an annual series.`,
    );
  }
  return { values: kept, start, end, notes };
}

/** Clips values above 1 and returns the note saying how many hours were clipped. */
function clipToOne(values: number[], reason: string): string | null {
  const over = values.filter((v) => v > 1);
  if (over.length === 0) return null;
  const max = Math.max(...over);
  values.forEach((v, i) => {
    if (v > 1) values[i] = 1;
  });
  return `Clipped to 1 in ${over.length} of ${values.length} hours (source maximum ${max}): ` +
    `${reason}.`;
}

/** The data year of a table: the year of its first hour. */
function yearOf(table: SourceTable): number {
  return Number((table.timestamps[0] ?? "").slice(0, 4));
}

function dispasetProfiles(country: Country, table: SourceTable, out: BuiltCatalogue): void {
  const prices = table.columns.get(EMPTY_PRICE_COLUMN);
  if (prices?.some((v) => v !== null)) {
    throw new RangeError(
      `"${table.file}" column ${EMPTY_PRICE_COLUMN} has values; prices are read from ` +
        "prices_2016.csv only",
    );
  }
  const year = yearOf(table);
  for (const series of DISPASET_SERIES) {
    const key = `${country.iso}_${series.key}`;
    const cut = cutSeries(table, series.column);
    if (!cut) {
      out.not_published.push({
        profile_id: `${key}_${year}`,
        reason: `Column ${series.column} of ${table.file} is blank for every hour: ` +
          `${series.blank_reason}.`,
      });
      continue;
    }
    const notes = [...series.notes, ...cut.notes];
    const country_note = DISPASET_COUNTRY_NOTES[key];
    if (country_note) notes.push(country_note);
    const clip_reason = CLIPPED[key];
    const clip_note = clip_reason ? clipToOne(cut.values, clip_reason) : null;
    if (clip_note) notes.push(clip_note);
    notes.push(...DISPASET_NOTES);
    out.profiles.push({
      profile_id: `${key}_${year}`,
      name: `${country.name} ${series.label} ${year}`,
      type: series.type,
      resolution: "1h",
      location: country.iso,
      carrier: series.carrier,
      year,
      n_timesteps: cut.values.length,
      unit: series.unit,
      start: cut.start,
      end: cut.end,
      source: dispasetSource(series, country),
      notes,
      values: cut.values,
    });
  }
}

function priceProfile(country: Country, table: SourceTable, out: BuiltCatalogue): void {
  const source = PRICE_SOURCES[country.iso];
  if (!source) throw new TypeError(`No price source is described for ${country.iso}`);
  const cut = cutSeries(table, country.iso);
  const year = yearOf(table);
  if (!cut) {
    out.not_published.push({
      profile_id: `${country.iso}_price_${year}`,
      reason: `Column ${country.iso} of ${table.file} is blank for every hour.`,
    });
    return;
  }
  const zone = [country.iso, country.name].includes(source.zone) ? "" : ` (${source.zone})`;
  const full = cut.start.slice(5) === "01-01T00:00:00Z" && cut.end.slice(5) === "12-31T23:00:00Z";
  const span = full ? "" : `, ${cut.start.slice(0, 10)} to ${cut.end.slice(0, 10)}`;
  out.profiles.push({
    profile_id: `${country.iso}_price_${year}`,
    name: `${country.name} day-ahead electricity price ${year}${zone}${span}`,
    type: "price",
    resolution: "1h",
    location: country.iso,
    carrier: "electricity",
    year,
    n_timesteps: cut.values.length,
    unit: "EUR/MWh",
    start: cut.start,
    end: cut.end,
    source: source.source,
    notes: [...cut.notes, ...source.notes],
    values: cut.values,
  });
}

/**
 * Builds every catalogue profile from the per-country tables (by ISO code) and the price table.
 * Throws when a country's table is missing or a series has a hole inside its filled span.
 */
export function buildCatalogue(
  country_tables: ReadonlyMap<string, SourceTable>,
  prices: SourceTable,
  countries: readonly Country[] = COUNTRIES,
): BuiltCatalogue {
  const out: BuiltCatalogue = { profiles: [], not_published: [] };
  for (const country of countries) {
    const table = country_tables.get(country.iso);
    if (!table) throw new TypeError(`No source table for ${country.iso}`);
    dispasetProfiles(country, table, out);
    priceProfile(country, prices, out);
  }
  const byId = (a: { profile_id: string }, b: { profile_id: string }) =>
    a.profile_id < b.profile_id ? -1 : a.profile_id > b.profile_id ? 1 : 0;
  out.profiles.sort(byId);
  out.not_published.sort(byId);
  return out;
}
