import assert from "node:assert/strict";
import { buildSnapshot } from "../../../lib/catalogue/served/catalogue_snapshot.ts";
import { readSources } from "../../../lib/catalogue/served/read_sources.ts";
import type { ServedTechnology } from "../../../lib/catalogue/served/served_technology.ts";
import {
  applyTechnologyPatch,
  OEO_NAMESPACE,
  type PatchResult,
  storedTechnology,
  type TechnologyPatch,
  technologyPatchSchema,
} from "../../../lib/catalogue/submissions/technology_patch.ts";
import { withOpentechMembers } from "../../../lib/catalogue/opentech/opentech_technology.ts";
import type { Technology } from "../../../lib/catalogue/schema/technology_schema.ts";

const CATALOGUE = new URL("../../../catalogues", import.meta.url).pathname;
const read = await readSources(CATALOGUE, `${CATALOGUE}/profiles`);
assert.ok(read.ok);
const snapshot = buildSnapshot(read.data, [], []);
const wind = snapshot.technology("onshore_wind") as ServedTechnology;
assert.ok(wind && wind.instances.length >= 2 && wind.oeo_uri);

/** The instances as the frontend's edit form sends them back: served, with `capacity_mw`. */
function formInstances(t: ServedTechnology): Record<string, unknown>[] {
  return t.instances.map((i) => ({ ...i, capacity_mw: i.typical_capacity_mw }));
}

function technology(result: PatchResult): Technology {
  assert.ok(result.ok, result.ok ? "" : result.problems.join("\n"));
  return result.technology;
}

function problems(result: PatchResult): string[] {
  assert.ok(!result.ok, "the patch should be refused");
  return result.problems;
}

Deno.test("applyTechnologyPatch() changes the members given and keeps the others", () => {
  const edited = technology(applyTechnologyPatch(wind, {
    technology_name: "  Onshore wind turbines ",
    description: "Edited by an admin.",
  }));
  assert.deepEqual(edited, {
    ...storedTechnology(wind),
    technology_name: "Onshore wind turbines",
    description: "Edited by an admin.",
  });
  assert.ok(!("missing_fields" in (edited.instances[0] ?? {})));
  assert.deepEqual(technology(applyTechnologyPatch(wind, {})), storedTechnology(wind));
});

Deno.test("applyTechnologyPatch() takes the frontend's whole edit form back", () => {
  // What the frontend's modal sends: every member, the instances as served plus capacity_mw.
  const instances = formInstances(wind);
  instances[0] = {
    ...instances[0],
    capacity_mw: 4.2,
    capex_usd_per_kw: 1111,
    reference_source: "",
  };
  const edited = technology(applyTechnologyPatch(wind, {
    technology_name: wind.technology_name,
    carrier: wind.carrier,
    oeo_class: wind.oeo_uri,
    description: wind.description,
    instances,
  }));
  const [first, ...rest] = storedTechnology(wind).instances;
  assert.ok(first);
  assert.deepEqual(edited.instances, [
    {
      ...first,
      typical_capacity_mw: 4.2,
      capex_usd_per_kw: 1111,
      reference_source: null,
    },
    ...rest,
  ]);
  assert.equal(edited.oeo_uri, wind.oeo_uri);
  assert.equal(edited.oeo_class, wind.oeo_class);
});

Deno.test("applyTechnologyPatch() drops the OpenTech-DB members served beside the flat fields", () => {
  const detail = withOpentechMembers(wind);
  const edited = technology(applyTechnologyPatch(wind, { instances: detail.instances }));
  assert.deepEqual(edited.instances, storedTechnology(wind).instances);
});

Deno.test("applyTechnologyPatch() removes instances the form dropped", () => {
  const edited = technology(
    applyTechnologyPatch(wind, { instances: formInstances(wind).slice(1) }),
  );
  assert.deepEqual(
    edited.instances.map((i) => i.instance_id),
    wind.instances.slice(1).map((i) => i.instance_id),
  );
});

