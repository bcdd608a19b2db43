/**
 * Entry point: the only place that reads the real environment and opens sockets.
 *
 * `deno task start` starts every service; `--only NAME` (or `SERVICES=a,b`) starts some, so
 * services can run as separate processes on separate machines. Every selected module's
 * settings are read before anything starts, so a bad setting stops the start with one line;
 * then every listener is bound (a port in use stops the start before any module opened
 * anything), so each service starts knowing the bound addresses of the others (`peerUrl`: the
 * backend finds the runner and the catalogue of its own process on whatever port they got). On
 * SIGINT or SIGTERM the listeners stop taking connections, open streams end (each service's
 * shutdown signal), open requests get a grace period, each module closes what it owns (jobs,
 * state stores, checkpointed), and the process exits 0. A second signal exits at once.
 */
import { parseArgs } from "node:util";
import { defaultSteps } from "../lib/data_sets.ts";
import { ensureStore } from "../lib/store/build_store.ts";
import { readConfig } from "./config.ts";
import { type ConnectionLimits, serveGuarded } from "./connection_guard.ts";
import { localUrl } from "./local_url.ts";
import type { Env } from "./env.ts";
import type { RunningService, ServiceModule } from "./service_module.ts";
import { readOsmStoreSettings } from "./osm_store_settings.ts";
import { openSharedOsmStore, type SharedOsmStore } from "./shared_osm_store.ts";
import { selectModules, SERVICE_MODULES } from "./services.ts";

/** One service listening. */
export interface StartedListener {
  name: string;
  hostname: string;
  /** The port actually bound (the configured one, or the free one picked for 0). */
  port: number;
}

/** The running services of this process. */
export interface StartedServices {
  listeners: StartedListener[];
  /**
   * Stops taking connections, ends open streams, waits for open requests (at most the grace
   * period) and closes every module; resolves when all is closed. Safe to call twice.
   */
  stop(): Promise<void>;
}

/** How services are chosen and which exist. */
export interface StartOptions {
  /** Command-line arguments: `--only NAME` (repeatable, or comma-separated). */
  args?: readonly string[];
  /** The modules that can be started; default SERVICE_MODULES. */
  modules?: readonly ServiceModule[];
}

/** The names given with `--only`, or undefined; throws TypeError for anything else. */
function onlyArgument(args: readonly string[]): string[] | undefined {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { only: { type: "string", multiple: true } },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw new TypeError(
      `${error instanceof Error ? error.message : String(error)}; usage: main.ts [--only NAME]`,
    );
  }
  const names = (parsed.values.only ?? []).flatMap((v) => v.split(",")).map((v) => v.trim())
    .filter((v) => v !== "");
  return names.length ? names : undefined;
}

/** One service's listener, bound before the service starts, and the service once started. */
interface Slot {
  name: string;
  server: { readonly addr: Deno.NetAddr; shutdown(): Promise<void> };
  started: PromiseWithResolvers<RunningService>;
}

/**
 * Binds `name`'s listener (guarded unless `limits` is undefined); its requests wait for the
 * service to start, and get 503 JSON when it never does. Throws naming the service and address.
 */
function listen(
  name: string,
  hostname: string,
  port: number,
  limits: ConnectionLimits | undefined,
): Slot {
  const started = Promise.withResolvers<RunningService>();
  let service: RunningService | undefined;
  void started.promise.then((s) => service = s, () => {});
  const handler = (request: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) =>
    service ? service.fetch(request, info) : started.promise.then(
      (s) => s.fetch(request, info),
      () => Response.json({ error: `${name} is not running` }, { status: 503 }),
    );
  try {
    const server = limits
      ? serveGuarded({ hostname, port, limits }, handler)
      : Deno.serve({ hostname, port, onListen() {} }, handler);
    return { name, server, started };
  } catch (error) {
    throw new Error(
      `${name}: cannot listen on ${hostname}:${port}: ` +
        (error instanceof Error ? error.message : String(error)),
    );
  }
}

const wait = (ms: number) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const done = new Promise<"timeout">((resolve) => timer = setTimeout(resolve, ms, "timeout"));
  return { done, cancel: () => clearTimeout(timer) };
};

