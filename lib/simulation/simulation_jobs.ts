/**
 * The job manager of the simulation services: runs of a `SimulationModel` kept in memory for a
 * time to live, at most `maxRunning` advancing at once and at most `maxQueued` waiting (FIFO),
 * each advanced in slices of a few milliseconds with a yield to the event loop in between, so
 * that a cancel stops a run within one slice and telemetry frames (and HTTP answers) go out
 * while it runs. Finished jobs hold at most `maxHeldBytes` of results (`held_results.ts`): beyond,
 * the oldest results are dropped (the job then says so). A result is never serialised as one
 * string unless it fits in one socket frame (`maxFrameBytes`). Pure of HTTP: the service turns
 * frames (`simulation_frames.ts`) into WebSocket messages and views (`simulation_job.ts`) into
 * JSON.
 */
import { HeldResults } from "./held_results.ts";
import { measureResult } from "./result_weight.ts";
import { RunPacer } from "./run_pacer.ts";
import {
  type DoneResult,
  endFrame,
  type FinalFrame,
  type Framed,
  framed,
  type FrameListener,
  progressFrame,
  resultFrame,
  resultFrameText,
  type SimulationFrame,
} from "./simulation_frames.ts";
import { type JobRecord, jobView, newJobRecord, type SimulationJobView } from "./simulation_job.ts";
import type { SimulationModel, SimulationRun } from "./simulation_model.ts";
import { yieldToEventLoop } from "../concurrency/yield_to_event_loop.ts";

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
  /** Most jobs waiting for a run slot (SIM_MAX_QUEUED, default 16); beyond, `submit` throws. */
  maxQueued?: number;
  /** How long a finished job stays readable, ms (SIM_JOB_TTL_S, default 1 h). */
  ttlMs?: number;
  /**
   * Most bytes the finished jobs hold, results included (SIM_MAX_RESULTS_MB, default 256 MiB);
   * beyond, the oldest results are dropped first.
   */
  maxHeldBytes?: number;
  /**
   * Largest result frame, characters of JSON (default 8 MiB less 64 KiB, the service's socket
   * buffer bound less room for progress frames); a larger result is read by polling.
   */
  maxFrameBytes?: number;
  /** Finished jobs whose results were dropped that are still remembered (default 10,000). */
  maxDroppedKept?: number;
  /** Length of one slice of computation between yields, ms (default 8). */
  sliceMs?: number;
  /** Least time between two progress frames of a job, ms (default 50: at most 20 a second). */
  minFrameIntervalMs?: number;
  /** The current time in ms, for time to live; default `Date.now`. */
  now?: () => number;
  /** Job ids; default `crypto.randomUUID`. */
  newId?: () => string;
}

/** Defaults of the manager (the service reads most of them from the environment). */
export const SIMULATION_JOB_DEFAULTS = {
  maxRunning: 4,
  maxQueued: 16,
  ttlMs: 3_600_000,
  maxHeldBytes: 256 * 1024 * 1024,
  maxFrameBytes: 8 * 1024 * 1024 - 64 * 1024,
  maxDroppedKept: 10_000,
  sliceMs: 8,
  minFrameIntervalMs: 50,
} as const;

/** `submit` beyond `maxQueued` waiting jobs. */
export class QueueFullError extends Error {
  constructor(readonly maxQueued: number, readonly maxRunning: number) {
    super(
      `${maxRunning} job(s) run and ${maxQueued} wait already, the most this service queues; ` +
        "retry when one has finished",
    );
    this.name = "QueueFullError";
  }
}

/** Throws a RangeError naming the option unless `value` is an integer of at least `least`. */
function checkInteger(name: string, value: number, least: number): void {
  if (!Number.isInteger(value) || value < least) {
    throw new RangeError(`${name} must be an integer >= ${least}, got ${value}`);
  }
}

