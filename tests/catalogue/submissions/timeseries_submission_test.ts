import assert from "node:assert/strict";
import type { Person } from "../../../lib/catalogue/submissions/submission_record.ts";
import {
  createDuckDbSubmissionRepository,
  TIMESERIES_TABLE,
} from "../../../lib/catalogue/submissions/submission_repository.ts";
import {
  readSubmittedProfile,
  servedSubmittedProfile,
  submittedProfile,
  timeseriesListing,
  type TimeseriesSubmission,
  timeseriesSubmissionSchema,
} from "../../../lib/catalogue/submissions/timeseries_submission.ts";
import { stepTimes } from "../../../lib/catalogue/opentech/profile_points.ts";
import { openStore } from "../../../lib/store/store.ts";

const RESEARCHER: Person = { subject: "0000-0002-1825-0097", name: "Josiah Carberry" };
const ADMIN: Person = { subject: "admin:admin@example.org", name: "Administrator" };

// The first six hours of DE solar PV 2016 (catalogues/profiles/DE_solar_pv_2016.json) from 07:00.
const SOLAR = [0.001, 0.021, 0.058, 0.093, 0.113, 0.11];
const BODY = timeseriesSubmissionSchema.parse({
  profile_id: "de_solar_morning_3f2a9c1e",
  name: "DE solar PV, morning of 1 January 2016",
  type: "capacity_factor",
  resolution: "1h",
  location: "DE",
  carrier: "solar",
  year: 2016,
  source: "Dispa-SET EU28 input data",
  unit: "p.u.",
  values: SOLAR,
});

function submission(
  profile: TimeseriesSubmission["profile"],
  approved = true,
): TimeseriesSubmission {
  return {
    submission_id: "9b1c2d3e-0000-4000-8000-000000000001",
    status: approved ? "approved" : "pending",
    profile,
    submitted_by: RESEARCHER,
    submitted_at: "2026-03-02T10:00:00.000Z",
    reviewed_by: approved ? ADMIN : null,
    reviewed_at: approved ? "2026-03-02T11:00:00.000Z" : null,
  };
}

Deno.test("submittedProfile() adds start and description only for an upload", () => {
  const json = submittedProfile(BODY);
  assert.equal("start" in json, false, "a JSON submission keeps its old shape");
  assert.equal("description" in json, false);
  const upload = submittedProfile(BODY, {
    start: "2016-01-01T07:00:00Z",
    description: "Hourly, UTC.",
  });
  assert.equal(upload.start, "2016-01-01T07:00:00Z");
  assert.equal(upload.description, "Hourly, UTC.");
  const bare = submittedProfile(BODY, {});
  assert.equal(bare.start, null);
  assert.equal(bare.description, null);
});

Deno.test("timeseriesSubmissionSchema (the spec's body) still refuses start and description", () => {
  const result = timeseriesSubmissionSchema.safeParse({
    ...BODY,
    start: "2016-01-01T07:00:00Z",
    description: "x",
  });
  assert.equal(result.success, false);
});

Deno.test("readSubmittedProfile() reads a row stored before uploads with null start", () => {
  const old = JSON.stringify(submittedProfile(BODY));
  const profile = readSubmittedProfile(old);
  assert.equal(profile.start, null);
  assert.equal(profile.description, null);
  assert.deepEqual(profile.values, SOLAR);
});

Deno.test("servedSubmittedProfile() serves a known start with the start of the last step", async (t) => {
  const cases: [string, string, number, string][] = [
    ["1h", "2016-01-01T07:00:00Z", 6, "2016-01-01T12:00:00Z"],
    ["15min", "2019-06-01T00:00:00Z", 4, "2019-06-01T00:45:00Z"],
    ["24h", "2016-02-27T00:00:00Z", 4, "2016-03-01T00:00:00Z"], // through 29 February
  ];
  for (const [resolution, start, n, end] of cases) {
    await t.step(`${n} steps of ${resolution}`, () => {
      const body = { ...BODY, resolution, values: SOLAR.slice(0, n) };
      const served = servedSubmittedProfile(submission(submittedProfile(body, { start })));
      assert.equal(served.start, start);
      assert.equal(served.end, end);
      // The points the frontend plots are then evenly spaced up to `end`.
      const times = stepTimes(served);
      assert.equal(times?.length, n);
      assert.equal(times?.at(-1), Date.parse(end));
    });
  }
  await t.step("no start: start and end null, as before", () => {
    const served = servedSubmittedProfile(submission(submittedProfile(BODY)));
    assert.equal(served.start, null);
    assert.equal(served.end, null);
  });
  await t.step("the description becomes a note", () => {
    const profile = submittedProfile(BODY, { start: null, description: "Hourly, UTC." });
    const served = servedSubmittedProfile(submission(profile));
    assert.equal(served.notes.length, 2);
    assert.equal(served.notes[1], "Submitter's description: Hourly, UTC.");
  });
});

Deno.test("the repository reads old rows with null start and keeps an upload's extras", async () => {
  const store = await openStore(":memory:");
  try {
    const repository = await createDuckDbSubmissionRepository(store);
    // A row as stored before uploads existed: its profile JSON has no start or description.
    const old = submission(submittedProfile(BODY), false);
    await store.run(
      `INSERT INTO ${TIMESERIES_TABLE} (submission_id, status, profile_id, profile_json, ` +
        "submitted_by, submitted_at) VALUES ($1, $2, $3, $4, $5, $6)",
      [
        old.submission_id,
        "pending",
        BODY.profile_id,
        JSON.stringify(old.profile),
        JSON.stringify(RESEARCHER),
        old.submitted_at,
      ],
    );
    const read = await repository.getTimeseries(old.submission_id);
    assert.equal(read?.profile.start, null);
    assert.equal(read?.profile.description, null);
    const [listed] = await repository.listTimeseries();
    assert.equal(listed?.profile.start, null);
    const listing = timeseriesListing(read!);
    assert.equal(listing.profile.start, null);
    assert.equal(listing.profile.description, null);
    assert.equal(listing.profile.n_timesteps, 6);

    const upload: TimeseriesSubmission = {
      ...submission(
        submittedProfile({ ...BODY, profile_id: "de_solar_morning_77aa" }, {
          start: "2016-01-01T07:00:00Z",
          description: "Hourly, UTC.",
        }),
        false,
      ),
      submission_id: "9b1c2d3e-0000-4000-8000-000000000002",
    };
    await repository.insertTimeseries(upload);
    const approved = await repository.reviewTimeseries(
      upload.submission_id,
      "approved",
      ADMIN,
      "2026-03-02T12:00:00.000Z",
    );
    assert.ok(approved.ok);
    assert.equal(approved.submission.profile.start, "2016-01-01T07:00:00Z");
    assert.equal(approved.submission.profile.description, "Hourly, UTC.");
    const [served] = (await repository.approvedTimeseries()).map(servedSubmittedProfile);
    assert.equal(served?.start, "2016-01-01T07:00:00Z");
    assert.equal(served?.end, "2016-01-01T12:00:00Z");
    assert.equal(timeseriesListing(approved.submission).profile.description, "Hourly, UTC.");
  } finally {
    await store.close();
  }
});