/** Starts the selected services and resolves once every one of them listens. */
export async function startServices(
  env: Env,
  options: StartOptions = {},
): Promise<StartedServices> {
  const config = readConfig(env);
  const only = onlyArgument(options.args ?? []);
  const selected = selectModules(
    options.modules ?? SERVICE_MODULES,
    only ?? config.services,
    only ? "--only" : "SERVICES",
  );
  const configured = selected.map((module) => ({ module, service: module.configure(env) }));

  let dataStore: Promise<string> | undefined;
  let osmStore: Promise<SharedOsmStore> | undefined;
  const osmSettings = readOsmStoreSettings(env);
  const shutdown = new AbortController();
  const ready = Promise.withResolvers<void>();
  ready.promise.catch(() => {});
  const running: { name: string; service: RunningService }[] = [];
  const servers: { shutdown(): Promise<void> }[] = [];
  const slots: Slot[] = [];

  const closeModules = async () => {
    for (const { name, service } of running.splice(0).reverse()) {
      try {
        await service.close();
      } catch (error) {
        console.error(`${name}: close failed:`, error);
      }
    }
    // The shared OSM store outlives the services that use it.
    const osm = await osmStore?.catch(() => undefined);
    osmStore = undefined;
    await osm?.close().catch((error) => console.error("osm store: close failed:", error));
  };

  let stopping: Promise<void> | undefined;
  const stop = () =>
    stopping ??= (async () => {
      shutdown.abort();
      // Requests that came while their service was starting, and it never started: 503.
      for (const slot of slots) slot.started.reject(new Error("stopped"));
      ready.reject(new Error("stopped before every service started"));
      const grace = wait(config.shutdownGraceMs);
      const drained = await Promise.race([
        Promise.all(servers.map((server) => server.shutdown())),
        grace.done,
      ]);
      grace.cancel();
      if (drained === "timeout") {
        console.error(`stop: requests still open after ${config.shutdownGraceMs} ms; closing`);
      }
      await closeModules();
    })();

  try {
    // Every listener first: a port in use stops the start before any module opened anything,
    // and each service learns the bound addresses of the others (port 0 included) at its start.
    // A request that comes while its service is starting waits for it.
    for (const { module, service } of configured) {
      const hostname = service.hostname ?? config.host;
      const slot = listen(module.name, hostname, service.port, config.connectionLimits);
      slots.push(slot);
      servers.push(slot.server);
    }
    const peerUrl = (name: string) => {
      const peer = slots.find((slot) => slot.name === name);
      return peer ? localUrl(peer.server.addr) : undefined;
    };
    for (const [index, { module, service }] of configured.entries()) {
      const slot = slots[index] as Slot;
      const log = (message: string) => console.error(`${module.name}: ${message}`);
      const started = await service.start({
        shutdown: shutdown.signal,
        dataStore: () =>
          dataStore ??= ensureStore(config.storePath, { steps: defaultSteps() }).then(
            ({ built, ms }) => {
              if (built) console.error(`store: built ${config.storePath} in ${Math.round(ms)} ms`);
              return config.storePath;
            },
          ),
        osmStore: () =>
          osmStore ??= openSharedOsmStore(osmSettings, (m) => console.error(`osm store: ${m}`)),
        log,
        address: slot.server.addr,
        peerUrl,
        ready: ready.promise,
      });
      running.push({ name: module.name, service: started });
      slot.started.resolve(started);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const listeners = slots.map(({ name, server }) => {
    const { hostname, port } = server.addr;
    console.error(`${name}: listening on http://${hostname}:${port}`);
    return { name, hostname, port };
  });
  ready.resolve();
  return { listeners, stop };
}

/** Starts the services and stops them on SIGINT or SIGTERM, then exits 0. */
export async function main(
  env: Env,
  args: readonly string[],
  modules: readonly ServiceModule[] = SERVICE_MODULES,
): Promise<void> {
  const started = await startServices(env, { args, modules });
  let signalled = false;
  const onSignal = async (signal: Deno.Signal) => {
    if (signalled) {
      console.error(`${signal} again: exiting without waiting`);
      Deno.exit(1);
    }
    signalled = true;
    console.error(`${signal}: stopping`);
    await started.stop();
    console.error("stopped");
    Deno.exit(0);
  };
  if (Deno.build.os !== "windows") {
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      Deno.addSignalListener(signal, () => void onSignal(signal));
    }
  }
}

if (import.meta.main) {
  try {
    await main(Deno.env.toObject(), Deno.args);
  } catch (error) {
    // Configuration and data problems: one readable message, no stack, non-zero exit.
    console.error(`server not started: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exit(1);
  }
}
