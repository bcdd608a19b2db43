// The hydrogen plant run: the client's exact payload (research notes 1.2) and every key it reads,
// H1/H4/H7 through the model, conservation on random payloads (fast-check), and one day at 1 s.
import assert from "node:assert/strict";
import { H2_FLAT, H2_KPI, H2_NESTED } from "../_client_keys.ts";
import fc from "fast-check";
import { hydrogenModel } from "../../../lib/simulation/hydrogen/hydrogen_model.ts";
import { runToEnd } from "../../../lib/simulation/simulation_model.ts";

type Result = Record<string, unknown> & {
  kpi: Record<string, number>;
  balance: { mass: Record<string, number>; energy: Record<string, number> };
};
const run = (payload: unknown) => runToEnd(hydrogenModel, payload) as Result;

/** The payload as the client's `buildSimPayload` sends it (research notes 1.2), a day at 15 min. */
const CLIENT_PAYLOAD = {
  schema_version: "2.0",
  simulation: { t_end_s: 86400, dt_s: 900 },
  source: {
    tech_type: "solar",
    name: "Solar PV",
    capacity_kw: 1500,
    efficiency_pct: null,
    // Hourly, off the 900 s grid by 7 s, and shorter than the run.
    profile: Array.from({ length: 20 }, (_, h) => ({
      time_s: h * 3600 + 7,
      power_kw: Math.max(0, 1500 * Math.sin((Math.PI * (h - 6)) / 12)),
    })),
  },
  electrolyzer: {
    tech_type: "pem",
    name: "PEM Electrolyzer",
    capacity_kw: 1000,
    nominal_efficiency_pct_hhv: 70,
    min_load_pct: 0,
    max_load_pct: 100,
    operating_temperature_c: 80,
    water_flow_rate_lpm: 90,
    h2_hhv_kwh_per_kg: 39.4,
  },
  compressor: {
    tech_type: "reciprocating",
    name: "Reciprocating",
    isentropic_efficiency_frac: 0.78,
    inlet_pressure_bar: 30,
    target_pressure_bar: 350,
  },
  storage: {
    tech_type: "compressed_h2",
    name: "Compressed H2",
    max_pressure_bar: 350,
    min_pressure_bar: 20,
    initial_soc_pct: 20,
    round_trip_efficiency_pct: 99,
  },
  fuel_cell: {
    tech_type: "pem",
    name: "PEM Fuel Cell",
    rated_power_kw: 406,
    nominal_efficiency_pct: 58,
    min_load_pct: 0,
    h2_flow_rate_nm3h: 240,
    operating_pressure_bar: 2.5,
    cooling_capacity_kw: 35,
  },
};

/** Every series of a result: flat and nested number arrays. */
function allSeries(r: Result): [string, number[]][] {
  const out: [string, number[]][] = [];
  for (const [k, v] of Object.entries(r)) {
    if (Array.isArray(v)) out.push([k, v as number[]]);
    else if (v !== null && typeof v === "object" && k !== "kpi" && k !== "balance") {
      for (const [k2, v2] of Object.entries(v)) {
        if (Array.isArray(v2)) out.push([`${k}.${k2}`, v2 as number[]]);
      }
    }
  }
  return out;
}

Deno.test("the client's exact payload parses and its result has every key the client reads", () => {
  const r = run(CLIENT_PAYLOAD);
  const n = 96;
  for (const key of H2_FLAT) {
    assert.ok(Array.isArray(r[key]), key);
    assert.equal((r[key] as number[]).length, n, key);
  }
  assert.equal(r["dt_s"], 900);
  for (const [section, keys] of Object.entries(H2_NESTED)) {
    const s = r[section] as Record<string, unknown>;
    for (const key of keys) assert.equal((s[key] as number[]).length, n, `${section}.${key}`);
  }
  assert.equal((r["source"] as Record<string, unknown>)["capacity_kw"], 1500);
  for (const key of H2_KPI) assert.ok(Number.isFinite(r.kpi[key]), `kpi.${key}`);
  assert.ok(!("_local" in r));
  // Zero-order hold: the 07:00:07 point is not yet active at 07:00, but is at 07:15.
  const src = r["source_power_kw"] as number[];
  assert.equal(src[28], Math.max(0, 1500 * Math.sin((Math.PI * 0) / 12)));
  assert.equal(src[29], 1500 * Math.sin(Math.PI / 12));
  assert.equal(src[95], src[80], "the last profile point holds to the end");
  // JSON round trip keeps arrays as arrays.
  const back = JSON.parse(JSON.stringify(r)) as Record<string, unknown>;
  assert.ok(Array.isArray(back["tank_pressure_bar"]));
});

