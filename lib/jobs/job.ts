/**
 * One job: what it was asked (until its work starts), where it is, when it moved, its result or
 * error, the service's name for its current step, and its event log. The engine
 * (`job_queue.ts`) moves it; everyone else reads it.
 */
import type { EventLog } from "./event_log.ts";
import type { JobState } from "./job_states.ts";

/** A job as its readers see it. */
export interface Job<Input, Result, Event> {
  /** UUID v4 unless the service names its ids. */
  readonly id: string;
  readonly state: JobState;
  /** The service's own step within `running` (e.g. `downloading`, `importing`), if it names one. */
  readonly stage: string | undefined;
  /** Epoch ms. */
  readonly createdAt: number;
  readonly startedAt: number | null;
  readonly finishedAt: number | null;
  /** What the job was submitted with; released when its work starts or it ends. */
  readonly input: Input | undefined;
  /** Its share of the queue's weight while it waits (e.g. the bytes of its body). */
  readonly weight: number;
  /** Set once `succeeded`, before its final event goes out. */
  readonly result: Result | undefined;
  /** Why it failed, or the cancel's message. */
  readonly error: string | null;
  /** What the work threw, for the details a service shows besides the message. */
  readonly failure: unknown;
  readonly events: EventLog<Event>;
  /** Aborted when the job is cancelled or its service stops: the work listens to it. */
  readonly signal: AbortSignal;
  /** Settles (never rejects) once its work has returned, or at once if it never ran. */
  readonly settled: Promise<void>;
  /** Whether whoever ends it (its work, a cancel, a stop) has begun to: the others back off. */
  readonly ending: boolean;
}

/** The engine's own handle on a job: the same record, writable. */
export interface JobRecord<Input, Result, Event> extends Job<Input, Result, Event> {
  state: JobState;
  stage: string | undefined;
  startedAt: number | null;
  finishedAt: number | null;
  input: Input | undefined;
  result: Result | undefined;
  error: string | null;
  failure: unknown;
  settled: Promise<void>;
  readonly controller: AbortController;
  ending: boolean;
}
