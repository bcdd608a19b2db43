/**
 * The job manager of the simulation services: runs of a `SimulationModel` kept in memory for a
 * time to live, at most `maxRunning` advancing at once (the rest queued in FIFO order), each
 * advanced in slices of a few milliseconds with a yield to the event loop in between, so that a
 * cancel stops a run within one slice and telemetry frames (and HTTP answers) go out while it
 * runs. Pure of HTTP: the service turns frames into WebSocket messages and views into JSON.
 */
import type { SimulationModel, SimulationRun, StepTelemetry } from "./simulation_model.ts";

/** The statuses of a job, exactly as the client reads them (plus `cancelled`). */
export type SimulationJobStatus = "queued" | "running" | "done" | "error" | "cancelled";

/** A telemetry frame: the progress of the latest step and that step's numbers. */
export type ProgressFrame = {
  type: "progress";
  progress_pct: number;
  step: number;
  t_s: number;
} & StepTelemetry;

/** The last frame of a finished run. */
export type FinalFrame =
  | { type: "result"; result: Record<string, unknown> }
  | { type: "error"; error: string; status: "error" | "cancelled" };

/** Any frame a subscriber receives. */
export type SimulationFrame = ProgressFrame | FinalFrame;

/**
 * Receives each frame with its JSON text (serialised once for every subscriber, so 64 sockets
 * on one job cost one `JSON.stringify`).
 */
export type FrameListener = (frame: SimulationFrame, text: string) => void;

/** What the service shows of a job. */
export interface SimulationJobView {
  job_id: string;
  status: SimulationJobStatus;
  progress_pct: number;
  error: string | null;
  /** Present once `status` is `done`. */
  result?: Record<string, unknown>;
}

/** Time the runs spent computing and on telemetry (frames built, serialised, delivered), ms. */
export interface TelemetryCost {
  computeMs: number;
  telemetryMs: number;
  frames: number;
  /** telemetryMs / (computeMs + telemetryMs), 0 before any run. */
  share: number;
}

/** How the job manager is set up. */
export interface SimulationJobsOptions<Payload> {
  model: SimulationModel<Payload>;
  /** Most runs advancing at once (SIM_MAX_JOBS, default 4); later ones wait queued. */
  maxRunning?: number;
  /** How long a finished job stays readable, ms (SIM_JOB_TTL_S, default 1 h). */
  ttlMs?: number;
  /** Length of one slice of computation between yields, ms (default 8). */
  sliceMs?: number;
  /** Least time between two progress frames of a job, ms (default 50: at most 20 a second). */
  minFrameIntervalMs?: number;
  /** The current time in ms, for time to live; default `Date.now`. */
  now?: () => number;
  /** Job ids; default `crypto.randomUUID`. */
  newId?: () => string;
}

/** Defaults of the manager (the service reads the first two from the environment). */
export const SIMULATION_JOB_DEFAULTS = {
  maxRunning: 4,
  ttlMs: 3_600_000,
  sliceMs: 8,
  minFrameIntervalMs: 50,
} as const;

interface Job<Payload> {
  id: string;
  payload: Payload;
  status: SimulationJobStatus;
  run?: SimulationRun;
  progressPct: number;
  error: string | null;
  result?: Record<string, unknown>;
  latest?: { frame: ProgressFrame; text: string };
  final?: { frame: FinalFrame; text: string };
  listeners: Set<FrameListener>;
  finishedAt?: number;
  /** Settles when the job's run ended (done, error or cancelled). */
  settled: Promise<void>;
  settle: () => void;
}

/**
 * Waits one turn of the event loop. `setTimeout(0)` (not a microtask or a MessageChannel, both
 * of which starve socket I/O in Deno) lets requests and socket writes through between slices.
 */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Rounds a percentage to 0.01 for the frames. */
function percent(done: number, total: number): number {
  return total === 0 ? 100 : Math.round((done / total) * 10_000) / 100;
}

/** Jobs of one model: submit, read, follow, cancel. */
export class SimulationJobs<Payload = unknown> {
  readonly #model: SimulationModel<Payload>;
  readonly #maxRunning: number;
  readonly #ttlMs: number;
  readonly #sliceMs: number;
  readonly #minFrameIntervalMs: number;
  readonly #now: () => number;
  readonly #newId: () => string;
  readonly #jobs = new Map<string, Job<Payload>>();
  readonly #queue: Job<Payload>[] = [];
  #running = 0;
  #closed = false;
  #computeMs = 0;
  #telemetryMs = 0;
  #frames = 0;

