/**
 * A profile upload, OpenTech-DB's `POST /timeseries/upload` (multipart form fields and a CSV or
 * JSON file), turned into the body of the spec's `POST /timeseries/submit` plus what only a file
 * has (the time of the first step, a description): one submission desk for both wire forms.
 *
 * Fields, as the frontend's upload form sends them:
 * - required (as in the original): `name`, `type`, `resolution`, `location`, `source`,
 *   `carrier` and the file. `type` is any lower snake_case type, as our profile schema allows
 *   (the original's five: capacity_factor, load, generation, weather, price).
 * - `resolution`: the frontend's `15min`, `30min`, `hourly` (stored `1h`) and `daily` (`24h`),
 *   or any step length of ours (`1h`, `15min`, ...).
 * - `location` is upper-cased, as the original does (`de` is stored `DE`).
 * - optional: `year` (an integer from 1900 to 2100, the frontend form's range; empty or `0`, the
 *   original's "no year", is none), `unit` (kept as sent; none when empty: no unit is made up,
 *   where the original assumed `p.u.`), `description` (at most 500 characters, as the form).
 *   Other fields are ignored.
 *
 * The file (`profile_file.ts`) gives time stamps and values. They must be strictly increasing
 * and evenly spaced by exactly the resolution, since a profile is stored as values on a fixed
 * step from its start: the first row that breaks the step is named (a dropped 29 February
 * included: the catalogue's own files drop it, but an upload must fill the day in). The body is
 * then checked by the spec's own schema (`timeseriesSubmissionSchema`: capacity factors within
 * [0, 1], ...), whose issues are reported by row or field too.
 *
 * `profile_id` is a slug of the name (lower case, `_` between words, at most 64 characters) and a
 * short random suffix, as the original names its approved profiles.
 */
import { describeProfileIssues, RESOLUTION_PATTERN } from "../../profiles/profile_schema.ts";
import {
  type TimeseriesSubmissionBody,
  timeseriesSubmissionSchema,
} from "../submissions/timeseries_submission.ts";
import { parseProfileFile } from "./profile_file.ts";
import { stepMs } from "./profile_points.ts";

export { parseProfileFile } from "./profile_file.ts";

/** The frontend's resolution names that are not step lengths, and the step length of each. */
export const NAMED_RESOLUTIONS: Readonly<Record<string, string>> = { hourly: "1h", daily: "24h" };

/** Longest description, in characters (the frontend form's limit). */
export const MAX_DESCRIPTION_LENGTH = 500;

/** Longest name part of a generated profile id. */
const MAX_SLUG_LENGTH = 64;

/** Form fields an upload cannot do without, beside the file. */
const REQUIRED_FIELDS = ["name", "type", "resolution", "location", "source", "carrier"] as const;

/** An upload turned into a submission, or every problem found in its fields and file. */
export type UploadedProfile =
  | {
    ok: true;
    body: TimeseriesSubmissionBody;
    /** Start of the first step, UTC (ISO 8601). */
    start: string;
    description: string | null;
  }
  | { ok: false; problems: string[] };

/** The step length of a resolution as the frontend or the spec names it; undefined if none. */
export function uploadResolution(resolution: string): string | undefined {
  const name = resolution.trim().toLowerCase();
  const step = NAMED_RESOLUTIONS[name] ?? name;
  return RESOLUTION_PATTERN.test(step) ? step : undefined;
}

/** `de_offshore_wind_cf_2023` from "DE Offshore-Wind CF 2023"; `profile` when nothing is left. */
export function profileSlug(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "") // accents: é -> e
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/^_+|_+$/g, "");
  return slug || "profile";
}

/** `25h`, `45min`, `1h 30min`, `90s`: a time span for a message. */
function span(ms: number): string {
  const sign = ms < 0 ? "-" : "";
  const abs = Math.abs(ms);
  if (abs % 60_000 !== 0) return `${sign}${abs / 1000}s`;
  const minutes = abs / 60_000;
  const h = Math.floor(minutes / 60);
  const min = minutes % 60;
  const parts = [h ? `${h}h` : "", min ? `${min}min` : ""].filter(Boolean);
  return sign + (parts.join(" ") || "0min");
}

