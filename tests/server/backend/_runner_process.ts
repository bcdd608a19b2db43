/**
 * The real runner service in a child process, for the test of a runner that dies mid-run: it
 * prints its port on the first line of stdout and serves until it is killed.
 */
import { createHighsModelRunner } from "../../../lib/runner/highs_model_runner.ts";
import { createRunnerApp } from "../../../server/runner/app.ts";
import { testConfig } from "../runner/_app.ts";

const built = createRunnerApp({
  runner: await createHighsModelRunner(),
  config: testConfig({ maxBodyBytes: 64 * 1024 * 1024, keepaliveMs: 15_000 }),
});
Deno.serve({
  port: 0,
  hostname: "127.0.0.1",
  onListen({ port }) {
    console.log(port);
  },
}, built.app.fetch);
