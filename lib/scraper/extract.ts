/**
 * Deterministic extraction of candidate parameters from a paper's title and abstract: capex
 * with currency and unit, fixed and variable O&M, efficiency, lifetime and CO2 factor.
 *
 * Each pattern needs its unit (a currency per kW, `%` next to "efficiency", years next to
 * "lifetime", gCO2 per kWh), so bare numbers such as years ("in 2030") never match. Confidence
 * starts from the strength of the pattern and rises with context keywords in the same sentence
 * ("capital cost", "round-trip"); ranges, change words ("improved by") and life-cycle context
 * lower it or rule the match out.
 */
import {
  ANNUAL,
  AVOIDED,
  CAPEX_AFTER,
  CAPEX_WORDS,
  CHANGE_WORDS,
  CO2,
  CURRENCY_CODES,
  EFFICIENCY_AFTER_PERCENT,
  EFFICIENCY_QUALIFIER,
  LIFECYCLE,
  LIFETIME_AFTER,
  LIFETIME_BEFORE,
  MASSES,
  MONEY_PREFIX,
  MONEY_SUFFIX,
  NOT_CAPEX,
  OF_CAPEX_AFTER_PERCENT,
  OM_WORDS,
  PER_KM_AFTER_UNIT,
  PER_YEAR_AFTER_PERCENT,
  PER_YEAR_AFTER_UNIT,
  PERCENT,
  PREFIXES,
  SCALES,
  VARIABLE_OM,
  YEAR_PREPOSITION,
} from "./_patterns.ts";
import { paperText } from "./paper.ts";
import {
  type CatalogueField,
  type ExtractedParameter,
  type Extractor,
  type FxTable,
  type ParameterName,
  toCatalogueValue,
} from "./parameters.ts";
import { matchTechnologies, mentionsTechnology } from "./technologies.ts";

/** Options of extractParameters. */
export interface ExtractOptions {
  /** USD per unit of currency, for the catalogue values of non-USD amounts. */
  fx?: FxTable;
}

/** How far before a match context keywords are looked for, in characters. */
const WINDOW = 100;

interface Span {
  start: number;
  end: number;
  parameter: ParameterName;
}

interface Found extends ExtractedParameter, Span {}

/** Text with typographic spaces, subscripts and minus signs replaced by plain ones. */
export function normaliseText(text: string): string {
  return text
    .replace(/(\d)[\u00a0\u2009\u202f](\d{3})(?!\d)/g, "$1,$2")
    .replace(/₂/g, "2")
    .replace(/[\u2212\u2010\u2011]/g, "-")
    .replace(/\s+/g, " ")
    .trim();
}

function parseNumber(text: string): number {
  return Number(text.replace(/,/g, ""));
}

/** The value of a match's `lo`/`hi` groups: a number, or the midpoint of a range. */
function rangeValue(groups: Record<string, string | undefined>): [number, boolean] | undefined {
  const lo = parseNumber(groups.lo ?? "");
  if (!Number.isFinite(lo)) return undefined;
  if (groups.hi === undefined) return [lo, false];
  const hi = parseNumber(groups.hi);
  if (!Number.isFinite(hi) || hi < lo) return undefined;
  return [(lo + hi) / 2, true];
}

/** Start and end of the sentence containing [start, end). */
function sentenceBounds(text: string, start: number, end: number): [number, number] {
  let from = 0;
  for (const m of text.slice(0, start).matchAll(/[.!?]\s+/g)) from = m.index + m[0].length;
  const next = /[.!?](?=\s|$)/.exec(text.slice(end));
  return [from, next ? end + next.index + 1 : text.length];
}

/** Start and end of the last match of `pattern` (global) in `text`; [-1, -1] when none. */
function lastMatch(text: string, pattern: RegExp): [number, number] {
  let last: [number, number] = [-1, -1];
  for (const m of text.matchAll(pattern)) last = [m.index, m.index + m[0].length];
  return last;
}

/** Index just after the last match of `pattern` (global) in `text`, or -1. */
function lastMatchEnd(text: string, pattern: RegExp): number {
  return lastMatch(text, pattern)[1];
}

function confidence(score: number): number {
  return Math.round(Math.min(0.99, Math.max(0.05, score)) * 100) / 100;
}

