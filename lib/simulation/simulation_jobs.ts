/**
 * The job manager of the simulation services, on the job engine (`lib/jobs/`): runs of a
 * `SimulationModel` kept in memory for a time to live, at most `maxRunning` advancing at once and at most `maxQueued` waiting (FIFO),
 * each advanced in slices of a few milliseconds with a yield to the event loop in between, so
 * that a cancel stops a run within one slice and telemetry frames (and HTTP answers) go out
 * while it runs. Finished jobs hold at most `maxHeldBytes` of results (`held_results.ts`): beyond,
 * the oldest results are dropped (the job then says so). A result is never serialised as one
 * string unless it fits in one socket frame (`maxFrameBytes`). Pure of HTTP: the service turns
 * frames (`simulation_frames.ts`) into WebSocket messages and views (`simulation_job.ts`) into
 * JSON.
 */
import { JobQueue } from "../jobs/job_queue.ts";
import { JobRefusedError, type WorkContext } from "../jobs/job_engine.ts";
import { HeldResults } from "./held_results.ts";
import { measureResult } from "./result_weight.ts";
import { RunPacer } from "./run_pacer.ts";
import {
  type DoneResult,
  droppedFrame,
  endFrame,
  type Framed,
  framed,
  type FrameListener,
  progressFrame,
  resultFrame,
  resultFrameText,
  type SimulationFrame,
} from "./simulation_frames.ts";
import {
  jobView,
  SIMULATION_STATUS,
  type SimulationJob,
  type SimulationJobView,
  type SimulationNote,
} from "./simulation_job.ts";
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

/** The error of a cancelled job. */
const CANCELLED = "Job cancelled";

/** Jobs of one model: submit, read, follow, cancel. */
export class SimulationJobs<Payload = unknown> {
  readonly #model: SimulationModel<Payload>;
  readonly #maxRunning: number;
  readonly #maxQueued: number;
  readonly #maxFrameBytes: number;
  readonly #sliceMs: number;
  readonly #minFrameIntervalMs: number;
  readonly #engine: JobQueue<Payload, DoneResult, Framed<SimulationFrame>>;
  readonly #notes = new Map<string, SimulationNote>();
  readonly #held: HeldResults;
  #computeMs = 0;
  #telemetryMs = 0;
  #frames = 0;

