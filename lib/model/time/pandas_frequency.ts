/**
 * Fixed-length pandas frequencies and timedeltas as Calliope 0.6's time settings give them
 * (`resolution: 2H`, `length: 1D`, `padding: 30min`): an optional number and a unit.
 * Calendar frequencies (`W`, `M`) have no fixed length, so they are not read here.
 */
import { HOUR_MS } from "./time_data.ts";

const UNIT_MS: Readonly<Record<string, number>> = {
  D: 24 * HOUR_MS,
  d: 24 * HOUR_MS,
  days: 24 * HOUR_MS,
  H: HOUR_MS,
  h: HOUR_MS,
  hours: HOUR_MS,
  T: 60_000,
  min: 60_000,
  S: 1000,
  s: 1000,
};

/** `2H` -> 7,200,000 ms; undefined for text pandas would not read as a positive fixed length. */
export function fixedFrequencyMs(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)?\s*([A-Za-z]+)\s*$/.exec(text);
  if (!m) return undefined;
  const unit = UNIT_MS[m[2]!];
  if (unit === undefined) return undefined;
  const ms = Math.round((m[1] === undefined ? 1 : Number(m[1])) * unit);
  return ms > 0 ? ms : undefined;
}

/** The message for a frequency that cannot be read. */
export function frequencyMessage(name: string, text: string): string {
  return `cannot read ${name} "${text}": give a fixed length pandas reads, such as 15T, 30min, ` +
    "2H or 1D (calendar frequencies such as W or M are not supported here)";
}