Deno.test("applyTechnologyPatch() reads oeo_class as an IRI, a class id or none", async (t) => {
  const cases: [string, string | null, Pick<Technology, "oeo_class" | "oeo_uri">][] = [
    ["a full IRI", `${OEO_NAMESPACE}OEO_00000044`, {
      oeo_class: "OEO_00000044",
      oeo_uri: `${OEO_NAMESPACE}OEO_00000044`,
    }],
    ["the class it has", wind.oeo_class, { oeo_class: wind.oeo_class, oeo_uri: wind.oeo_uri }],
    ["another OEO class id", "OEO_00000311", {
      oeo_class: "OEO_00000311",
      oeo_uri: `${OEO_NAMESPACE}OEO_00000311`,
    }],
    ["empty", "", { oeo_class: null, oeo_uri: null }],
    ["null", null, { oeo_class: null, oeo_uri: null }],
  ];
  for (const [name, sent, expected] of cases) {
    await t.step(name, () => {
      const edited = technology(applyTechnologyPatch(wind, { oeo_class: sent }));
      assert.deepEqual({ oeo_class: edited.oeo_class, oeo_uri: edited.oeo_uri }, expected);
    });
  }
});

Deno.test("applyTechnologyPatch() refuses invalid edits, naming each problem", async (t) => {
  const instances = formInstances(wind);
  const cases: [string, unknown, string[]][] = [
    ["negative capex", {
      instances: [{ ...instances[0], capex_usd_per_kw: -5 }, ...instances.slice(1)],
    }, ["instances[0].capex_usd_per_kw: Too small: expected number to be >=0"]],
    ["an unknown member", { technology_name: "Wind", colour: "blue" }, [
      "colour: unknown member",
    ]],
    ["an unknown instance member", {
      instances: [{ ...instances[0], colour: "blue" }],
    }, ["instances[0].colour: unknown member"]],
    ["duplicate instance ids", {
      instances: [instances[0], { ...instances[1], instance_id: wind.instances[0]?.instance_id }],
    }, [`instances[1].instance_id: "${wind.instances[0]?.instance_id}" is also instances[0]`]],
    ["an empty name", { technology_name: "  " }, ["technology_name: must not be empty"]],
    ["no instances", { instances: [] }, ["instances: needs at least one instance"]],
    ["a capacity of 0 from the form", {
      instances: [{ ...instances[0], capacity_mw: 0 }],
    }, ["instances[0].capacity_mw: Too small: expected number to be >0"]],
    ["an unknown class name", { oeo_class: "WindTurbine" }, [
      'oeo_class: "WindTurbine" is neither a class IRI nor an OEO class id such as OEO_00000311',
    ]],
    ["a carrier that is not a key", { carrier: "Electric Power" }, [
      "carrier: must be lower-case snake_case",
    ]],
    ["a missing spec field", {
      instances: [{ ...instances[0], lifetime_years: undefined }],
    }, ["instances[0].lifetime_years: Invalid input: expected number, received undefined"]],
    ["several problems at once", {
      technology_name: "",
      instances: [{ ...instances[0], capex_usd_per_kw: -1, lifetime_years: 0 }],
    }, [
      "technology_name: must not be empty",
      "instances[0].capex_usd_per_kw: Too small: expected number to be >=0",
      "instances[0].lifetime_years: Too small: expected number to be >0",
    ]],
  ];
  for (const [name, patch, expected] of cases) {
    await t.step(name, () => {
      assert.deepEqual(problems(applyTechnologyPatch(wind, patch)), expected);
    });
  }
});

Deno.test("technologyPatchSchema accepts the frontend's body and nothing else", () => {
  const body: TechnologyPatch = {
    technology_name: "Wind",
    carrier: "electricity",
    oeo_class: "OEO_00000044",
    description: "",
    instances: formInstances(wind),
  };
  assert.ok(technologyPatchSchema.safeParse(body).success);
  assert.ok(!technologyPatchSchema.safeParse({ ...body, domain: "storage" }).success);
});
