import assert from "node:assert/strict";
import {
  payloadFromRecord,
  recordCarriers,
  recordFromPayload,
  snakeCase,
  technologyPayloadSchema,
} from "../../../lib/catalogue/opentech/technology_payload.ts";
import { createCatalogueService } from "../../../lib/catalogue/served/catalogue_service.ts";

const CATALOGUE_DIR = new URL("../../../catalogues", import.meta.url).pathname;
const service = await createCatalogueService({
  catalogueDir: CATALOGUE_DIR,
  profilesDir: `${CATALOGUE_DIR}/profiles`,
  additions: [],
  submittedProfiles: [],
});
const snapshot = service.current();

const PAYLOAD = technologyPayloadSchema.parse({
  technology_name: "Onshore Wind",
  domain: "generation",
  carrier: "wind",
  oeo_class: "OEO_00000311",
  description: "More onshore wind figures",
  instances: [{
    variant_name: "Vestas V150 (2030)",
    capex_usd_per_kw: 1200,
    opex_fixed_usd_per_kw_yr: 30,
    opex_var_usd_per_mwh: 0,
    efficiency_percent: 0,
    lifetime_years: 25,
    capacity_mw: 4.2,
    co2_emission_factor_operational_g_per_kwh: 0,
    reference_source: "Manufacturer sheet",
  }],
});

Deno.test("a served name adds instances to that technology; a class name finds its IRI", () => {
  const made = recordFromPayload(PAYLOAD, snapshot, () => "abc123");
  assert.ok(made.ok);
  const { record } = made;
  assert.equal(record.technology_id, "onshore_wind");
  assert.equal(record.oeo_class, "https://openenergyplatform.org/ontology/oeo/OEO_00000311");
  const [instance] = record.instances;
  assert.equal(instance?.instance_id, "onshore_wind-vestas_v150_2030_abc123");
  assert.equal(instance?.typical_capacity_mw, 4.2);
  assert.equal(instance?.efficiency_percent, null, "0 % is not given, not a figure");
  assert.ok(instance?.notes?.some((n) => /efficiency_percent 0/.test(n)));
});

Deno.test("a new name becomes a new snake_case id, numbered when taken", () => {
  const made = recordFromPayload(
    { ...PAYLOAD, technology_name: "Solar PV (distributed) 2" },
    snapshot,
    () => "000000",
  );
  assert.ok(made.ok);
  assert.equal(made.record.technology_id, "solar_pv_distributed_2");
  assert.equal(snakeCase("  ", "technology"), "technology");
});

Deno.test("an unknown class name is a problem, not a guess", () => {
  const made = recordFromPayload({ ...PAYLOAD, oeo_class: "Windmill" }, snapshot, () => "x");
  assert.equal(made.ok, false);
});

Deno.test("carriers as the original read the one carrier", () => {
  assert.deepEqual(recordCarriers("generation", "wind"), {
    carrier: "electricity",
    carrier_in: [],
    carrier_out: ["electricity"],
  });
  assert.deepEqual(recordCarriers("generation", "methane").carrier_in, ["methane"]);
  assert.deepEqual(recordCarriers("storage", "hydrogen"), {
    carrier: "hydrogen",
    carrier_in: ["hydrogen"],
    carrier_out: ["hydrogen"],
  });
  assert.deepEqual(recordCarriers("conversion", "electricity").carrier_out, null);
});

Deno.test("a record as the payload again: what was sent comes back", () => {
  const made = recordFromPayload(PAYLOAD, snapshot, () => "abc123");
  assert.ok(made.ok);
  const back = payloadFromRecord(made.record);
  assert.equal(back.carrier, "wind");
  assert.equal(back.instances[0]?.capacity_mw, 4.2);
  assert.equal(back.instances[0]?.efficiency_percent, null);
  assert.ok(technologyPayloadSchema.safeParse(back).success, "the review can send it back");
});