function currencyCode(raw: string): string {
  const lower = raw.toLowerCase().replace(/^us\s+dollar/, "dollar");
  return CURRENCY_CODES[lower] ?? raw.toUpperCase();
}

/** `kW`, `MWh`… for a matched unit (`kw`, `megawatt-hours`, `GWh`). */
function unitCode(raw: string): string {
  const lower = raw.toLowerCase();
  const prefix = PREFIXES[lower[0] as string] as string;
  return `${prefix}W${/h$|hours?$/.test(lower) ? "h" : ""}`;
}

class Collector {
  readonly found: Found[] = [];
  constructor(readonly text: string, readonly fx: FxTable) {}

  /** Text of the sentence before `start`, at most WINDOW characters. */
  before(start: number): string {
    const [from] = sentenceBounds(this.text, start, start);
    return this.text.slice(Math.max(from, start - WINDOW), start);
  }

  /** Text of the sentence after `end`, at most `length` characters. */
  after(end: number, length: number): string {
    const [, to] = sentenceBounds(this.text, end, end);
    return this.text.slice(end, Math.min(to, end + length));
  }

  /** Records a finding whose text starts at `start`. */
  add(
    start: number,
    matched: string,
    parameter: ParameterName,
    value: number,
    unit: string,
    score: number,
    currency?: string,
  ): void {
    const end = start + matched.length;
    const [from, to] = sentenceBounds(this.text, start, end);
    const found: Found = {
      parameter,
      value,
      unit,
      matched_text: matched.trim(),
      context: this.text.slice(from, to).trim(),
      confidence: confidence(score),
      start,
      end,
    };
    if (currency) found.currency = currency;
    const catalogue = toCatalogueValue(parameter, value, unit, this.fx);
    if (catalogue) {
      found.catalogue_field = catalogue.field;
      found.catalogue_value = catalogue.value;
    }
    this.found.push(found);
  }
}

function moneyMatches(c: Collector): void {
  const seen: [number, number][] = [];
  for (const pattern of [MONEY_PREFIX, MONEY_SUFFIX]) {
    for (const m of c.text.matchAll(pattern)) {
      const g = m.groups ?? {};
      const start = m.index;
      const end = start + m[0].length;
      if (seen.some(([s, e]) => start < e && s < end)) continue;
      const range = rangeValue(g);
      if (!range || !g.cur || !g.unit) continue;
      const yearLike = g.hi === undefined && !g.scale && /^(?:19|20)\d{2}$/.test(g.lo ?? "");
      // "in 2030 USD/kW" and "USD2030/kW" name a price year, not an amount.
      const attached = g.gap === "" && /^[a-z]/i.test(g.cur);
      if (yearLike && (attached || YEAR_PREPOSITION.test(c.text.slice(0, start)))) continue;
      seen.push([start, end]);
      const [amount, isRange] = range;
      const value = amount * (g.scale ? SCALES[g.scale.toLowerCase()] ?? 1 : 1);
      const currency = currencyCode(g.cur);
      const unit = unitCode(g.unit);
      const perEnergy = unit.endsWith("h");
      const perKm = PER_KM_AFTER_UNIT.exec(c.text.slice(end, end + 12));
      const afterKm = end + (perKm?.[0].length ?? 0);
      const perYear = PER_YEAR_AFTER_UNIT.exec(c.text.slice(afterKm, afterKm + 30));
      const basis = perKm ? `${unit}/km` : unit;
      const matchedUnit = m[0] + (perKm?.[0] ?? "");
      const before = c.before(start);
      const penalty = isRange ? 0.1 : 0;
      const capexAt = lastMatchEnd(before, CAPEX_WORDS);
      const omAt = lastMatchEnd(before, OM_WORDS);
      if (perYear) {
        const score = (omAt >= 0 ? 0.9 : 0.7) - penalty;
        const matched = matchedUnit + perYear[0];
        c.add(start, matched, "opex_fixed", value, `${currency}/${basis}/yr`, score, currency);
      } else if (perEnergy) {
        if (VARIABLE_OM.test(before)) {
          c.add(start, m[0], "opex_var", value, `${currency}/${unit}`, 0.85 - penalty, currency);
        } else if (capexAt >= 0 && !NOT_CAPEX.test(before.slice(capexAt))) {
          c.add(start, m[0], "capex", value, `${currency}/${unit}`, 0.75 - penalty, currency);
        }
      } else if (omAt > capexAt) {
        // "fixed O&M of EUR 20/kW": per-kW O&M figures are annual even when the year is implied.
        const unitYr = `${currency}/${basis}/yr`;
        c.add(start, matchedUnit, "opex_fixed", value, unitYr, 0.6 - penalty, currency);
      } else if (capexAt >= 0 || CAPEX_AFTER.test(c.after(end, 40))) {
        const score = (capexAt >= 0 ? 0.9 : 0.85) - penalty;
        c.add(start, matchedUnit, "capex", value, `${currency}/${basis}`, score, currency);
      } else if (!NOT_CAPEX.test(before)) {
        c.add(start, matchedUnit, "capex", value, `${currency}/${basis}`, 0.6 - penalty, currency);
      }
    }
  }
}