/** The first row whose time stamp is not one step after the previous one's, as a problem. */
function stepProblem(
  timestamps: readonly string[],
  times: readonly number[],
  rows: readonly number[],
  resolution: string,
  step: number,
): string | undefined {
  for (let i = 1; i < times.length; i++) {
    const gap = times[i]! - times[i - 1]!;
    if (gap === step) continue;
    const here = `row ${rows[i]}: ${timestamps[i]}`;
    const previous = `the previous row's ${timestamps[i - 1]}`;
    if (gap <= 0) return `${here} is not after ${previous}: rows must be in time order`;
    const leapDay = new Date(times[i - 1]! + step);
    const skipsLeapDay = gap === step + 86_400_000 && leapDay.getUTCMonth() === 1 &&
      leapDay.getUTCDate() === 29;
    return `${here} is ${span(gap)} after ${previous}, but the resolution is ${resolution}: ` +
      "every step needs a row" + (skipsLeapDay ? " (29 February is missing)" : "");
  }
  return undefined;
}

/** The form field, trimmed; undefined when absent or blank. */
function field(fields: Readonly<Record<string, string>>, name: string): string | undefined {
  const value = fields[name]?.trim();
  return value ? value : undefined;
}

/**
 * Turns an upload (form fields and file) into a valid submission body with its start and
 * description, or every problem found, each naming its field or row.
 *
 * `newProfileId` gives the random suffix of the profile id (a few letters or digits).
 */
export function uploadedProfile(
  fields: Readonly<Record<string, string>>,
  file: { name: string; text: string },
  newProfileId: () => string,
): UploadedProfile {
  const problems: string[] = [];
  const reported = new Set<string>();
  const refuse = (name: string, problem: string) => {
    problems.push(`${name}: ${problem}`);
    reported.add(name);
  };

  for (const name of REQUIRED_FIELDS) {
    if (field(fields, name) === undefined) refuse(name, "is required");
  }
  const name = field(fields, "name");
  const rawResolution = field(fields, "resolution");
  const resolution = rawResolution === undefined ? undefined : uploadResolution(rawResolution);
  if (rawResolution !== undefined && resolution === undefined) {
    refuse(
      "resolution",
      `${JSON.stringify(rawResolution)} is not a resolution: use 15min, 30min, hourly, daily ` +
        "or a step length such as 1h",
    );
  }
  const rawYear = field(fields, "year");
  let year: number | undefined;
  if (rawYear !== undefined && rawYear !== "0") {
    year = /^\d{1,4}$/.test(rawYear) ? Number(rawYear) : NaN;
    if (!(year >= 1900 && year <= 2100)) {
      refuse("year", `${JSON.stringify(rawYear)} is not a year from 1900 to 2100`);
      year = undefined;
    }
  }
  const description = field(fields, "description") ?? null;
  if (description !== null && description.length > MAX_DESCRIPTION_LENGTH) {
    refuse(
      "description",
      `has ${description.length} characters, at most ${MAX_DESCRIPTION_LENGTH} are allowed`,
    );
  }

  const parsed = parseProfileFile(file.name, file.text);
  if (!parsed.ok) problems.push(...parsed.problems);
  const step = resolution === undefined ? undefined : stepMs(resolution);
  if (parsed.ok && resolution !== undefined && step !== undefined) {
    const problem = stepProblem(parsed.timestamps, parsed.times, parsed.rows, resolution, step);
    if (problem) problems.push(problem);
  }

  // The spec's schema checks the rest (names, codes, capacity factors) as for a JSON body.
  const candidate: Record<string, unknown> = {
    profile_id: `${profileSlug(name ?? "")}_${newProfileId()}`.slice(0, 128),
    name: name ?? "",
    values: parsed.ok ? parsed.values : [],
  };
  const optional = {
    type: field(fields, "type"),
    resolution,
    location: field(fields, "location")?.toUpperCase(),
    carrier: field(fields, "carrier"),
    year,
    source: field(fields, "source"),
    unit: field(fields, "unit"),
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined) candidate[key] = value;
  }
  const checked = timeseriesSubmissionSchema.safeParse(candidate);
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const [head, index] = issue.path;
      if (head === "values") {
        if (!parsed.ok) continue; // the file's own problems are reported already
        const row = typeof index === "number" ? parsed.rows[index] : undefined;
        problems.push(`${row === undefined ? "file" : `row ${row}`}: ${issue.message}`);
      } else if (typeof head === "string" && !reported.has(head)) {
        refuse(head, issue.message);
      } else if (head === undefined) {
        problems.push(issue.message);
      }
    }
  }

  if (!checked.success && problems.length === 0) {
    // Not reached today (an issue is skipped only beside the file's own problems), but an
    // upload is never refused without a reason.
    problems.push(...describeProfileIssues(checked.error.issues));
  }
  if (problems.length > 0 || !checked.success || !parsed.ok) return { ok: false, problems };
  return { ok: true, body: checked.data, start: parsed.timestamps[0]!, description };
}
