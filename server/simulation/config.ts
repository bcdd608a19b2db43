/**
 * Settings of the simulation services (hydrogen plant, carbon-capture chain), read by a pure
 * function from the environment; each service has its own port variable and shares the job
 * limits. The limits follow from what a result weighs: steps × series values (37 series in
 * both models), about 8 bytes each in memory and 12-20 characters each as JSON.
 */
import { type Env, integer, port, positive } from "../env.ts";

/** Default port of the hydrogen service (HYDROGEN_PORT), where the client looks. */
export const HYDROGEN_PORT = 8765;

/** Default port of the carbon-capture service (CCS_PORT), where the client looks. */
export const CCS_PORT = 8766;

const MIB = 1024 * 1024;

/**
 * Largest accepted request body by default, bytes (SIM_MAX_BODY_MB, 32 MiB): what a valid
 * payload can weigh, i.e. the client's profile of one point per step for a leap year at
 * 1-minute steps (527,041 points of up to about 60 bytes each) and the rest of the payload.
 */
export const SIM_MAX_BODY_BYTES = 32 * MIB;

/**
 * Most values a result may carry by default (SIM_MAX_RESULT_VALUES): a year at 1-minute steps
 * (525,600) × 40 series, so a year at 1-minute steps of either model (37 series) runs, and a
 * 1,000,000-step run (37 million values, some 500 MB of JSON) is refused.
 */
export const SIM_MAX_RESULT_VALUES = 525_600 * 40;

/** Everything a simulation service is configured with. */
export interface SimulationSettings {
  port: number;
  /** How long a finished job stays readable, ms (SIM_JOB_TTL_S, default 3600 s). */
  jobTtlMs: number;
  /** Most runs advancing at once (SIM_MAX_JOBS, default 4); the rest wait queued. */
  maxJobs: number;
  /** Most jobs waiting for a run slot (SIM_MAX_QUEUED, default 16); 503 beyond. */
  maxQueued: number;
  /** Largest accepted request body, bytes (SIM_MAX_BODY_MB, default 32). */
  maxBodyBytes: number;
  /** Most values (steps × series) a result may carry (SIM_MAX_RESULT_VALUES); 422 beyond. */
  maxResultValues: number;
  /**
   * Most bytes finished jobs hold, results included (SIM_MAX_RESULTS_MB, default 256): the
   * oldest results are dropped beyond (their jobs answer 410); a payload whose result alone
   * would weigh more is refused with 422.
   */
  maxResultsBytes: number;
  /**
   * Most bytes a WebSocket may have waiting to be sent (SIM_WS_MAX_BUFFER_MB, default 8): a
   * client that does not read is closed (1008) rather than buffered for; a result larger than
   * it (less 64 KiB) is not sent as a frame (the client reads it over HTTP, streamed).
   */
  wsMaxBufferBytes: number;
}

/** Reads one simulation service's settings; throws RangeError naming the variable at fault. */
export function readSimulationSettings(
  env: Env,
  portVariable: string,
  defaultPort: number,
): SimulationSettings {
  const mib = (name: string, fallback: number) =>
    Math.floor(positive(name, env[name], fallback / MIB) * MIB);
  return {
    port: port(portVariable, env[portVariable], defaultPort),
    jobTtlMs: positive("SIM_JOB_TTL_S", env["SIM_JOB_TTL_S"], 3600) * 1000,
    maxJobs: integer(env, "SIM_MAX_JOBS", 4, 1),
    maxQueued: integer(env, "SIM_MAX_QUEUED", 16, 0),
    maxBodyBytes: mib("SIM_MAX_BODY_MB", SIM_MAX_BODY_BYTES),
    maxResultValues: integer(env, "SIM_MAX_RESULT_VALUES", SIM_MAX_RESULT_VALUES, 1),
    maxResultsBytes: mib("SIM_MAX_RESULTS_MB", 256 * MIB),
    wsMaxBufferBytes: mib("SIM_WS_MAX_BUFFER_MB", 8 * MIB),
  };
}