function percentMatches(c: Collector): void {
  for (const m of c.text.matchAll(PERCENT)) {
    const range = rangeValue(m.groups ?? {});
    if (!range) continue;
    const [value, isRange] = range;
    const penalty = isRange ? 0.1 : 0;
    const start = m.index;
    const end = start + m[0].length;
    const before = c.before(start);
    const after = c.text.slice(end, end + 80);
    const efficiencyBefore = /efficienc(?:y|ies)\b(?<between>[^%\d]{0,40})$/i.exec(before);
    const efficiencyAfter = EFFICIENCY_AFTER_PERCENT.exec(after);
    const [omStart, omBefore] = lastMatch(before, OM_WORDS);
    if (efficiencyBefore && !CHANGE_WORDS.test(efficiencyBefore.groups?.between ?? "")) {
      if (value <= 0 || value > 100) continue;
      const qualifier = before.slice(Math.max(0, efficiencyBefore.index - 20));
      const score = (EFFICIENCY_QUALIFIER.test(qualifier) ? 0.85 : 0.75) - penalty;
      const from = start - before.length + efficiencyBefore.index;
      c.add(from, c.text.slice(from, end), "efficiency", value, "%", score);
    } else if (efficiencyAfter && !CHANGE_WORDS.test(efficiencyAfter.groups?.between ?? "")) {
      if (value <= 0 || value > 100) continue;
      const matched = m[0] + efficiencyAfter[0];
      const score = (EFFICIENCY_QUALIFIER.test(matched + "y") ? 0.8 : 0.7) - penalty;
      c.add(start, matched, "efficiency", value, "%", score);
    } else if (omBefore >= 0 && !/\d/.test(before.slice(omBefore))) {
      const ofCapex = OF_CAPEX_AFTER_PERCENT.exec(after);
      const rest = ofCapex ? after.slice(ofCapex[0].length) : after;
      const perYear = PER_YEAR_AFTER_PERCENT.exec(rest);
      const annual = ANNUAL.test(before);
      if (!ofCapex && !perYear && !annual) continue;
      if (value <= 0 || value > 20) continue;
      const from = start - before.length + omStart;
      const matched = c.text.slice(from, end) + (ofCapex?.[0] ?? "") + (perYear?.[0] ?? "");
      const strength = (ofCapex ? 1 : 0) + (perYear || annual ? 1 : 0);
      const score = (strength === 2 ? 0.85 : 0.7) - penalty;
      c.add(from, matched, "opex_fixed", value, "%capex/yr", score);
    }
  }
}

function lifetimeMatches(c: Collector): void {
  for (const [pattern, score] of [[LIFETIME_AFTER, 0.85], [LIFETIME_BEFORE, 0.8]] as const) {
    for (const m of c.text.matchAll(pattern)) {
      if (CHANGE_WORDS.test(m.groups?.between ?? "")) continue;
      const range = rangeValue(m.groups ?? {});
      if (!range) continue;
      const [value, isRange] = range;
      if (value < 1 || value > 150) continue;
      c.add(m.index, m[0], "lifetime", value, "years", score - (isRange ? 0.1 : 0));
    }
  }
}

