/**
 * Every documentation page the services serve, loaded in headless Chromium as `deno task start`
 * serves them: Swagger UI must draw the operations of its OpenAPI document and Redoc its
 * sections, with no console error and no failed request (assets are local, no CDN).
 */
import assert from "node:assert/strict";
import { startServices } from "../../server/main.ts";
import { withBrowser } from "../_browser.ts";
import { TEST_HEAT_API_KEY, testEnv } from "./_services_env.ts";

/** The docs pages of each service, by kind. */
const DOCS: Record<string, { swagger: string[]; redoc?: string[] }> = {
  // A browser cannot send X-Api-Key: `?api_key=` once trades it for a docs cookie.
  heat: { swagger: [`/heat/docs?api_key=${TEST_HEAT_API_KEY}`] },
  catalogue: { swagger: ["/docs"], redoc: ["/redoc"] },
  runner: { swagger: ["/docs"] },
  backend: { swagger: ["/api/docs"] },
  extraction: { swagger: ["/api/v1/docs"] },
  hydrogen: { swagger: ["/docs"] },
  ccs: { swagger: ["/docs"] },
};

Deno.test({
  name: "every service's docs page draws its operations in headless Chromium",
  async fn(t) {
    const dir = await Deno.makeTempDir();
    const env = { ...testEnv(dir), CATALOGUE_URL: "http://127.0.0.1:9" };
    const started = await startServices(env);
    try {
      await withBrowser(async (browser) => {
        for (const listener of started.listeners) {
          const pages = DOCS[listener.name];
          assert.ok(pages, `no docs page listed for the service "${listener.name}"`);
          const base = `http://127.0.0.1:${listener.port}`;
          for (const path of pages.swagger) {
            await t.step(`${listener.name} ${path}`, async () => {
              const page = await browser.newPage();
              await page.navigate(base + path);
              const operations = await page.waitFor<number>(
                `document.querySelectorAll(".opblock").length`,
                20_000,
              );
              assert.ok(operations > 0);
              assert.deepEqual(page.errors(), []);
            });
          }
          for (const path of pages.redoc ?? []) {
            await t.step(`${listener.name} ${path}`, async () => {
              const page = await browser.newPage();
              await page.navigate(base + path);
              const sections = await page.waitFor<number>(
                `document.querySelectorAll("[data-section-id*='/paths/']").length`,
                20_000,
              );
              assert.ok(sections > 0);
              assert.deepEqual(page.errors(), []);
            });
          }
        }
      });
    } finally {
      await started.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
