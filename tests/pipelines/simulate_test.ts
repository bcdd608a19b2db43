import assert from "node:assert/strict";
import { progressBar, simulate, type SimulateIo } from "../../pipelines/simulate.ts";
import type { SimulationModel } from "../../lib/simulation/simulation_model.ts";
import { tankModel } from "../simulation/_tank_model.ts";

const models = { tank: () => Promise.resolve(tankModel as SimulationModel) };

function memoryIo(files: Record<string, string>, interactive = false) {
  const out: string[] = [];
  const err: string[] = [];
  const io: SimulateIo = {
    readText: (path) => {
      const text = files[path];
      return text === undefined ? Promise.reject(new Error("No such file")) : Promise.resolve(text);
    },
    writeText: (path, text) => {
      files[path] = text;
      return Promise.resolve();
    },
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    interactive,
  };
  return { io, out, err, files };
}

Deno.test("simulate writes the result document with --out and a progress bar on stderr", async () => {
  const { io, err, files } = memoryIo({
    "p.json": JSON.stringify({ simulation: { t_end_s: 3600, dt_s: 10 } }),
  });
  assert.equal(await simulate(["tank", "p.json", "--out", "r.json"], io, models), 0);
  const result = JSON.parse(files["r.json"]!);
  assert.equal(result.time_s.length, 360);
  const bars = err.filter((line) => line.startsWith("["));
  assert.ok(bars.length >= 2 && bars.length <= 11);
  assert.match(bars.at(-1)!, /100 %/);
  assert.match(err.at(-1)!, /tank: done in \d+ ms, result in r\.json/);
});

Deno.test("simulate prints to stdout without --out; a terminal gets a redrawn bar", async () => {
  const { io, out, err } = memoryIo({ "p.json": '{"simulation":{"t_end_s":600,"dt_s":1}}' }, true);
  assert.equal(await simulate(["tank", "p.json"], io, models), 0);
  assert.equal(JSON.parse(out.join("")).time_s.length, 600);
  assert.ok(err.some((t) => t.startsWith("\r[")));
});

Deno.test("simulate lists every wrong field and exits 1; wrong usage exits 2", async () => {
  const { io, err } = memoryIo({
    "bad.json": JSON.stringify({ simulation: { t_end_s: -1, dt_s: "x" } }),
    "big.json": JSON.stringify({ simulation: { t_end_s: 2e6, dt_s: 1 } }),
    "broken.json": "{",
  });
  assert.equal(await simulate(["tank", "bad.json"], io, models), 1);
  assert.ok(err.some((t) => t.includes("simulation.t_end_s")));
  assert.ok(err.some((t) => t.includes("simulation.dt_s")));
  assert.equal(await simulate(["tank", "big.json"], io, models), 1);
  assert.ok(err.some((t) => /at most 1000000/.test(t)));
  assert.equal(await simulate(["tank", "broken.json"], io, models), 1);
  assert.equal(await simulate(["tank", "missing.json"], io, models), 1);
  assert.equal(await simulate(["nope", "p.json"], io, models), 2);
  assert.equal(await simulate(["tank"], io, models), 2);
  assert.equal(await simulate(["tank", "p.json", "--bogus"], io, models), 2);
});

Deno.test("progressBar draws a fraction", () => {
  assert.equal(progressBar(0.5, 10), "[#####.....]  50 %");
  assert.equal(progressBar(1, 4), "[####] 100 %");
});