  constructor(options: SimulationJobsOptions<Payload>) {
    this.#model = options.model;
    this.#maxRunning = options.maxRunning ?? SIMULATION_JOB_DEFAULTS.maxRunning;
    this.#ttlMs = options.ttlMs ?? SIMULATION_JOB_DEFAULTS.ttlMs;
    this.#sliceMs = options.sliceMs ?? SIMULATION_JOB_DEFAULTS.sliceMs;
    this.#minFrameIntervalMs = options.minFrameIntervalMs ??
      SIMULATION_JOB_DEFAULTS.minFrameIntervalMs;
    this.#now = options.now ?? Date.now;
    this.#newId = options.newId ?? (() => crypto.randomUUID());
    if (!Number.isInteger(this.#maxRunning) || this.#maxRunning < 1) {
      throw new RangeError(`maxRunning must be an integer >= 1, got ${this.#maxRunning}`);
    }
  }

  /** The model the jobs run. */
  get model(): SimulationModel<Payload> {
    return this.#model;
  }

  /** Jobs queued or running. */
  get active(): number {
    this.#sweep();
    let count = 0;
    for (const job of this.#jobs.values()) {
      if (job.status === "queued" || job.status === "running") count++;
    }
    return count;
  }

  /** Jobs held (any status, not yet expired). */
  get size(): number {
    this.#sweep();
    return this.#jobs.size;
  }

  /** Computation and telemetry time of every run so far. */
  telemetryCost(): TelemetryCost {
    const total = this.#computeMs + this.#telemetryMs;
    return {
      computeMs: this.#computeMs,
      telemetryMs: this.#telemetryMs,
      frames: this.#frames,
      share: total === 0 ? 0 : this.#telemetryMs / total,
    };
  }

  /**
   * Queues a run of a checked payload (validated by `model.payloadSchema`, within
   * `model.limits`); it starts at once when fewer than `maxRunning` run.
   */
  submit(payload: Payload): SimulationJobView {
    if (this.#closed) throw new Error("The simulation service is stopping; no new jobs");
    this.#sweep();
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => settle = resolve);
    const job: Job<Payload> = {
      id: this.#newId(),
      payload,
      status: "queued",
      progressPct: 0,
      error: null,
      listeners: new Set(),
      settled,
      settle,
    };
    this.#jobs.set(job.id, job);
    this.#queue.push(job);
    const view = this.#view(job);
    this.#pump();
    return view;
  }

  /** The job's view, or undefined when unknown or expired. */
  get(id: string): SimulationJobView | undefined {
    this.#sweep();
    const job = this.#jobs.get(id);
    return job && this.#view(job);
  }

  /**
   * Follows a job: `listener` gets the latest progress frame at once, the final frame at once
   * if the job has finished, then every later frame in order. Answers a function that stops
   * following, or undefined for an unknown job.
   */
  subscribe(id: string, listener: FrameListener): (() => void) | undefined {
    this.#sweep();
    const job = this.#jobs.get(id);
    if (!job) return undefined;
    if (job.latest) listener(job.latest.frame, job.latest.text);
    if (job.final) {
      listener(job.final.frame, job.final.text);
      return () => {};
    }
    job.listeners.add(listener);
    return () => job.listeners.delete(listener);
  }

  /**
   * Cancels a queued or running job (a running one stops at the end of its current slice);
   * a finished job keeps its status. Answers the view, or undefined for an unknown job.
   */
  cancel(id: string): SimulationJobView | undefined {
    this.#sweep();
    const job = this.#jobs.get(id);
    if (!job) return undefined;
    if (job.status === "queued") {
      const at = this.#queue.indexOf(job);
      if (at >= 0) this.#queue.splice(at, 1);
      this.#finish(job, "cancelled", "Job cancelled");
      job.settle(); // it never reaches a run loop
    } else if (job.status === "running") {
      // The run loop sees the status at the end of its slice and stops.
      this.#finish(job, "cancelled", "Job cancelled");
    }
    return this.#view(job);
  }

  /** Resolves when the job's run has ended (at once for a finished or unknown job). */
  settled(id: string): Promise<void> {
    return this.#jobs.get(id)?.settled ?? Promise.resolve();
  }

  /** Refuses new jobs, cancels every unfinished one and waits until their runs have stopped. */
  async close(): Promise<void> {
    this.#closed = true;
    const waits: Promise<void>[] = [];
    for (const job of this.#jobs.values()) {
      this.cancel(job.id);
      waits.push(job.settled);
    }
    await Promise.all(waits);
  }

  #view(job: Job<Payload>): SimulationJobView {
    return {
      job_id: job.id,
      status: job.status,
      progress_pct: job.progressPct,
      error: job.error,
      ...(job.status === "done" && job.result ? { result: job.result } : {}),
    };
  }

