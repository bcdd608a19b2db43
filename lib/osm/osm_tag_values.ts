/** Parsers for the OSM tag values the layers expose as numbers. */

/**
 * Voltages in kV from an OSM `voltage` value: volts separated by `;` (one per circuit), e.g.
 * "110000;16000" -> [110, 16]; a "kV" unit is honoured. Unparsable parts are skipped.
 */
export function parseVoltageKv(value: string | undefined): number[] {
  if (value === undefined) return [];
  const out: number[] = [];
  for (const part of value.split(/[;,/]/)) {
    const m = /^\s*([0-9]+(?:\.[0-9]+)?)\s*(kv|v)?\s*$/i.exec(part);
    if (!m) continue;
    const n = Number(m[1]);
    out.push(m[2]?.toLowerCase() === "kv" ? n : n / 1000);
  }
  return out;
}

const POWER_UNITS: Record<string, number> = { w: 1e-6, kw: 1e-3, mw: 1, gw: 1e3 };

/**
 * Electrical output in MW from an OSM `*:output:electricity` value such as "5 MW", "30 kWp" or
 * "1.2 GW"; undefined for "yes", a value without a unit, or several values.
 */
export function parseOutputMw(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = /^\s*([0-9]+(?:[.,][0-9]+)?)\s*([kmg]?w)p?\s*$/i.exec(value);
  if (!m) return undefined;
  const factor = POWER_UNITS[(m[2] as string).toLowerCase()] as number;
  return Number((m[1] as string).replace(",", ".")) * factor;
}

/**
 * A count such as `circuits` or `cables`: the sum of `;`-separated integers ("3;3" -> 6, one
 * per voltage); undefined when no part is an integer.
 */
export function parseCount(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  let total = 0, any = false;
  for (const part of value.split(";")) {
    if (!/^\s*[0-9]+\s*$/.test(part)) continue;
    total += Number(part);
    any = true;
  }
  return any ? total : undefined;
}