function co2Matches(c: Collector): void {
  for (const m of c.text.matchAll(CO2)) {
    const g = m.groups ?? {};
    const range = rangeValue(g);
    const mass = MASSES[(g.mass ?? "").toLowerCase()];
    if (!range || !mass || !g.energy) continue;
    const energy = unitCode(g.energy);
    const [value, isRange] = range;
    const start = m.index;
    const [from, to] = sentenceBounds(c.text, start, start + m[0].length);
    const sentence = c.text.slice(from, to);
    // Life-cycle and avoided emissions are not the operational factor the catalogue holds.
    const indirect = LIFECYCLE.test(sentence) || AVOIDED.test(c.before(start));
    const score = 0.85 - (indirect ? 0.3 : 0) - (isRange ? 0.1 : 0);
    c.add(start, m[0], "co2_factor", value, `${mass}CO2/${energy}`, score);
  }
}

/** Drops matches overlapping an earlier match of the same parameter. */
function withoutOverlaps(found: Found[]): Found[] {
  const kept: Found[] = [];
  for (const f of [...found].sort((a, b) => a.start - b.start || b.end - a.end)) {
    const overlaps = kept.some((k) =>
      k.parameter === f.parameter && f.start < k.end && k.start < f.end
    );
    if (!overlaps) kept.push(f);
  }
  return kept;
}

/** The fixed O&M field that goes with each capex field. */
const OM_FIELDS: Readonly<Partial<Record<CatalogueField, CatalogueField>>> = {
  capex_usd_per_kw: "opex_fixed_usd_per_kw_yr",
  capex_usd_per_kwh: "opex_fixed_usd_per_kwh_yr",
  capex_usd_per_kw_km: "opex_fixed_usd_per_kw_km_yr",
};

/**
 * O&M stated as a share of capex gets a catalogue value when the same text gives exactly one
 * convertible capex figure: with two, which one the share refers to is a guess.
 */
function deriveOmFromCapex(found: Found[]): void {
  const capex = found.filter((f) => f.parameter === "capex" && f.catalogue_field);
  const values = new Set(capex.map((f) => `${f.catalogue_field}=${f.catalogue_value}`));
  const [base] = capex;
  if (values.size !== 1 || !base?.catalogue_field || base.catalogue_value === undefined) return;
  const field = OM_FIELDS[base.catalogue_field];
  if (!field) return;
  for (const f of found) {
    if (f.parameter === "opex_fixed" && f.unit === "%capex/yr") {
      f.catalogue_field = field;
      f.catalogue_value = Number((f.value / 100 * base.catalogue_value).toPrecision(10));
    }
  }
}

/** Every parameter the patterns find in `text`, in text order. */
export function extractParameters(
  text: string,
  options: ExtractOptions = {},
): ExtractedParameter[] {
  const collector = new Collector(normaliseText(text), options.fx ?? {});
  moneyMatches(collector);
  percentMatches(collector);
  lifetimeMatches(collector);
  co2Matches(collector);
  const found = withoutOverlaps(collector.found);
  deriveOmFromCapex(found);
  return found.map(({ start: _start, end: _end, ...parameter }) => parameter);
}

/** The most confident finding per parameter (the earliest on ties). */
export function bestPerParameter(found: readonly ExtractedParameter[]): ExtractedParameter[] {
  const best = new Map<ParameterName, ExtractedParameter>();
  for (const f of found) {
    const current = best.get(f.parameter);
    if (!current || f.confidence > current.confidence) best.set(f.parameter, f);
  }
  return [...best.values()];
}

/**
 * The pattern extractor for one technology: lowers confidence when the paper also covers other
 * technologies, and more when the value's own sentence names another technology but not this one.
 */
export function createPatternExtractor(options: ExtractOptions = {}): Extractor {
  return {
    name: "pattern",
    extract(paper, technology_id) {
      const text = paperText(paper);
      const others = matchTechnologies(text).filter((id) => id !== technology_id);
      const found = extractParameters(text, options).map((f) => {
        let penalty = others.length > 0 ? 0.15 : 0;
        const sentence = f.context ?? "";
        if (
          others.length > 0 && !mentionsTechnology(sentence, technology_id) &&
          matchTechnologies(sentence, others).length > 0
        ) penalty += 0.2;
        return { ...f, confidence: confidence(f.confidence - penalty) };
      });
      return Promise.resolve(found);
    },
  };
}