  /** Drops finished jobs older than the time to live. */
  #sweep(): void {
    const now = this.#now();
    for (const [id, job] of this.#jobs) {
      if (job.finishedAt !== undefined && now - job.finishedAt >= this.#ttlMs) {
        this.#jobs.delete(id);
      }
    }
  }

  /** Starts queued jobs while there is room. */
  #pump(): void {
    while (this.#running < this.#maxRunning && this.#queue.length > 0) {
      const job = this.#queue.shift()!;
      this.#running++;
      void this.#execute(job).finally(() => {
        this.#running--;
        job.settle();
        this.#pump();
      });
    }
  }

  /** Sends a frame to every listener of the job, serialised once. */
  #emit(job: Job<Payload>, frame: SimulationFrame): string {
    const text = JSON.stringify(frame);
    for (const listener of [...job.listeners]) {
      try {
        listener(frame, text);
      } catch {
        // A broken subscriber (a socket that closed) must not stop the run or the others.
        job.listeners.delete(listener);
      }
    }
    this.#frames++;
    return text;
  }

  #progress(job: Job<Payload>, run: SimulationRun): void {
    const frame = {
      ...run.telemetry(),
      type: "progress",
      progress_pct: percent(run.stepsDone, run.totalSteps),
      step: run.stepsDone,
      t_s: run.t_s,
    } as ProgressFrame;
    job.progressPct = frame.progress_pct;
    job.latest = { frame, text: this.#emit(job, frame) };
  }

  #finish(
    job: Job<Payload>,
    status: "done" | "error" | "cancelled",
    error: string | null,
    result?: Record<string, unknown>,
  ): void {
    job.status = status;
    job.error = error;
    job.finishedAt = this.#now();
    const frame: FinalFrame = status === "done"
      ? { type: "result", result: result ?? {} }
      : { type: "error", error: error ?? status, status };
    if (result) {
      job.result = result;
      job.progressPct = 100;
    }
    const text = this.#emit(job, frame);
    job.final = { frame, text };
    job.listeners.clear();
  }

  async #execute(job: Job<Payload>): Promise<void> {
    // Begin on a later turn, so whoever submitted can subscribe before the first slice.
    await yieldToEventLoop();
    if (job.status !== "queued") return;
    job.status = "running";
    try {
      const run = this.#model.start(job.payload);
      job.run = run;
      const total = run.totalSteps;
      // A frame about every 1 % of the steps, no closer than minFrameIntervalMs.
      const frameEvery = Math.max(1, Math.ceil(total / 100));
      let nextFrameStep = frameEvery;
      let lastFrameAt = -Infinity;
      let chunk = 16; // steps per advance call, adapted so one call takes about 1 ms
      let stalled = false;
      while (run.stepsDone < total && !stalled) {
        const sliceStart = performance.now();
        let now = sliceStart;
        while (run.stepsDone < total && now - sliceStart < this.#sliceMs) {
          const before = performance.now();
          const want = Math.min(chunk, Math.max(1, nextFrameStep - run.stepsDone));
          const did = run.advance(want);
          now = performance.now();
          this.#computeMs += now - before;
          if (did === 0) {
            stalled = true;
            break;
          }
          if (did === want && now - before < 0.5) chunk = Math.min(chunk * 2, 1 << 20);
          else if (now - before > 2 && chunk > 1) chunk = Math.max(1, chunk >> 1);
          if (run.stepsDone >= nextFrameStep) {
            if (now - lastFrameAt >= this.#minFrameIntervalMs && run.stepsDone < total) {
              this.#progress(job, run);
              lastFrameAt = performance.now();
              this.#telemetryMs += lastFrameAt - now;
              now = lastFrameAt;
            }
            while (nextFrameStep <= run.stepsDone) nextFrameStep += frameEvery;
          }
        }
        await yieldToEventLoop();
        if (job.status !== "running") return; // cancelled during the slice or the yield
      }
      if (run.stepsDone < total) throw new Error("The run stopped before its last step");
      // The last progress frame (100 %) always goes out, then the result.
      const before = performance.now();
      this.#progress(job, run);
      this.#telemetryMs += performance.now() - before;
      const resultStart = performance.now();
      const result = run.result();
      this.#computeMs += performance.now() - resultStart;
      // The result's own serialisation is not telemetry: it is needed with or without frames.
      if (job.status === "running") this.#finish(job, "done", null, result);
    } catch (error) {
      if (job.status === "running") {
        this.#finish(job, "error", error instanceof Error ? error.message : String(error));
      }
    } finally {
      delete job.run;
    }
  }
}
