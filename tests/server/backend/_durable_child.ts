/**
 * A backend in a child process for the durability test: serves on a free port over the state
 * file named by its first argument and prints the port; the test kills it with SIGKILL.
 */
import { openStore } from "../../../lib/store/store.ts";
import { createBackendApp } from "../../../server/backend/app.ts";

const store = await openStore(Deno.args[0]!);
const backend = await createBackendApp({
  store,
  config: {
    runnerUrl: "http://127.0.0.1:9",
    catalogueUrl: "http://127.0.0.1:9",
    maxBodyBytes: 4 * 1024 * 1024,
  },
  log: () => {},
});
Deno.serve({
  port: 0,
  hostname: "127.0.0.1",
  onListen({ port }) {
    console.log(port);
  },
}, backend.app.fetch);
