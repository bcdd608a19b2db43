/**
 * Fuzzing the model path with near-valid models: Calliope's national-scale example (both forms
 * the runner accepts) with one to three members replaced, removed or added by fast-check. Every
 * body must be either accepted, and then build a finite LP, or refused with problems that each
 * name a JSON path; nothing may throw. Bounded in time (FUZZ_SECONDS, default 6); FUZZ_SEED
 * replays a run.
 */
import type { LinearProgram } from "../../lib/lp/linear_program.ts";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { buildLp } from "../../lib/lp/build_lp.ts";
import { importCalliopeModel } from "../../lib/model/calliope/calliope_import.ts";
import { prepareModelBody } from "../../lib/model/prepare_model_body.ts";

const SECONDS = Number(Deno.env.get("FUZZ_SECONDS") ?? 6);
const SEED = Deno.env.get("FUZZ_SEED");

const config = await importCalliopeModel(
  new URL("../../data/models/calliope_national_scale", import.meta.url).pathname,
  { overrides: { "model.subset_time": "2005-01-01" } },
);
// Only the modelled day of each series, so that a body builds in milliseconds.
const small = structuredClone(config);
for (const series of small.timeSeries) {
  const keep = series.timestamps.map((t, i) => (t.startsWith("2005-01-01") ? i : -1))
    .filter((i) => i >= 0);
  series.timestamps = keep.map((i) => series.timestamps[i]!);
  for (const [name, values] of Object.entries(series.columns)) {
    series.columns[name] = keep.map((i) => values[i]!);
  }
}
// The same day with a reserve margin on power (Calliope's `reserve_margin` scenario).
const withReserveMargin = {
  ...small,
  parameters: { ...small.parameters, reserve_margin: { power: 0.1 } },
};
// The same day with the objective settings (issue 21 section 3), so that edits reach them.
const withObjectiveSettings = {
  ...small,
  parameters: {
    ...small.parameters,
    objective: "check_feasibility",
    objective_sense: "maximize",
    objective_cost_class: { monetary: 1, emissions: 0.5 },
    zero_threshold: 1e-6,
  },
};
// The same day with group constraints (issue 21 section 2): a share, a capacity cap, a cost cap
// and a share decided by the model (relaxed by 5 %).
const withGroupConstraints = {
  ...small,
  groupConstraints: {
    renewable_share: { techs: ["csp"], carrier_prod_share_min: { power: 0.2 } },
    ccgt_cap: { techs: ["ccgt"], energy_cap_max: 25000 },
    cost_cap: { cost_max: { monetary: 1e9 } },
    decided_share: { techs: ["ccgt", "csp"], demand_share_per_timestep_decision: { power: 1 } },
  },
  parameters: {
    ...small.parameters,
    relax_constraint: { demand_share_per_timestep_decision_main_constraint: 0.05 },
  },
};
// The same day with Calliope's time functions (issue 22): the morning's largest demand kept
// hourly, the rest 3-hourly.
const withTime = {
  ...small,
  parameters: {
    ...small.parameters,
    time: {
      masks: [{ function: "extreme", options: { tech: "demand_power", length: "6H" } }],
      function: "resample",
      function_options: { resolution: "3H" },
    },
  },
};
/** Only 2005-01-01 of each series of `model`, so that a body builds in milliseconds. */
function oneDay<
  T extends { timeSeries: { timestamps: string[]; columns: Record<string, number[]> }[] },
>(
  model: T,
): T {
  const copy = structuredClone(model);
  for (const series of copy.timeSeries) {
    const keep = series.timestamps.map((t, i) => (t.startsWith("2005-01-01") ? i : -1))
      .filter((i) => i >= 0);
    series.timestamps = keep.map((i) => series.timestamps[i]!);
    for (const [name, values] of Object.entries(series.columns)) {
      series.columns[name] = keep.map((i) => values[i]!);
    }
  }
  return copy;
}
// Calliope's urban-scale example with its `milp` override (issue 21 section 1): units, purchase,
// asynchronous production and consumption.
const milp = oneDay(
  await importCalliopeModel(
    new URL("../../data/models/calliope_urban_scale", import.meta.url).pathname,
    { scenario: "milp", overrides: { "model.subset_time": "2005-01-01" } },
  ),
);
const frontend = JSON.parse(
  readFileSync(new URL("../fixtures/model/national_scale_frontend.json", import.meta.url), "utf8"),
);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path to a member of `value` (objects and arrays included), up to `limit`. */
function paths(value: Json, prefix: (string | number)[] = [], out: (string | number)[][] = []) {
  if (out.length > 5000) return out;
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...prefix, i], out));
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out);
  }
  return out;
}

const nastyValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(
    null,
    0,
    -1,
    1e308,
    -1e308,
    5e-324,
    1e15,
    -1e15,
    "inf",
    "-inf",
    ".inf",
    "",
    "file=missing.csv:x",
    "file=demand-1.csv",
    "ts:csp_resource:nowhere",
    "2005-13-45",
    [],
    {},
    true,
    false,
    "__proto__",
  ),
  fc.double(),
  fc.string({ maxLength: 20 }),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
);

type Edit = { path: number; op: "set" | "delete" | "add"; key: string; value: Json };
const edit: fc.Arbitrary<Edit> = fc.record({
  path: fc.nat(),
  op: fc.constantFrom("set", "delete", "add"),
  key: fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom(
      "energy_cap_max",
      "units_max",
      "units_equals",
      "energy_cap_per_unit",
      "purchase",
      "force_asynchronous_prod_con",
      "resource",
      "storage_cap_max",
      "carrier",
      "carrier_prod_share_min",
      "energy_cap_equals",
      "demand_share_per_timestep_decision_main",
      "demand_share_per_timestep_decision",
      "relax_constraint",
      "time",
      "masks",
      "function_options",
      "resolution",
      "clustering_func",
      "mode",
      "spores",
      "slack_cost_group",
      "exists",
      "locs",
    ),
  ),
  value: nastyValue,
});

/** `body` with `edits` applied, on a deep copy. */
function mutate(body: Json, edits: Edit[]): Json {
  const copy = structuredClone(body);
  for (const e of edits) {
    const all = paths(copy);
    const path = all[e.path % all.length]!;
    if (path.length === 0) continue;
    let parent: Json = copy;
    for (const step of path.slice(0, -1)) parent = (parent as Record<string, Json>)[step]!;
    const last = path.at(-1)!;
    const holder = parent as Record<string | number, Json>;
    if (e.op === "set") holder[last] = e.value;
    else if (e.op === "delete") {
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete holder[last];
    } else {
      const target = holder[last];
      if (target !== null && typeof target === "object" && !Array.isArray(target)) {
        (target as Record<string, Json>)[e.key] = e.value;
      }
    }
  }
  return copy;
}

Deno.test("every base body of the fuzz is accepted as it is", () => {
  const bases = {
    small,
    withReserveMargin,
    withObjectiveSettings,
    withGroupConstraints,
    withTime,
    milp,
    frontend,
  };
  for (const [name, body] of Object.entries(bases)) {
    const prepared = prepareModelBody(body);
    assert.ok(prepared.ok, `${name}: ${JSON.stringify(!prepared.ok && prepared.problems)}`);
  }
});

Deno.test({
  name: "fuzz: near-valid models are accepted (and build a finite LP) or refused by JSON path",
  async fn() {
    let accepted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          small as unknown as Json,
          withReserveMargin as unknown as Json,
          withObjectiveSettings as unknown as Json,
          withGroupConstraints as unknown as Json,
          withTime as unknown as Json,
          milp as unknown as Json,
          frontend as Json,
        ),
        fc.array(edit, { minLength: 1, maxLength: 3 }),
        (base, edits) => {
          const body = mutate(base, edits);
          const prepared = prepareModelBody(body);
          if (!prepared.ok) {
            refused++;
            assert.ok(prepared.problems.length > 0);
            for (const p of prepared.problems) {
              assert.equal(typeof p.path, "string");
              assert.ok(p.message.length > 0);
            }
            return Promise.resolve();
          }
          accepted++;
          const { lp } = buildLp(prepared.model);
          for (const array of [lp.colCost, lp.matrix.values]) {
            for (const v of array) assert.ok(Number.isFinite(v), `a coefficient ${v}`);
          }
          const bounds = (
            values: ArrayLike<number>,
            names: LinearProgram["colNames"],
            wrong: number,
            side: string,
          ) =>
            Array.from(values).forEach((v, i) =>
              assert.ok(!Number.isNaN(v) && v !== wrong, `${side} of ${names.at(i)} is ${v}`)
            );
          bounds(lp.colLower, lp.colNames, Infinity, "lower bound");
          bounds(lp.rowLower, lp.rowNames, Infinity, "lower bound");
          bounds(lp.colUpper, lp.colNames, -Infinity, "upper bound");
          bounds(lp.rowUpper, lp.rowNames, -Infinity, "upper bound");
          return Promise.resolve();
        },
      ),
      {
        numRuns: Number.MAX_SAFE_INTEGER,
        endOnFailure: true,
        interruptAfterTimeLimit: SECONDS * 1000,
        ...(SEED ? { seed: Number(SEED) } : {}),
      },
    );
    console.log(`models: ${accepted} accepted, ${refused} refused`);
    assert.ok(accepted > 0 && refused > 0);
  },
});
