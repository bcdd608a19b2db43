/**
 * Each service driven with the exact payloads the client sends (research notes §1.2, §1.3),
 * over the client's own routes, checking every key the client reads.
 */
import assert from "node:assert/strict";
import { hydrogenModel } from "../../../lib/simulation/hydrogen/hydrogen_model.ts";
import { ccsModel } from "../../../lib/simulation/ccs/ccs_model.ts";
import type { SimulationModel } from "../../../lib/simulation/simulation_model.ts";
import { ccsClientPayload, hydrogenClientPayload } from "./_client_payloads.ts";
import { collect, serve } from "./_serve.ts";

const JSON_HEADERS = { "Content-Type": "application/json" };

const H2_FLAT = [
  "time_s",
  "source_power_kw",
  "electrolyzer_power_kw",
  "h2_production_nm3h",
  "h2_production_kg_h",
  "elz_efficiency_pct",
  "compressor_power_kw",
  "tank_pressure_bar",
  "tank_soc_pct",
  "h2_mass_kg",
  "fc_power_output_kw",
  "h2_consumption_nm3h",
  "fc_terminal_voltage_v",
  "fc_current_density_acm2",
  "fc_efficiency_pct",
];
const H2_NESTED: Record<string, string[]> = {
  electrolyzer: ["power_in_kw", "h2_production_nm3h", "h2_production_kg_h", "efficiency_pct"],
  compressor: ["power_consumed_kw", "outlet_pressure_bar"],
  storage: ["pressure_bar", "soc_pct", "h2_mass_kg"],
  fuel_cell: [
    "power_output_kw",
    "h2_consumed_nm3h",
    "terminal_voltage_v",
    "current_density_acm2",
    "efficiency_pct",
  ],
  source: ["power_output_kw"],
};
const H2_KPI = [
  "total_h2_produced_kg",
  "total_h2_consumed_kg",
  "total_energy_consumed_kwh",
  "overall_system_efficiency_pct",
  "system_efficiency_pct",
  "specific_energy_kwh_kg",
  "peak_h2_production_kg_h",
  "avg_electrolyzer_load_pct",
  "capacity_factor_pct",
  "fuel_cell_capacity_factor_pct",
  "total_source_energy_kwh",
  "total_curtailed_energy_kwh",
  "total_elz_energy_kwh",
  "total_fc_energy_kwh",
  "avg_source_power_kw",
  "avg_fc_power_kw",
  "peak_source_power_kw",
  "peak_fc_power_kw",
  "avg_h2_production_nm3h",
  "peak_tank_pressure_bar",
  "total_h2_produced_nm3",
  "total_h2_consumed_nm3",
  "avg_elz_power_kw",
  "peak_elz_power_kw",
];
const CCS_FLAT = [
  "time_s",
  "source_co2_tph",
  "absorber_co2_captured_tph",
  "absorber_solvent_flow_m3h",
  "absorber_power_kw",
  "absorber_temperature_c",
  "stripper_co2_released_tph",
  "stripper_heat_demand_kw",
  "stripper_temperature_c",
  "compressor_power_kw",
  "compressor_outlet_pressure_bar",
  "compressor_temperature_c",
  "storage_pressure_bar",
  "storage_fill_pct",
  "storage_co2_mass_tonnes",
  "storage_injection_rate_tph",
];
const CCS_NESTED: Record<string, string[]> = {
  source: ["co2_tph"],
  absorber: ["co2_captured_tph"],
  stripper: ["heat_demand_kw"],
  compressor: ["power_kw", "outlet_pressure_bar", "temperature_c"],
  storage: ["injection_rate_tph", "co2_mass_tonnes"],
};
const CCS_KPI = [
  "total_co2_captured_tonnes",
  "total_co2_stored_tonnes",
  "average_capture_rate_pct",
  "specific_energy_kwh_tco2",
  "total_energy_kwh",
  "total_absorber_energy_kwh",
  "total_compressor_energy_kwh",
  "total_co2_captured_tco2",
  "total_co2_stored_tco2",
  "avg_capture_rate_pct",
  "specific_energy_gj_tco2",
  "total_energy_consumed_gwh",
  "avoided_emissions_tco2",
  "capture_cost_usd_tco2",
];

