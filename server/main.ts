/**
 * Entry point: the only place that reads the real environment and opens sockets.
 *
 * `deno task start` starts every service; `--only NAME` (or `SERVICES=a,b`) starts some, so
 * services can run as separate processes on separate machines. Every selected module's
 * settings are read before anything starts, so a bad setting stops the start with one line. On
 * SIGINT or SIGTERM the listeners stop taking connections, open streams end (each service's
 * shutdown signal), open requests get a grace period, each module closes what it owns (jobs,
 * state stores, checkpointed), and the process exits 0. A second signal exits at once.
 */
import { parseArgs } from "node:util";
import { ensureStore } from "../lib/store/build_store.ts";
import { readConfig } from "./config.ts";
import { serveGuarded } from "./connection_guard.ts";
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
  const running: { name: string; port: number; hostname: string; service: RunningService }[] = [];
  const servers: { shutdown(): Promise<void> }[] = [];
  const listeners: StartedListener[] = [];

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
    for (const { module, service } of configured) {
      const log = (message: string) => console.error(`${module.name}: ${message}`);
      const started = await service.start({
        shutdown: shutdown.signal,
        dataStore: () =>
          dataStore ??= ensureStore(config.storePath).then(({ built, ms }) => {
            if (built) console.error(`store: built ${config.storePath} in ${Math.round(ms)} ms`);
            return config.storePath;
          }),
        osmStore: () =>
          osmStore ??= openSharedOsmStore(osmSettings, (m) => console.error(`osm store: ${m}`)),
        log,
      });
      running.push({
        name: module.name,
        port: service.port,
        hostname: service.hostname ?? config.host,
        service: started,
      });
    }
    for (const { name, port, hostname, service } of [...running]) {
      let address: Deno.NetAddr;
      try {
        const handler = (request: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) =>
          service.fetch(request, info);
        const server = config.connectionLimits
          ? serveGuarded(
            { hostname, port, limits: config.connectionLimits },
            handler,
          )
          : Deno.serve({ hostname, port, onListen() {} }, handler);
        servers.push(server);
        address = server.addr;
      } catch (error) {
        throw new Error(
          `${name}: cannot listen on ${hostname}:${port}: ` +
            (error instanceof Error ? error.message : String(error)),
        );
      }
      console.error(`${name}: listening on http://${address.hostname}:${address.port}`);
      listeners.push({ name, hostname: address.hostname, port: address.port });
    }
  } catch (error) {
    await stop();
    throw error;
  }
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
