/**
 * A small real model for the service tests: a cylindrical water tank filled at a constant
 * rate and drained through an orifice at its bottom (Torricelli: outflow a·sqrt(2·g·h)),
 * integrated by explicit Euler with `substeps` per step (more substeps: a slower, finer run).
 * The level tends to h* = (Q_in/a)²/(2g); mass balance: stored change = inflow − outflow.
 */
import { z } from "zod";
import {
  MAX_STEPS,
  type SimulationModel,
  type SimulationRun,
} from "../../lib/simulation/simulation_model.ts";

const G = 9.80665; // m/s², standard gravity
const RHO = 1000; // kg/m³, water

/** The tank payload; `inflow_m3s` also spelled `inflow_m3_s`. */
export const tankPayloadSchema = z.object({
  simulation: z.object({
    t_end_s: z.number().positive().default(3600),
    dt_s: z.number().positive().default(60),
  }),
  tank: z.object({
    area_m2: z.number().positive().default(1),
    orifice_m2: z.number().positive().default(0.001),
    initial_level_m: z.number().nonnegative().default(0),
  }).default({ area_m2: 1, orifice_m2: 0.001, initial_level_m: 0 }),
  inflow_m3s: z.number().nonnegative().optional(),
  inflow_m3_s: z.number().nonnegative().optional(),
  substeps: z.number().int().positive().max(100_000).default(10),
  /** Fails the run at this step (tests of the error path). */
  fail_at_step: z.number().int().positive().optional(),
}).transform((p) => ({ ...p, inflow_m3s: p.inflow_m3s ?? p.inflow_m3_s ?? 0.002 }));

/** The canonical tank payload. */
export type TankPayload = z.output<typeof tankPayloadSchema>;

/** The tank model. */
export const tankModel: SimulationModel<TankPayload> = {
  name: "tank",
  title: "A water tank filled at a constant rate, drained through an orifice",
  payloadSchema: tankPayloadSchema as unknown as z.ZodType<TankPayload>,
  limits(payload) {
    const steps = Math.ceil(payload.simulation.t_end_s / payload.simulation.dt_s);
    return steps > MAX_STEPS
      ? [`simulation.t_end_s / simulation.dt_s: ${steps} steps, at most ${MAX_STEPS}`]
      : [];
  },
  steps: (payload) => Math.ceil(payload.simulation.t_end_s / payload.simulation.dt_s),
  resultSeries: 4, // time_s, tank.level_m, tank.outflow_m3s, tank_level_m
  start(payload): SimulationRun {
    const { dt_s } = payload.simulation;
    const totalSteps = Math.ceil(payload.simulation.t_end_s / dt_s);
    const { area_m2, orifice_m2 } = payload.tank;
    const h = payload.substeps;
    const dt = dt_s / h;
    let level = payload.tank.initial_level_m;
    let done = 0;
    let inflowKg = 0;
    let outflowKg = 0;
    let outflowStep = 0;
    const time: number[] = [];
    const levels: number[] = [];
    const outflows: number[] = [];
    const initialKg = level * area_m2 * RHO;
    return {
      totalSteps,
      get stepsDone() {
        return done;
      },
      get t_s() {
        return done * dt_s;
      },
      advance(maxSteps) {
        let did = 0;
        while (did < maxSteps && done < totalSteps) {
          if (payload.fail_at_step !== undefined && done + 1 >= payload.fail_at_step) {
            throw new RangeError(`tank: failure requested at step ${payload.fail_at_step}`);
          }
          let out = 0;
          for (let i = 0; i < h; i++) {
            // An outflow step never drains more than the tank holds.
            const q = Math.min(orifice_m2 * Math.sqrt(2 * G * level), level * area_m2 / dt);
            level += (payload.inflow_m3s - q) * dt / area_m2;
            out += q * dt;
          }
          inflowKg += payload.inflow_m3s * dt_s * RHO;
          outflowKg += out * RHO;
          outflowStep = out / dt_s;
          done++;
          did++;
          time.push(done * dt_s);
          levels.push(level);
          outflows.push(outflowStep);
        }
        return did;
      },
      telemetry() {
        return done === 0 ? {} : { tank_level_m: level, outflow_m3s: outflowStep };
      },
      result() {
        if (done < totalSteps) throw new Error("tank: the run has not finished");
        return {
          time_s: time,
          dt_s,
          tank: { level_m: levels, outflow_m3s: outflows },
          tank_level_m: levels,
          kpi: {
            inflow_kg: inflowKg,
            outflow_kg: outflowKg,
            stored_change_kg: level * area_m2 * RHO - initialKg,
            steady_level_m: (payload.inflow_m3s / orifice_m2) ** 2 / (2 * G),
          },
        };
      },
    };
  },
};