/** Jobs of one model: submit, read, follow, cancel. */
export class SimulationJobs<Payload = unknown> {
  readonly #model: SimulationModel<Payload>;
  readonly #maxRunning: number;
  readonly #maxQueued: number;
  readonly #ttlMs: number;
  readonly #maxFrameBytes: number;
  readonly #sliceMs: number;
  readonly #minFrameIntervalMs: number;
  readonly #now: () => number;
  readonly #newId: () => string;
  readonly #jobs = new Map<string, JobRecord<Payload>>();
  readonly #queue: JobRecord<Payload>[] = [];
  /** Jobs queued or running. */
  readonly #live = new Set<JobRecord<Payload>>();
  readonly #held: HeldResults;
  #running = 0;
  #closed = false;
  #computeMs = 0;
  #telemetryMs = 0;
  #frames = 0;

  constructor(options: SimulationJobsOptions<Payload>) {
    const d = SIMULATION_JOB_DEFAULTS;
    this.#model = options.model;
    this.#maxRunning = options.maxRunning ?? d.maxRunning;
    this.#maxQueued = options.maxQueued ?? d.maxQueued;
    this.#ttlMs = options.ttlMs ?? d.ttlMs;
    this.#held = new HeldResults(
      options.maxHeldBytes ?? d.maxHeldBytes,
      options.maxDroppedKept ?? d.maxDroppedKept,
      (id) => this.#jobs.delete(id),
    );
    this.#maxFrameBytes = options.maxFrameBytes ?? d.maxFrameBytes;
    this.#sliceMs = options.sliceMs ?? d.sliceMs;
    this.#minFrameIntervalMs = options.minFrameIntervalMs ?? d.minFrameIntervalMs;
    this.#now = options.now ?? Date.now;
    this.#newId = options.newId ?? (() => crypto.randomUUID());
    checkInteger("maxRunning", this.#maxRunning, 1);
    checkInteger("maxQueued", this.#maxQueued, 0);
  }

  /** The model the jobs run. */
  get model(): SimulationModel<Payload> {
    return this.#model;
  }

  /** Jobs queued or running. */
  get active(): number {
    return this.#live.size;
  }

  /** Jobs waiting for a run slot. */
  get queued(): number {
    return this.#queue.length;
  }

  /** Jobs held (any status, not yet expired or forgotten). */
  get size(): number {
    this.#sweep();
    return this.#jobs.size;
  }

  /** Bytes the finished jobs hold (results, frames and records), bounded by `maxHeldBytes`. */
  get heldBytes(): number {
    this.#sweep();
    return this.#held.bytes;
  }

  /** The bounds the manager keeps. */
  get limits(): {
    maxRunning: number;
    maxQueued: number;
    maxHeldBytes: number;
    maxFrameBytes: number;
  } {
    return {
      maxRunning: this.#maxRunning,
      maxQueued: this.#maxQueued,
      maxHeldBytes: this.#held.maxHeldBytes,
      maxFrameBytes: this.#maxFrameBytes,
    };
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
   * `model.limits` and the service's weight limits); it starts at once when fewer than
   * `maxRunning` run. Throws `QueueFullError` when `maxQueued` jobs wait already.
   */
  submit(payload: Payload): SimulationJobView {
    if (this.#closed) throw new Error("The simulation service is stopping; no new jobs");
    this.#sweep();
    if (this.#running >= this.#maxRunning && this.#queue.length >= this.#maxQueued) {
      throw new QueueFullError(this.#maxQueued, this.#maxRunning);
    }
    const job = newJobRecord(this.#newId(), payload);
    this.#jobs.set(job.id, job);
    this.#live.add(job);
    this.#queue.push(job);
    const view = jobView(job);
    this.#pump();
    return view;
  }

  /** The job's view, or undefined when unknown, expired or forgotten. */
  get(id: string): SimulationJobView | undefined {
    const job = this.#find(id);
    return job && jobView(job);
  }

  /**
   * Follows a job: `listener` gets the latest progress frame at once, the final frame at once
   * if the job has finished, then every later frame in order. Answers a function that stops
   * following, or undefined for an unknown job.
   */
  subscribe(id: string, listener: FrameListener): (() => void) | undefined {
    const job = this.#find(id);
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
    const job = this.#find(id);
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
    return jobView(job);
  }

  /** Resolves when the job's run has ended (at once for a finished or unknown job). */
  settled(id: string): Promise<void> {
    return this.#jobs.get(id)?.settled ?? Promise.resolve();
  }

  /** Refuses new jobs, cancels every unfinished one and waits until their runs have stopped. */
  async close(): Promise<void> {
    this.#closed = true;
    const waits: Promise<void>[] = [];
    for (const job of [...this.#live]) {
      this.cancel(job.id);
      waits.push(job.settled);
    }
    await Promise.all(waits);
  }

  /** A job not expired or forgotten, after forgetting the expired ones. */
  #find(id: string): JobRecord<Payload> | undefined {
    this.#sweep();
    return this.#jobs.get(id);
  }

  /** Forgets finished jobs older than the time to live. */
  #sweep(): void {
    this.#held.sweep(this.#now(), this.#ttlMs);
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
  #emit(job: JobRecord<Payload>, { frame, text }: Framed<SimulationFrame>): void {
    for (const listener of [...job.listeners]) {
      try {
        listener(frame, text);
      } catch {
        // A broken subscriber (a socket that closed) must not stop the run or the others.
        job.listeners.delete(listener);
      }
    }
    this.#frames++;
  }

  /**
   * Sends the progress frame of the run's latest step, its time (from `start`) counted as
   * telemetry; answers when it was done.
   */
  #progress(job: JobRecord<Payload>, run: SimulationRun, start = performance.now()): number {
    const latest = framed(progressFrame(run));
    job.progressPct = latest.frame.progress_pct;
    this.#emit(job, latest);
    job.latest = latest;
    const end = performance.now();
    this.#telemetryMs += end - start;
    return end;
  }

  /**
   * Ends a job: its final frame to every listener, then its memory counted (results beyond
   * `maxHeldBytes` dropped, oldest first). A done job brings its result, the result's weight
   * and the frame's text when it fits in `maxFrameBytes`.
   */
  #finish(
    job: JobRecord<Payload>,
    status: "done" | "error" | "cancelled",
    error: string | null,
    done?: DoneResult,
  ): void {
    job.status = status;
    job.error = error;
    job.finishedAt = this.#now();
    this.#live.delete(job);
    delete job.payload;
    let final: Framed<FinalFrame>;
    if (done) {
      job.result = done.result;
      job.progressPct = 100;
      final = resultFrame(done, this.#maxFrameBytes);
    } else {
      final = framed(endFrame(status, error));
    }
    this.#emit(job, final);
    job.final = final;
    job.listeners.clear();
    this.#held.hold(job, (done?.weight.bytes ?? 0) + (done?.text?.length ?? 0));
  }

  async #execute(job: JobRecord<Payload>): Promise<void> {
    // Begin on a later turn, so whoever submitted can subscribe before the first slice.
    await yieldToEventLoop();
    if (job.status !== "queued") return;
    job.status = "running";
    try {
      const run = this.#model.start(job.payload!);
      delete job.payload; // the run keeps what it needs
      job.run = run;
      const pacer = new RunPacer(run, {
        sliceMs: this.#sliceMs,
        minFrameIntervalMs: this.#minFrameIntervalMs,
      }, {
        computed: (ms) => {
          this.#computeMs += ms;
        },
        progress: (start) => this.#progress(job, run, start),
      });
      let stalled = false;
      while (!pacer.ended && !stalled) {
        stalled = !pacer.slice();
        await yieldToEventLoop();
        if (job.status !== "running") return; // cancelled during the slice or the yield
      }
      if (!pacer.ended) throw new Error("The run stopped before its last step");
      // The last progress frame (100 %) always goes out, then the result.
      this.#progress(job, run);
      const resultStart = performance.now();
      const result = run.result();
      this.#computeMs += performance.now() - resultStart;
      delete job.run; // its series are copied into the result
      // The result's own serialisation is not telemetry: it is needed with or without frames.
      const weight = measureResult(result);
      await yieldToEventLoop();
      if (job.status !== "running") return;
      const text = await resultFrameText(
        { type: "result", result },
        weight,
        this.#maxFrameBytes,
        this.#sliceMs,
      );
      if (job.status === "running") this.#finish(job, "done", null, { result, weight, text });
    } catch (error) {
      if (job.status === "running") {
        this.#finish(job, "error", error instanceof Error ? error.message : String(error));
      }
    } finally {
      delete job.run;
    }
  }
}
