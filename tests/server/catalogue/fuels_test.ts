import assert from "node:assert/strict";
import { call, testApp } from "./_catalogue.ts";

const built = await testApp();
const { app } = built;
// One app for the file; its store is closed when the last test ends.
let remaining = 4;
async function done() {
  if (--remaining === 0) await built.dispose();
}

Deno.test("GET /api/v1/fuels lists the fuel records, filtered by year", async (t) => {
  try {
    await t.step("all years", async () => {
      const { status, body } = await call(app, "/api/v1/fuels");
      assert.equal(status, 200);
      assert.equal(body.fuels.length, 48);
    });
    await t.step("one year, gas with its source row", async () => {
      const { status, body } = await call(app, "/api/v1/fuels?year=2025");
      assert.equal(status, 200);
      assert.equal(body.fuels.length, 16);
      const gas = body.fuels.find((f: { fuel_id: string }) => f.fuel_id === "gas");
      assert.equal(gas.price_usd_per_mwh_th, 48.4773);
      assert.equal(gas.co2_intensity_t_per_mwh_th, 0.198);
      assert.equal(gas.price_source.value, 42.9003);
      assert.equal(gas.price_source.unit, "EUR/MWh_th");
      assert.equal(gas.price_source.currency_year, 2020);
    });
    await t.step("a bad year is a 400", async () => {
      const { status } = await call(app, "/api/v1/fuels?year=20x5");
      assert.equal(status, 400);
    });
  } finally {
    await done();
  }
});

Deno.test("GET /api/v1/fuels/{fuel_id} gives one fuel; a missing price is null with its reason", async () => {
  try {
    const { status, body } = await call(app, "/api/v1/fuels/methanol");
    assert.equal(status, 200);
    assert.deepEqual(body.fuels.map((f: { year: number }) => f.year), [2025, 2030, 2050]);
    for (const f of body.fuels) {
      assert.equal(f.price_usd_per_mwh_th, null);
      assert.ok(f.notes.some((n: string) => n.startsWith("Price missing")));
    }
    assert.equal((await call(app, "/api/v1/fuels/hydrogen")).status, 404);
  } finally {
    await done();
  }
});

Deno.test("GET /api/v1/technologies/{id} serves capacity_basis, capacity_unit and fuel", async () => {
  try {
    const ccgt = (await call(app, "/api/v1/technologies/combined_cycle_gas_turbine_ccgt")).body;
    assert.equal(ccgt.instances[0].fuel, "gas");
    assert.equal(ccgt.instances[0].capacity_basis, "output");
    assert.equal(ccgt.instances[0].capacity_unit, "kW_e output");
    const ely = (await call(app, "/api/v1/technologies/alkaline_electrolyzer")).body;
    assert.ok(ely.instances.every((i: { capacity_basis: string }) => i.capacity_basis === "input"));
    const cell = (await call(app, "/api/v1/technologies/pem_fuel_cell")).body;
    assert.equal(cell.instances[0].fuel, null);
  } finally {
    await done();
  }
});

Deno.test("/openapi.json documents the fuel routes and the instance's new fields", async () => {
  try {
    const { body: doc } = await call(app, "/openapi.json");
    assert.ok(doc.paths["/api/v1/fuels"]?.get);
    assert.ok(doc.paths["/api/v1/fuels/{fuel_id}"]?.get);
    assert.ok(doc.components.schemas.FuelRecord.properties.price_usd_per_mwh_th);
    const instance = doc.components.schemas.Instance;
    for (const field of ["capacity_basis", "capacity_unit", "fuel"]) {
      assert.ok(instance.properties[field], field);
    }
  } finally {
    await done();
  }
});