/** Asserts a finite, non-negative-length numeric series of `n` points. */
function series(value: unknown, n: number, where: string) {
  assert.ok(Array.isArray(value), `${where} is not an array`);
  assert.equal(value.length, n, `${where} has ${value.length} points, not ${n}`);
  assert.ok(value.every((x) => typeof x === "number" && Number.isFinite(x)), `${where} not finite`);
}

function checkKeys(
  result: Record<string, unknown>,
  flat: string[],
  nested: Record<string, string[]>,
  kpi: string[],
) {
  const n = (result["time_s"] as unknown[]).length;
  assert.ok(n > 0);
  for (const key of flat) series(result[key], n, key);
  for (const [unit, keys] of Object.entries(nested)) {
    const group = result[unit] as Record<string, unknown>;
    assert.ok(group && typeof group === "object", `${unit} missing`);
    for (const key of keys) series(group[key], n, `${unit}.${key}`);
  }
  const k = result["kpi"] as Record<string, unknown>;
  for (const key of kpi) {
    assert.ok(typeof k[key] === "number" && Number.isFinite(k[key]), `kpi.${key}: ${k[key]}`);
  }
}

async function submit(base: string, path: string, payload: unknown) {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: JSON_HEADERS,
    body: JSON.stringify(payload),
  });
  const body = await res.json();
  assert.equal(res.status, 202, JSON.stringify(body).slice(0, 500));
  assert.ok(!("time_s" in body) && !("electrolyzer" in body));
  assert.equal(body.status, "queued");
  return body.job_id as string;
}

Deno.test("hydrogen service answers the client's payload on its routes with every key it reads", async (t) => {
  const served = serve(hydrogenModel as SimulationModel);
  try {
    await t.step("names null, as the client sends them when no model is picked", async () => {
      const res = await fetch(`${served.http}/api/hydrogen/simulate`, {
        method: "POST",
        headers: JSON_HEADERS,
        body: JSON.stringify(hydrogenClientPayload()),
      });
      const body = await res.json();
      assert.equal(res.status, 202, JSON.stringify(body).slice(0, 400));
    });
    await t.step("socket, status and result", async () => {
      const payload = hydrogenClientPayload() as unknown as Record<string, Record<string, unknown>>;
      for (const unit of ["source", "electrolyzer", "compressor", "storage", "fuel_cell"]) {
        payload[unit]!["name"] = `${unit} model`;
      }
      const id = await submit(served.http, "/api/hydrogen/simulate", payload);
      const { messages } = await collect(new WebSocket(`${served.ws}/api/hydrogen/ws/${id}`));
      const frames = messages.map((m) => JSON.parse(m));
      const progress = frames.filter((f) => f.type === "progress");
      assert.ok(progress.length >= 1);
      for (const f of progress) assert.equal(typeof f.progress_pct, "number");
      const last = frames.at(-1);
      assert.equal(last.type, "result");
      checkKeys(last.result, H2_FLAT, H2_NESTED, H2_KPI);
      assert.equal(typeof last.result.dt_s, "number");
      assert.equal(typeof last.result.source.capacity_kw, "number");
      const status = await (await fetch(`${served.http}/api/hydrogen/status/${id}`)).json();
      assert.equal(status.status, "done");
      assert.equal(status.progress_pct, 100);
      const result = await (await fetch(`${served.http}/api/hydrogen/result/${id}`)).json();
      assert.equal(result.status, "done");
      checkKeys(result.result, H2_FLAT, H2_NESTED, H2_KPI);
      assert.equal(result.result._local, undefined);
    });
  } finally {
    await served.stop();
  }
});

Deno.test("ccs service answers the client's payload on its routes with every key it reads", async () => {
  const served = serve(ccsModel as SimulationModel);
  try {
    for (const path of ["/api/ccs/submit", "/api/ccs/simulate"]) {
      const id = await submit(served.http, path, ccsClientPayload());
      let status;
      for (let i = 0; i < 200; i++) {
        status = await (await fetch(`${served.http}/api/ccs/status/${id}`)).json();
        if (status.status === "done" || status.status === "error") break;
        await new Promise((r) => setTimeout(r, 10));
      }
      assert.equal(status.status, "done", JSON.stringify(status).slice(0, 400));
      assert.equal(status.result.schema_version, "2.0");
      checkKeys(status.result, CCS_FLAT, CCS_NESTED, CCS_KPI);
    }
    const health = await (await fetch(`${served.http}/api/ccs/health`)).json();
    assert.equal(health.engine_ready, true);
  } finally {
    await served.stop();
  }
});
