/**
 * Settings of the simulation services (hydrogen plant, carbon-capture chain), read by a pure
 * function from the environment; each service has its own port variable and shares the job
 * limits.
 */
import { type Env, integer, port, positive } from "../env.ts";

/** Default port of the hydrogen service (HYDROGEN_PORT), where the client looks. */
export const HYDROGEN_PORT = 8765;

/** Default port of the carbon-capture service (CCS_PORT), where the client looks. */
export const CCS_PORT = 8766;

/** Largest accepted request body, bytes (8 MiB; not an env setting). */
export const SIM_MAX_BODY_BYTES = 8 * 1024 * 1024;

/** Everything a simulation service is configured with. */
export interface SimulationSettings {
  port: number;
  /** How long a finished job stays readable, ms (SIM_JOB_TTL_S, default 3600 s). */
  jobTtlMs: number;
  /** Most runs advancing at once (SIM_MAX_JOBS, default 4); the rest wait queued. */
  maxJobs: number;
  /** Largest accepted request body, bytes. */
  maxBodyBytes: number;
}

/** Reads one simulation service's settings; throws RangeError naming the variable at fault. */
export function readSimulationSettings(
  env: Env,
  portVariable: string,
  defaultPort: number,
): SimulationSettings {
  return {
    port: port(portVariable, env[portVariable], defaultPort),
    jobTtlMs: positive("SIM_JOB_TTL_S", env["SIM_JOB_TTL_S"], 3600) * 1000,
    maxJobs: integer(env, "SIM_MAX_JOBS", 4, 1),
    maxBodyBytes: SIM_MAX_BODY_BYTES,
  };
}