Deno.test("H1 through the model: 1 MW, 70 % HHV: 17.8 kg/h less what the compressor takes from the bus", () => {
  // Below the compressor inlet pressure (tank at 20 bar) the electrolyser gets the whole 1 MW.
  const low = run({
    simulation: { t_end_s: 3600, dt_s: 60 },
    source: { capacity_kw: 1100 },
    electrolyzer: { capacity_kw: 1000 },
    storage: { initial_soc_pct: 0, capacity_kg: 1000 },
    fuel_cell: { rated_power_kw: 0 },
  });
  const kgLow = (low["h2_production_kg_h"] as number[])[10]!;
  assert.ok(Math.abs(kgLow - 17.8) < 0.2, `${kgLow}`);
  assert.equal(low.kpi["total_compressor_energy_kwh"], 0);
  // At 350 bar the compressor (about 1.3 kWh/kg over η_motor) shares the same 1 MW.
  const high = run({
    simulation: { t_end_s: 3600, dt_s: 60 },
    source: { capacity_kw: 1100 },
    electrolyzer: { capacity_kw: 1000 },
    storage: { initial_soc_pct: 50, capacity_kg: 10000 },
    fuel_cell: { rated_power_kw: 0 },
  });
  const kg = (high["h2_production_kg_h"] as number[])[10]!;
  const comp = (high["compressor_power_kw"] as number[])[10]!;
  const elz = (high["electrolyzer_power_kw"] as number[])[10]!;
  assert.ok(Math.abs(elz + comp - 1000) < 1e-6, `${elz} + ${comp}`);
  assert.ok(comp > 15 && comp < 35, `${comp}`);
  assert.ok(kg < kgLow && kg > 17.2, `${kg}`);
  assert.ok(high.kpi["specific_energy_kwh_kg"]! > high.kpi["specific_energy_elz_kwh_kg"]!);
});

Deno.test("H4 zero output below min_load_pct", () => {
  const r = run({
    simulation: { t_end_s: 3600, dt_s: 60 },
    source: { capacity_kw: 150 },
    electrolyzer: { capacity_kw: 1000, min_load_pct: 20 },
    fuel_cell: { rated_power_kw: 0 },
  });
  assert.equal(r.kpi["total_h2_produced_kg"], 0);
  assert.ok((r["electrolyzer_power_kw"] as number[]).every((p) => p === 0));
  assert.equal(r.kpi["total_curtailed_energy_kwh"], 150);
});

Deno.test("H7 mass balance: Δtank = produced − consumed (round trip 100 %, no clipping)", () => {
  const r = run({
    ...CLIENT_PAYLOAD,
    storage: { ...CLIENT_PAYLOAD.storage, round_trip_efficiency_pct: 100 },
  });
  const m = r.balance.mass;
  const delta = m["final_kg"]! - m["initial_kg"]!;
  const flow = r.kpi["total_h2_produced_kg"]! - r.kpi["total_h2_consumed_kg"]!;
  const scale = Math.max(r.kpi["total_h2_produced_kg"]!, r.kpi["total_h2_consumed_kg"]!, 1);
  assert.ok(Math.abs(delta - flow) <= 1e-6 * scale, `${delta} vs ${flow}`);
  assert.ok(r.kpi["total_h2_produced_kg"]! > 0 && r.kpi["total_h2_consumed_kg"]! > 0);
});

Deno.test("a full tank stops the electrolyser without clipping; a tank sized by volume is used", () => {
  const r = run({
    simulation: { t_end_s: 7200, dt_s: 10 },
    source: { capacity_kw: 1000 },
    electrolyzer: { capacity_kw: 1000 },
    storage: { volume_m3: 0.5, initial_soc_pct: 90 },
    fuel_cell: { rated_power_kw: 0 },
  });
  const storage = r["storage"] as Record<string, number>;
  assert.equal(storage["volume_m3"], 0.5);
  const soc = r["tank_soc_pct"] as number[];
  assert.ok(Math.abs(soc.at(-1)! - 100) < 1e-6);
  assert.ok(Math.max(...(r["tank_pressure_bar"] as number[])) <= 350 * (1 + 1e-9));
  assert.ok(Math.abs(r.balance.mass["residual_kg"]!) < 1e-9);
});

Deno.test("limits and validation name the field", () => {
  const p = hydrogenModel.payloadSchema.parse({ simulation: { t_end_s: 2e6, dt_s: 1 } });
  assert.match(hydrogenModel.limits(p).join(), /simulation\.t_end_s/);
  const bad = hydrogenModel.payloadSchema.safeParse({
    electrolyzer: { capacity_kw: -1 },
    storage: { min_pressure_bar: 400 },
  });
  assert.ok(!bad.success);
  const paths = bad.error.issues.map((i) => i.path.join("."));
  assert.ok(paths.includes("electrolyzer.capacity_kw"), paths.join());
  // British spelling and profile aliases.
  const gb = hydrogenModel.payloadSchema.parse({
    electrolyser: { capacity_kw: 500 },
    source: { profile: [{ t_s: 0, power_w: 2000 }] },
  });
  assert.equal(gb.electrolyzer.capacity_kw, 500);
  assert.equal(gb.source.profile[0]!.power_kw, 2);
});

