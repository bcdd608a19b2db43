/**
 * The job manager of the simulation services: runs of a `SimulationModel` kept in memory for a
 * time to live, at most `maxRunning` advancing at once and at most `maxQueued` waiting (FIFO),
 * each advanced in slices of a few milliseconds with a yield to the event loop in between, so
 * that a cancel stops a run within one slice and telemetry frames (and HTTP answers) go out
 * while it runs. Finished jobs hold at most `maxHeldBytes` of results: beyond, the oldest
 * results are dropped (the job then says so). A result is never serialised as one string
 * unless it fits in one socket frame (`maxFrameBytes`). Pure of HTTP: the service turns frames
 * into WebSocket messages and views into JSON.
 */
import { jsonPieces } from "./json_pieces.ts";
import { type MeasuredWeight, measureResult } from "./result_weight.ts";
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
  /** The result, when its frame is at most `maxFrameBytes`. */
  | { type: "result"; result: Record<string, unknown> }
  /** Done, but the result is too large for one frame: the client reads it by polling. */
  | { type: "result_ready"; progress_pct: 100; result_values: number; detail: string }
  | {
    type: "error";
    error: string;
    /** `done` with `result_dropped` for a result dropped to bound memory. */
    status: "error" | "cancelled" | "done";
    result_dropped?: true;
  };

/** Any frame a subscriber receives. */
export type SimulationFrame = ProgressFrame | FinalFrame;

/**
 * Receives each frame with its JSON text (serialised once for every subscriber, so 64 sockets
 * on one job cost one serialisation).
 */
export type FrameListener = (frame: SimulationFrame, text: string) => void;

/** What the service shows of a job. */
export interface SimulationJobView {
  job_id: string;
  status: SimulationJobStatus;
  progress_pct: number;
  error: string | null;
  /** Present once `status` is `done`, unless the result was dropped. */
  result?: Record<string, unknown>;
  /** Set when the job is done but its result was dropped to bound the memory results hold. */
  result_dropped?: true;
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

/** Bytes counted for any finished job besides its result (its record, frames, id). */
export const JOB_OVERHEAD_BYTES = 2048;

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

interface Job<Payload> {
  id: string;
  /** The checked payload until its run starts (released then: a profile can weigh MBs). */
  payload?: Payload;
  status: SimulationJobStatus;
  run?: SimulationRun;
  progressPct: number;
  error: string | null;
  result?: Record<string, unknown>;
  resultDropped?: true;
  latest?: { frame: ProgressFrame; text: string };
  final?: { frame: FinalFrame; text: string };
  listeners: Set<FrameListener>;
  finishedAt?: number;
  /** Bytes this finished job holds, counted against `maxHeldBytes`. */
  heldBytes: number;
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
  readonly #maxQueued: number;
  readonly #ttlMs: number;
  readonly #maxHeldBytes: number;
  readonly #maxFrameBytes: number;
  readonly #maxDroppedKept: number;
  readonly #sliceMs: number;
  readonly #minFrameIntervalMs: number;
  readonly #now: () => number;
  readonly #newId: () => string;
  readonly #jobs = new Map<string, Job<Payload>>();
  readonly #queue: Job<Payload>[] = [];
  /** Jobs queued or running. */
  readonly #live = new Set<Job<Payload>>();
  /** Finished jobs that hold their result and frames, in the order they finished. */
  readonly #finished = new Map<string, Job<Payload>>();
  /** Finished jobs whose result was dropped (or that were pushed out), in that order. */
  readonly #dropped = new Map<string, Job<Payload>>();
  #heldBytes = 0;
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
    this.#maxHeldBytes = options.maxHeldBytes ?? d.maxHeldBytes;
    this.#maxFrameBytes = options.maxFrameBytes ?? d.maxFrameBytes;
    this.#maxDroppedKept = options.maxDroppedKept ?? d.maxDroppedKept;
    this.#sliceMs = options.sliceMs ?? d.sliceMs;
    this.#minFrameIntervalMs = options.minFrameIntervalMs ?? d.minFrameIntervalMs;
    this.#now = options.now ?? Date.now;
    this.#newId = options.newId ?? (() => crypto.randomUUID());
    if (!Number.isInteger(this.#maxRunning) || this.#maxRunning < 1) {
      throw new RangeError(`maxRunning must be an integer >= 1, got ${this.#maxRunning}`);
    }
    if (!Number.isInteger(this.#maxQueued) || this.#maxQueued < 0) {
      throw new RangeError(`maxQueued must be an integer >= 0, got ${this.#maxQueued}`);
    }
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
    return this.#heldBytes;
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
      maxHeldBytes: this.#maxHeldBytes,
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
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => settle = resolve);
    const job: Job<Payload> = {
      id: this.#newId(),
      payload,
      status: "queued",
      progressPct: 0,
      error: null,
      listeners: new Set(),
      heldBytes: 0,
      settled,
      settle,
    };
    this.#jobs.set(job.id, job);
    this.#live.add(job);
    this.#queue.push(job);
    const view = this.#view(job);
    this.#pump();
    return view;
  }

