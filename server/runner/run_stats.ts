/**
 * The figures of a `stats` event: elapsed time as the frontend shows it, this process's CPU
 * share and memory, and the machine's memory. A solve runs in a Worker of this process, so the
 * process's CPU time includes it.
 */
import process from "node:process";
import type { StatsEvent } from "../../lib/runner/run_events.ts";

/** One reading of the process and the machine; null where the platform cannot say. */
export interface SystemReading {
  /** CPU time of this process so far (user + system), microseconds. */
  cpuMicros: number | null;
  /** Resident set size, bytes. */
  rssBytes: number | null;
  /** Machine memory, bytes. */
  memTotalBytes: number | null;
  /** Machine memory available to new work, bytes. */
  memAvailableBytes: number | null;
}

/** Reads the figures; tests pass a fixed one. */
export type SystemProbe = () => SystemReading;

/** The figures of this process and machine, each null when its API is unavailable. */
export const systemProbe: SystemProbe = () => {
  const reading: SystemReading = {
    cpuMicros: null,
    rssBytes: null,
    memTotalBytes: null,
    memAvailableBytes: null,
  };
  try {
    const cpu = process.cpuUsage();
    reading.cpuMicros = cpu.user + cpu.system;
  } catch {
    // not every platform reports process CPU time
  }
  try {
    reading.rssBytes = Deno.memoryUsage().rss;
  } catch {
    // ditto
  }
  try {
    const memory = Deno.systemMemoryInfo();
    reading.memTotalBytes = memory.total;
    reading.memAvailableBytes = memory.available;
  } catch {
    // needs --allow-sys; the figures are then null
  }
  return reading;
};

/** `42s` under a minute, else `1m 05s` (minutes keep counting past an hour: `75m 00s`). */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, "0")}s`;
}

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** Follows one job's figures: each `next()` gives the CPU share since the previous call. */
export class StatsMeter {
  readonly #probe: SystemProbe;
  readonly #now: () => number;
  readonly #startMs: number;
  #lastMs: number;
  #lastCpu: number | null;

  constructor(probe: SystemProbe = systemProbe, now: () => number = () => performance.now()) {
    this.#probe = probe;
    this.#now = now;
    this.#startMs = now();
    this.#lastMs = this.#startMs;
    this.#lastCpu = probe().cpuMicros;
  }

  /** The `stats` event for now. */
  next(): StatsEvent {
    const reading = this.#probe();
    const nowMs = this.#now();
    const wallMs = nowMs - this.#lastMs;
    const cpu = reading.cpuMicros;
    const cpuPct = cpu !== null && this.#lastCpu !== null && wallMs > 0
      ? round(((cpu - this.#lastCpu) / 1000 / wallMs) * 100, 1)
      : null;
    this.#lastMs = nowMs;
    this.#lastCpu = cpu;
    const { memTotalBytes: total, memAvailableBytes: available } = reading;
    const used = total !== null && available !== null ? total - available : null;
    return {
      type: "stats",
      elapsed: formatElapsed(nowMs - this.#startMs),
      cpu_pct: cpuPct,
      proc_ram_mb: reading.rssBytes === null ? null : round(reading.rssBytes / MIB, 1),
      sys_ram_used_gb: used === null ? null : round(used / GIB, 2),
      sys_ram_total_gb: total === null ? null : round(total / GIB, 2),
      sys_ram_pct: used === null || !total ? null : round((used / total) * 100, 1),
    };
  }
}