const randomPayload = fc.record({
  dt: fc.constantFrom(1, 10, 60, 300, 900),
  steps: fc.integer({ min: 1, max: 300 }),
  srcCap: fc.double({ min: 10, max: 5000, noNaN: true }),
  elzCap: fc.double({ min: 10, max: 5000, noNaN: true }),
  eta: fc.double({ min: 50, max: 85, noNaN: true }),
  tech: fc.constantFrom("pem", "alkaline", "aem", "soec"),
  minLoad: fc.double({ min: 0, max: 40, noNaN: true }),
  soc0: fc.double({ min: 0, max: 100, noNaN: true }),
  rt: fc.double({ min: 80, max: 100, noNaN: true }),
  pMax: fc.double({ min: 40, max: 900, noNaN: true }),
  fcShare: fc.double({ min: 0, max: 2, noNaN: true }),
  tankKg: fc.option(fc.double({ min: 0.5, max: 500, noNaN: true })),
  profile: fc.array(
    fc.record({
      time_s: fc.double({ min: 0, max: 100000, noNaN: true }),
      power_kw: fc.double({ min: 0, max: 6000, noNaN: true }),
    }),
    { maxLength: 40 },
  ),
}).map((r) => ({
  simulation: { t_end_s: r.dt * r.steps - (r.steps > 1 ? r.dt / 2 : 0), dt_s: r.dt },
  source: { capacity_kw: r.srcCap, profile: r.profile },
  electrolyzer: {
    tech_type: r.tech,
    capacity_kw: r.elzCap,
    nominal_efficiency_pct_hhv: r.eta,
    min_load_pct: r.minLoad,
  },
  compressor: { target_pressure_bar: r.pMax },
  storage: {
    initial_soc_pct: r.soc0,
    round_trip_efficiency_pct: r.rt,
    ...(r.tankKg === null ? {} : { capacity_kg: r.tankKg }),
  },
  fuel_cell: { rated_power_kw: r.fcShare * r.elzCap * 0.4 },
}));

Deno.test("property: tank mass change = produced·fill − consumed; energy closes; no NaN or negatives", () => {
  fc.assert(
    fc.property(randomPayload, (payload) => {
      const r = run(payload);
      const m = r.balance.mass;
      const scale = Math.max(m["produced_kg"]!, m["consumed_kg"]!, m["initial_kg"]!, 1);
      const delta = m["final_kg"]! - m["initial_kg"]!;
      const flow = m["produced_kg"]! - m["fill_loss_kg"]! - m["consumed_kg"]!;
      assert.ok(Math.abs(delta - flow) <= 1e-9 * scale, `mass ${delta} vs ${flow}`);
      const e = r.balance.energy;
      assert.ok(Math.abs(e["residual_kwh"]!) <= 1e-9 * Math.max(e["source_kwh"]!, 1));
      for (const [name, series] of allSeries(r)) {
        for (const x of series) {
          assert.ok(Number.isFinite(x), `${name} holds ${x}`);
          assert.ok(x >= 0, `${name} holds ${x}`);
        }
      }
      for (const [k, v] of Object.entries(r.kpi)) assert.ok(Number.isFinite(v), `kpi.${k} ${v}`);
      const soc = r["tank_soc_pct"] as number[];
      assert.ok(soc.every((s) => s <= 100 + 1e-9));
    }),
    { numRuns: 150 },
  );
});

Deno.test("performance: one day at 1 s steps (86,400 steps) in-process", () => {
  const profile = Array.from({ length: 25 }, (_, h) => ({
    time_s: h * 3600,
    power_kw: Math.max(0, 1200 * Math.sin((Math.PI * (h - 6)) / 12)),
  }));
  const payload = {
    simulation: { t_end_s: 86400, dt_s: 1 },
    source: { capacity_kw: 1200, profile },
    electrolyzer: { capacity_kw: 1000 },
  };
  const t0 = performance.now();
  const r = run(payload);
  const ms = performance.now() - t0;
  console.log(`hydrogen plant, 86,400 steps: ${ms.toFixed(0)} ms (parse, run and result)`);
  assert.equal((r["time_s"] as number[]).length, 86400);
  // The 0.5 s target is measured by benchmarks/simulation_bench.ts, not asserted here.
});
