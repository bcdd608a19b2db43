/**
 * The list of public listeners, with the port each is served on: the heat service behind its
 * API-key gateway (HEAT_PORT), and the technology catalogue (CATALOGUE_PORT), which checks its
 * own Bearer tokens.
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
  /** The catalogue app, built by `createCatalogueApp` (it needs the state store and files). */
  catalogue: { fetch: (request: Request) => Response | Promise<Response> };
}

/** Builds every public listener; the service apps themselves are only reachable through them. */
export function buildListeners(
  { config, heatApiKey, typology, catalogue }: ListenerDeps,
): Listener[] {
  const gateway = createGateway({
    heatApp: createHeatApp({ typology }),
    apiKey: heatApiKey,
    allowedOrigins: config.heatAllowedOrigins,
  });
  return [
    { name: "heat", port: config.heatPort, fetch: (request) => gateway.fetch(request) },
    {
      name: "catalogue",
      port: config.catalogue.port,
      fetch: (request) => catalogue.fetch(request),
    },
  ];
}
