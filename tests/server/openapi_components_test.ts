/**
 * Each OpenAPI component name stands for one schema, in every service's document: the checks of
 * `_openapi_components.ts` over the heat, catalogue, runner, extraction and simulation apps (the
 * backend's, which its module puts together, in `backend/openapi_components_test.ts`).
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { ExtractionRuns } from "../../lib/extraction/extraction_runs.ts";
import { RunStore } from "../../lib/extraction/run_store.ts";
import { ccsModel } from "../../lib/simulation/ccs/ccs_model.ts";
import { hydrogenModel } from "../../lib/simulation/hydrogen/hydrogen_model.ts";
import { openStore } from "../../lib/store/store.ts";
import { createExtractionApp } from "../../server/extraction/app.ts";
import { createSimulationApp } from "../../server/simulation/app.ts";
import { checkApp } from "./_openapi_components.ts";
import { heatApp } from "./heat/_heat.ts";
import { testApp } from "./catalogue/_catalogue.ts";
import { testApp as testRunnerApp } from "./runner/_app.ts";
import { SETTINGS as SIMULATION_SETTINGS } from "./simulation/_serve.ts";

Deno.test("the heat app gives each OpenAPI component name one schema", async (t) => {
  await checkApp(t, heatApp(), "server/heat/app.ts");
});

Deno.test("the catalogue app gives each OpenAPI component name one schema", async (t) => {
  const built = await testApp();
  try {
    await checkApp(t, built.app as unknown as OpenAPIHono, "server/catalogue/app.ts");
  } finally {
    await built.dispose();
  }
});

Deno.test("the runner app gives each OpenAPI component name one schema", async (t) => {
  const built = testRunnerApp();
  try {
    await checkApp(t, built.app, "server/runner/app.ts");
  } finally {
    await built.dispose();
  }
});

Deno.test("the extraction app gives each OpenAPI component name one schema", async (t) => {
  const [state, osmStore, dataStore] = await Promise.all([
    openStore(":memory:"),
    openStore(":memory:"),
    openStore(":memory:"),
  ]);
  try {
    const runs = new RunStore(state);
    await runs.init();
    const manager = new ExtractionRuns({ runs, osmStore, dataStore });
    await checkApp(t, createExtractionApp({ runs, manager, osmStore }), "server/extraction/app.ts");
    await manager.close();
  } finally {
    await Promise.all([state.close(), osmStore.close(), dataStore.close()]);
  }
});

Deno.test("the simulation apps give each OpenAPI component name one schema", async (t) => {
  for (const model of [hydrogenModel, ccsModel] as const) {
    const service = createSimulationApp<unknown>({ model, settings: SIMULATION_SETTINGS });
    try {
      await t.step(model.name, async (t) => {
        await checkApp(t, service.app, "server/simulation/app.ts");
      });
    } finally {
      await service.close();
    }
  }
});