  /** The job's view, or undefined when unknown, expired or forgotten. */
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
    for (const job of [...this.#live]) {
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
      ...(job.resultDropped ? { result_dropped: true as const } : {}),
    };
  }

  /** Forgets finished jobs older than the time to live (both lists are in finishing order). */
  #sweep(): void {
    const now = this.#now();
    for (const list of [this.#finished, this.#dropped]) {
      for (const [id, job] of list) {
        if (now - job.finishedAt! < this.#ttlMs) break;
        list.delete(id);
        this.#jobs.delete(id);
        this.#heldBytes -= job.heldBytes;
        job.heldBytes = 0;
      }
    }
  }

  /** Drops the oldest results while the finished jobs hold more than `maxHeldBytes`. */
  #bound(): void {
    for (const [id, job] of this.#finished) {
      if (this.#heldBytes <= this.#maxHeldBytes) break;
      this.#finished.delete(id);
      this.#heldBytes -= job.heldBytes;
      job.heldBytes = 0;
      delete job.latest;
      if (job.status === "done") {
        delete job.result;
        job.resultDropped = true;
        const frame: FinalFrame = {
          type: "error",
          error: `The result of job ${id} was dropped to bound the memory finished results hold ` +
            `(${this.#maxHeldBytes} bytes); submit the payload again`,
          status: "done",
          result_dropped: true,
        };
        job.final = { frame, text: JSON.stringify(frame) };
      }
      this.#dropped.set(id, job);
    }
    for (const [id] of this.#dropped) {
      if (this.#dropped.size <= this.#maxDroppedKept) break;
      this.#dropped.delete(id);
      this.#jobs.delete(id);
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
  #emit(job: Job<Payload>, frame: SimulationFrame, text = JSON.stringify(frame)): string {
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

  /**
   * Ends a job: its final frame to every listener, then its memory counted (results beyond
   * `maxHeldBytes` dropped, oldest first). A done job brings its result, the result's weight
   * and the frame's text when it fits in `maxFrameBytes`.
   */
  #finish(
    job: Job<Payload>,
    status: "done" | "error" | "cancelled",
    error: string | null,
    done?: { result: Record<string, unknown>; weight: MeasuredWeight; text: string | undefined },
  ): void {
    job.status = status;
    job.error = error;
    job.finishedAt = this.#now();
    this.#live.delete(job);
    delete job.payload;
    let final: { frame: FinalFrame; text: string };
    if (done) {
      job.result = done.result;
      job.progressPct = 100;
      if (done.text !== undefined) {
        final = { frame: { type: "result", result: done.result }, text: done.text };
      } else {
        const frame: FinalFrame = {
          type: "result_ready",
          progress_pct: 100,
          result_values: done.weight.values,
          detail: `The result (${done.weight.values} values) is larger than one frame may ` +
            `carry (${this.#maxFrameBytes} bytes); read it by polling the job`,
        };
        final = { frame, text: JSON.stringify(frame) };
      }
    } else {
      const frame: FinalFrame = {
        type: "error",
        error: error ?? status,
        status: status === "done" ? "error" : status,
      };
      final = { frame, text: JSON.stringify(frame) };
    }
    this.#emit(job, final.frame, final.text);
    job.final = final;
    job.listeners.clear();
    job.heldBytes = JOB_OVERHEAD_BYTES + (done?.weight.bytes ?? 0) +
      (done?.text?.length ?? 0);
    this.#heldBytes += job.heldBytes;
    this.#finished.set(job.id, job);
    this.#bound();
  }

  /**
   * The JSON text of a result frame when it is at most `maxFrameBytes` long, else undefined;
   * written in pieces with a yield every slice, and abandoned once past the bound.
   */
  async #frameText(frame: FinalFrame, weight: MeasuredWeight): Promise<string | undefined> {
    // Each number takes at least two characters ("0,"): no need to try beyond that.
    if (weight.values * 2 > this.#maxFrameBytes) return undefined;
    const parts: string[] = [];
    let length = 0;
    let sliceStart = performance.now();
    for (const piece of jsonPieces(frame)) {
      length += piece.length;
      if (length > this.#maxFrameBytes) return undefined;
      parts.push(piece);
      if (performance.now() - sliceStart >= this.#sliceMs) {
        await yieldToEventLoop();
        sliceStart = performance.now();
      }
    }
    return parts.join("");
  }

  async #execute(job: Job<Payload>): Promise<void> {
    // Begin on a later turn, so whoever submitted can subscribe before the first slice.
    await yieldToEventLoop();
    if (job.status !== "queued") return;
    job.status = "running";
    try {
      const run = this.#model.start(job.payload!);
      delete job.payload; // the run keeps what it needs
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
      delete job.run; // its series are copied into the result
      // The result's own serialisation is not telemetry: it is needed with or without frames.
      const weight = measureResult(result);
      await yieldToEventLoop();
      if (job.status !== "running") return;
      const text = await this.#frameText({ type: "result", result }, weight);
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
