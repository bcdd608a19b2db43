/** Test helpers: the simulation app over the tank model, served on a free port. */
import { createSimulationApp } from "../../../server/simulation/app.ts";
import { readSimulationSettings } from "../../../server/simulation/config.ts";
import type { SimulationModel } from "../../../lib/simulation/simulation_model.ts";

/** Default settings of the tests: the service's defaults (no port). */
const { port: _port, ...defaults } = readSimulationSettings({}, "TEST_PORT", 0);
export const SETTINGS = defaults;

/** Collects a socket's messages until it closes (or `timeoutMs`). */
export function collect(
  socket: WebSocket,
  timeoutMs = 10_000,
): Promise<{ messages: string[]; code: number }> {
  const messages: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no close after ${timeoutMs} ms`)), timeoutMs);
    socket.onmessage = (e) => messages.push(String(e.data));
    socket.onclose = (e) => {
      clearTimeout(timer);
      resolve({ messages, code: e.code });
    };
  });
}

/** Resolves when the socket is open. */
export function opened(socket: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.onopen = () => resolve();
    socket.onerror = (e) => reject(new Error(`socket error: ${(e as ErrorEvent).message}`));
  });
}

/** The app served by Deno.serve on port 0; `stop` closes jobs, sockets and the server. */
export function serve<P>(model: SimulationModel<P>, settings = SETTINGS) {
  const service = createSimulationApp({ model, settings });
  const server = Deno.serve({ port: 0, onListen() {} }, (r, info) => service.app.fetch(r, info));
  return {
    ...service,
    get openSockets() {
      return service.openSockets;
    },
    http: `http://localhost:${server.addr.port}`,
    ws: `ws://localhost:${server.addr.port}`,
    async stop() {
      await service.close();
      await server.shutdown();
    },
  };
}
