/**
 * Helpers of the runner service tests: settings with short intervals, an app over the test
 * double, and a reader of event-stream frames that reads the body incrementally.
 */
import {
  createRunnerApp,
  type RunnerApp,
  type RunnerAppOptions,
} from "../../../server/runner/app.ts";
import type { RunnerSettings } from "../../../server/runner/config.ts";
import type { ModelRunner } from "../../../lib/runner/model_runner.ts";
import { createTestRunner, type TestRunner } from "./_runner.ts";

/** Settings for tests: one worker, a 1 h time to live, short intervals, a 4 KiB body cap. */
export function testConfig(overrides: Partial<RunnerSettings> = {}): RunnerSettings {
  return {
    port: 0,
    workers: 1,
    maxQueued: 100,
    maxQueuedBytes: 1024 * 1024 * 1024,
    jobTtlMs: 3_600_000,
    maxBodyBytes: 4096,
    keepaliveMs: 60_000,
    statsMs: 60_000,
    attempts: 2,
    ...overrides,
  };
}

/** A runner app over a fresh test double; dispose() closes it. */
export function testApp(
  config: Partial<RunnerSettings> = {},
  options: Partial<Omit<RunnerAppOptions, "config">> = {},
): RunnerApp & { runner: TestRunner; dispose(): Promise<void> } {
  const runner = (options.runner as TestRunner | undefined) ?? createTestRunner();
  const built = createRunnerApp({ ...options, runner, config: testConfig(config) });
  return { ...built, runner, dispose: () => built.close() };
}

/** A runner app over `runner` on a socket (64 MiB bodies, 15 s keepalive); dispose() stops both. */
export function serveRunner(runner: ModelRunner): { base: string; dispose(): Promise<void> } {
  const built = createRunnerApp({
    runner,
    config: testConfig({ maxBodyBytes: 64 * 1024 * 1024, keepaliveMs: 15_000 }),
  });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, built.app.fetch);
  return {
    base: `http://127.0.0.1:${server.addr.port}`,
    async dispose() {
      await built.close();
      await server.shutdown();
    },
  };
}

/** One frame of an event stream: a comment (`: connected`) or the JSON of a `data:` line. */
export type Frame = { comment: string } | { data: Record<string, unknown> };

/**
 * Reads an event stream frame by frame, checking the framing on the way: every frame is one
 * line (`: comment` or `data: <json>`) followed by a blank line.
 */
export class FrameReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  #buffer = "";
  /** Every raw frame read so far, without its blank line. */
  readonly raw: string[] = [];

  constructor(body: ReadableStream<Uint8Array>) {
    this.#reader = body.getReader();
  }

  /** The next frame, or undefined at the end of the stream. */
  async next(): Promise<Frame | undefined> {
    for (;;) {
      const end = this.#buffer.indexOf("\n\n");
      if (end >= 0) {
        const text = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 2);
        this.raw.push(text);
        if (text.includes("\n")) throw new Error(`a frame of more than one line: ${text}`);
        if (text.startsWith(": ")) return { comment: text.slice(2) };
        if (!text.startsWith("data: ")) throw new Error(`not a data frame: ${text}`);
        return { data: JSON.parse(text.slice(6)) };
      }
      const { done, value } = await this.#reader.read();
      if (done) {
        if (this.#buffer !== "") throw new Error(`a partial frame at the end: ${this.#buffer}`);
        return undefined;
      }
      this.#buffer += this.#decoder.decode(value, { stream: true });
    }
  }

  /** The next data frame, skipping comments; undefined at the end. */
  async nextData(): Promise<Record<string, unknown> | undefined> {
    for (;;) {
      const frame = await this.next();
      if (frame === undefined) return undefined;
      if ("data" in frame) return frame.data;
    }
  }

  /** Every remaining frame up to the end. */
  async rest(): Promise<Frame[]> {
    const frames: Frame[] = [];
    for (let f = await this.next(); f !== undefined; f = await this.next()) frames.push(f);
    return frames;
  }

  /** Stops reading (the client goes away). */
  cancel(): Promise<void> {
    return this.#reader.cancel();
  }
}

/** The data payloads of frames. */
export function dataOf(frames: readonly Frame[]): Record<string, unknown>[] {
  return frames.flatMap((f) => ("data" in f ? [f.data] : []));
}
