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
import {
  CCS_FLAT,
  CCS_KPI,
  CCS_NESTED,
  H2_FLAT,
  H2_KPI,
  H2_NESTED,
} from "../../simulation/_client_keys.ts";

const JSON_HEADERS = { "Content-Type": "application/json" };

/** Asserts a finite, non-negative-length numeric series of `n` points. */
function series(value: unknown, n: number, where: string) {
  assert.ok(Array.isArray(value), `${where} is not an array`);
  assert.equal(value.length, n, `${where} has ${value.length} points, not ${n}`);
  assert.ok(value.every((x) => typeof x === "number" && Number.isFinite(x)), `${where} not finite`);
}

function checkKeys(
  result: Record<string, unknown>,
  flat: readonly string[],
  nested: Readonly<Record<string, readonly string[]>>,
  kpi: readonly string[],
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
