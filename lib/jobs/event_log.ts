/**
 * The events of one job, kept in order: a client that connects late first gets the events it
 * missed (from a cursor, or all), then the live ones; any number of clients each get all of
 * them. The log ends with its first final event. Server-sent event streams and WebSockets both
 * read it.
 *
 * A log keeps either every event up to a limit (a late client learns when lines are missing) or
 * only the latest one (a progress meter, where only the newest value matters), and always the
 * final event.
 */

/** Called with each event; history first, then live. */
export type EventListener<E> = (event: E) => void;

/** How a log keeps its events. */
export interface EventLogOptions<E> {
  /** Whether an event ends the log. */
  isFinal(event: E): boolean;
  /** `all` (default): every event up to `historyLimit`; `latest`: the newest non-final one. */
  keep?: "all" | "latest";
  /** Events kept by `keep: "all"` (default 50,000); later non-final ones go to live listeners. */
  historyLimit?: number;
  /** The event kept in place of those beyond `historyLimit`, told the limit. */
  truncated?(historyLimit: number): E;
}

/** Events kept by default. */
export const DEFAULT_HISTORY_LIMIT = 50_000;

/** The ordered event log of one job. */
export class EventLog<E> {
  readonly #options: EventLogOptions<E>;
  /** Kept events, each with its sequence number (its place among all appended). */
  #kept: { seq: number; event: E }[] = [];
  readonly #listeners = new Set<EventListener<E>>();
  #appended = 0;
  #ended = false;
  #truncated = false;

  constructor(options: EventLogOptions<E>) {
    this.#options = options;
  }

  /** Whether the final event has been appended. */
  get ended(): boolean {
    return this.#ended;
  }

  /** The events kept so far, in order. */
  get events(): readonly E[] {
    return this.#kept.map((entry) => entry.event);
  }

  /** Events appended so far: the cursor a client that has seen everything resumes from. */
  get cursor(): number {
    return this.#appended;
  }

  /** Live listeners now attached. */
  get listenerCount(): number {
    return this.#listeners.size;
  }

  /** Keeps the event and hands it to every listener; ignored once the log has ended. */
  append(event: E): void {
    if (this.#ended) return;
    const final = this.#options.isFinal(event);
    if (final) this.#ended = true;
    this.#keep(this.#appended++, event, final);
    for (const listener of [...this.#listeners]) listener(event);
    if (this.#ended) this.#listeners.clear();
  }

  /**
   * Replays the kept events from sequence number `from` (default: all) to `listener` at once,
   * then passes on live events until the log ends or the returned function is called.
   */
  subscribe(listener: EventListener<E>, from = 0): () => void {
    for (const { seq, event } of [...this.#kept]) if (seq >= from) listener(event);
    if (this.#ended) return () => {};
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Drops the kept non-final events and, given `final`, puts it in place of the final event:
   * for a finished job whose bulky events are no longer held.
   */
  compact(final?: E): void {
    const last = this.#kept.at(-1);
    const ending = this.#ended && last !== undefined ? last : undefined;
    this.#kept = ending ? [final === undefined ? ending : { seq: ending.seq, event: final }] : [];
  }

  #keep(seq: number, event: E, final: boolean): void {
    const { keep = "all", historyLimit = DEFAULT_HISTORY_LIMIT, truncated } = this.#options;
    if (keep === "latest") {
      if (!final) this.#kept = [];
      this.#kept.push({ seq, event });
    } else if (this.#kept.length < historyLimit || final) {
      this.#kept.push({ seq, event });
    } else if (!this.#truncated && truncated) {
      this.#truncated = true;
      this.#kept.push({ seq, event: truncated(historyLimit) });
    }
  }
}
