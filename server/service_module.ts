/**
 * The one shape of a service: `server/main.ts` starts and stops every service the same way,
 * whether all of them share a process or each runs alone (`--only NAME`).
 *
 * A module reads its own settings from the environment (in its own folder's `config.ts`), so a
 * bad setting of any selected service stops the start before anything listens. `start` opens
 * what the service owns (its state file, workers, schedules) and returns its request handler
 * and a `close` that releases all of it; `main.ts` owns the sockets.
 */
import type { Env } from "./env.ts";
import type { SharedOsmStore } from "./shared_osm_store.ts";

/** What a started service hands back. */
export interface RunningService {
  /**
   * Answers one request; usually a Hono app's `fetch`. `info.remoteAddr` is the client's own
   * address (Hono's `getConnInfo` reads it).
   */
  fetch(request: Request, info?: Deno.ServeHandlerInfo<Deno.NetAddr>): Response | Promise<Response>;
  /**
   * Releases everything the service opened: waits for (or cancels) its jobs, then checkpoints
   * and closes its stores. Called once, after the listener stopped taking requests.
   */
  close(): Promise<void>;
}

/** What every service is started with. */
export interface ServiceContext {
  /**
   * Aborted when the process begins to stop: long-lived answers (event streams, WebSockets)
   * end themselves on it, so the listener's graceful shutdown can complete.
   */
  readonly shutdown: AbortSignal;
  /**
   * Path of the shared data store (typology, catalogue, profiles), built from the source data
   * on first use when missing or stale; serving opens it read-only.
   */
  dataStore(): Promise<string>;
  /**
   * The process's OSM store (OSM_STORE_PATH), opened read-write on first use and shared by the
   * services that read or import map data; the process closes it after every service closed.
   */
  osmStore(): Promise<SharedOsmStore>;
  /** One line to the server log, prefixed with the service's name. */
  log(message: string): void;
  /**
   * The address this service's listener is bound to (port 0 resolved to the one picked): every
   * listener of the process is bound before any service starts. Absent when a test serves the
   * module on a listener of its own.
   */
  readonly address?: Deno.NetAddr;
  /**
   * The base URL (`http://host:port`, a wildcard host as loopback) of another service started
   * in this process, by name, e.g. `peerUrl("runner")`; undefined when it is not started here.
   */
  peerUrl?(name: string): string | undefined;
  /**
   * Resolves once every service of the process has started and listens, e.g. to check that a
   * neighbour answers; rejects when the process stops before that. Never await it inside
   * `start` (it waits for that start to end).
   */
  readonly ready?: Promise<void>;
}

/** A service whose settings have been read: its port, and how to start it. */
export interface ConfiguredService {
  /** TCP port of its listener; 0 picks a free one. */
  readonly port: number;
  /** Interface its listener binds, where the service has its own; else the shared HOST. */
  readonly hostname?: string;
  start(context: ServiceContext): Promise<RunningService>;
}

/** A service that `server/main.ts` can start. */
export interface ServiceModule {
  /** Name used in `SERVICES`, `--only` and the log, e.g. `catalogue`. */
  readonly name: string;
  /** Reads the module's settings; throws TypeError or RangeError naming the variable at fault. */
  configure(env: Env): ConfiguredService;
}