  constructor(options: SimulationJobsOptions<Payload>) {
    const d = SIMULATION_JOB_DEFAULTS;
    this.#model = options.model;
    this.#maxRunning = options.maxRunning ?? d.maxRunning;
    this.#maxQueued = options.maxQueued ?? d.maxQueued;
    this.#maxFrameBytes = options.maxFrameBytes ?? d.maxFrameBytes;
    this.#sliceMs = options.sliceMs ?? d.sliceMs;
    this.#minFrameIntervalMs = options.minFrameIntervalMs ?? d.minFrameIntervalMs;
    checkInteger("maxRunning", this.#maxRunning, 1);
    checkInteger("maxQueued", this.#maxQueued, 0);
    const maxHeldBytes = options.maxHeldBytes ?? d.maxHeldBytes;
    this.#held = new HeldResults(maxHeldBytes, options.maxDroppedKept ?? d.maxDroppedKept, {
      drop: (id) => {
        const job = this.#engine.get(id);
        const note = this.#notes.get(id);
        if (job?.state === "succeeded" && note) {
          note.resultDropped = true;
          this.#engine.dropResult(id, framed(droppedFrame(id, maxHeldBytes)));
        } else this.#engine.dropResult(id);
      },
      forget: (id) => this.#engine.forget(id),
    });
    this.#engine = new JobQueue({
      work: (payload, context) => this.#execute(payload, context),
      // Subscribers get the latest progress frame, then the final one.
      events: { isFinal: ({ frame }) => frame.type !== "progress", keep: "latest" },
      maxRunning: this.#maxRunning,
      maxQueued: this.#maxQueued,
      ttlMs: options.ttlMs ?? d.ttlMs,
      // Begin on a later turn, so whoever submitted can subscribe before the first slice.
      startOnLaterTurn: true,
      cancelMessage: CANCELLED,
      ...(options.now ? { now: options.now } : {}),
      ...(options.newId ? { newId: options.newId } : {}),
      finalEvent: (job) => this.#finalFrame(job),
      onFinished: (job) => {
        this.#frames++;
        const done = job.result;
        this.#held.hold(job.id, (done?.weight.bytes ?? 0) + (done?.text?.length ?? 0));
      },
      onForgotten: (job) => {
        this.#held.release(job.id);
        this.#notes.delete(job.id);
      },
    });
  }

  /** The model the jobs run. */
  get model(): SimulationModel<Payload> {
    return this.#model;
  }

  /** Jobs queued or running. */
  get active(): number {
    return this.#engine.active;
  }

  /** Jobs waiting for a run slot. */
  get queued(): number {
    return this.#engine.counts().queued;
  }

  /** Jobs held (any status, not yet expired or forgotten). */
  get size(): number {
    return this.#engine.size;
  }

  /** Bytes the finished jobs hold (results, frames and records), bounded by `maxHeldBytes`. */
  get heldBytes(): number {
    this.#engine.prune();
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
    let job: SimulationJob<Payload>;
    try {
      job = this.#engine.submit(payload);
    } catch (error) {
      if (!(error instanceof JobRefusedError)) throw error;
      if (error.reason === "closed") {
        throw new Error("The simulation service is stopping; no new jobs");
      }
      throw new QueueFullError(this.#maxQueued, this.#maxRunning);
    }
    const note: SimulationNote = { progressPct: 0 };
    this.#notes.set(job.id, note);
    return jobView(job, note);
  }

  /** The job's view, or undefined when unknown, expired or forgotten. */
  get(id: string): SimulationJobView | undefined {
    const job = this.#engine.get(id);
    const note = this.#notes.get(id);
    return job && note && jobView(job, note);
  }

  /**
   * Follows a job: `listener` gets the latest progress frame at once, the final frame at once
   * if the job has finished, then every later frame in order. Answers a function that stops
   * following, or undefined for an unknown job.
   */
  subscribe(id: string, listener: FrameListener): (() => void) | undefined {
    const job = this.#engine.get(id);
    if (!job) return undefined;
    let stop = () => {};
    let broken = false;
    stop = job.events.subscribe(({ frame, text }) => {
      if (broken) return;
      try {
        listener(frame, text);
      } catch {
        // A broken subscriber (a socket that closed) must not stop the run or the others.
        broken = true;
        stop();
      }
    });
    if (broken) stop();
    return stop;
  }

  /**
   * Cancels a queued or running job (a running one stops at the end of its current slice);
   * a finished job keeps its status. Answers the view, or undefined for an unknown job.
   */
  cancel(id: string): SimulationJobView | undefined {
    const outcome = this.#engine.cancel(id);
    if (outcome.outcome === "unknown") return undefined;
    return jobView(outcome.job, this.#notes.get(id)!);
  }

  /** Resolves when the job's run has ended (at once for a finished or unknown job). */
  settled(id: string): Promise<void> {
    return this.#engine.get(id)?.settled ?? Promise.resolve();
  }

  /** Refuses new jobs, cancels every unfinished one and waits until their runs have stopped. */
  close(): Promise<void> {
    return this.#engine.close();
  }

  /** The final frame of a job that just ended: its result, or its end. */
  #finalFrame(job: SimulationJob<Payload>): Framed<SimulationFrame> {
    const status = SIMULATION_STATUS[job.state];
    if (job.result === undefined || status !== "done") {
      return framed(
        endFrame(status === "queued" || status === "running" ? "error" : status, job.error),
      );
    }
    this.#notes.get(job.id)!.progressPct = 100;
    return resultFrame(job.result, this.#maxFrameBytes);
  }

  /**
   * Sends the progress frame of the run's latest step, its time (from `start`) counted as
   * telemetry; answers when it was done.
   */
  #progress(
    context: WorkContext<Framed<SimulationFrame>>,
    run: SimulationRun,
    start = performance.now(),
  ): number {
    const latest = framed(progressFrame(run));
    const note = this.#notes.get(context.id);
    if (note) note.progressPct = latest.frame.progress_pct;
    context.emit(latest);
    this.#frames++;
    const end = performance.now();
    this.#telemetryMs += end - start;
    return end;
  }

  /** One run, slice by slice; a cancel stops it at the end of the current slice. */
  async #execute(
    payload: Payload,
    context: WorkContext<Framed<SimulationFrame>>,
  ): Promise<DoneResult> {
    const stopped = () => new DOMException(CANCELLED, "AbortError");
    const run = this.#model.start(payload);
    const pacer = new RunPacer(run, {
      sliceMs: this.#sliceMs,
      minFrameIntervalMs: this.#minFrameIntervalMs,
    }, {
      computed: (ms) => {
        this.#computeMs += ms;
      },
      progress: (start) => this.#progress(context, run, start),
    });
    let stalled = false;
    while (!pacer.ended && !stalled) {
      stalled = !pacer.slice();
      await yieldToEventLoop();
      if (!context.live()) throw stopped(); // cancelled during the slice or the yield
    }
    if (!pacer.ended) throw new Error("The run stopped before its last step");
    // The last progress frame (100 %) always goes out, then the result.
    this.#progress(context, run);
    const resultStart = performance.now();
    const result = run.result();
    this.#computeMs += performance.now() - resultStart;
    // The result's own serialisation is not telemetry: it is needed with or without frames.
    const weight = measureResult(result);
    await yieldToEventLoop();
    if (!context.live()) throw stopped();
    const text = await resultFrameText(
      { type: "result", result },
      weight,
      this.#maxFrameBytes,
      this.#sliceMs,
    );
    return { result, weight, text };
  }
}
