/**
 * The list of public listeners: each service behind its gateway, with the port it is served
 * on. New services (e.g. a technology catalogue on CATALOGUE_PORT) are added here.
 */
import type { Typology } from "../lib/heat/typology.ts";
import type { ServerConfig } from "./config.ts";
import { createGateway } from "./gateway/app.ts";
import { createHeatApp } from "./heat/app.ts";

/** One public listener. */
export interface Listener {
  name: string;
  port: number;
  fetch: (request: Request) => Response | Promise<Response>;
}

/** What the listeners are built from. */
export interface ListenerDeps {
  config: ServerConfig;
  /** The key actually in force (configured or generated). */
  heatApiKey: string;
  typology: Typology;
}

/** Builds every public listener; the service apps themselves are only reachable through them. */
export function buildListeners({ config, heatApiKey, typology }: ListenerDeps): Listener[] {
  const gateway = createGateway({
    heatApp: createHeatApp({ typology }),
    apiKey: heatApiKey,
    allowedOrigins: config.heatAllowedOrigins,
  });
  return [{ name: "heat", port: config.heatPort, fetch: (request) => gateway.fetch(request) }];
}
