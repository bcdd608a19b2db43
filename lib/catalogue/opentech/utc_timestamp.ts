/**
 * Time stamps of uploaded profiles: ISO 8601 calendar dates and times read to milliseconds
 * since the epoch, and written back in UTC.
 *
 * Read: `2019-01-01`, `2019-01-01 00:00`, `2019-01-01T00:00:00`, with optional fractional
 * seconds and an optional zone (`Z`, `+01:00`, `+0100`, `+01`). A time without a zone is UTC:
 * the original backend stores the text as sent and its frontend reads it as UTC; JavaScript's
 * `Date.parse` would read it as the server's local time instead, so it is not used. Fields out of
 * range (month 13, 30 February, 24:00) are refused rather than rolled over.
 */

const ISO_8601 = new RegExp(
  "^(\\d{4})-(\\d{2})-(\\d{2})" + // date
    "(?:[Tt ](\\d{2}):(\\d{2})(?::(\\d{2})(?:[.,](\\d{1,9}))?)?)?" + // time
    "\\s*(?:([Zz])|([+-])(\\d{2})(?::?(\\d{2}))?)?$", // zone
);

/** Milliseconds since the epoch of an ISO 8601 date or date-time; undefined when not one. */
export function parseUtcTimestamp(text: string): number | undefined {
  const m = ISO_8601.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", , sign, oh = "0", om = "0"] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  const ms = Math.round(Number(`0.${frac || "0"}`) * 1000);
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, ms));
  date.setUTCFullYear(year, month - 1, day); // Date.UTC would read years 0 to 99 as 19xx
  // A day past the month's end (30 February) rolls over to the next month: refused.
  if (date.getUTCMonth() !== month - 1) return undefined;
  const t = date.getTime();
  if (Number(oh) > 23 || Number(om) > 59) return undefined;
  const offset = (Number(oh) * 60 + Number(om)) * 60_000;
  return sign === "-" ? t + offset : sign === "+" ? t - offset : t;
}

/** `2016-01-01T00:00:00Z`: ISO 8601 in UTC, with milliseconds only when there are any. */
export function isoUtc(ms: number): string {
  return new Date(ms).toISOString().replace(".000Z", "Z");
}
