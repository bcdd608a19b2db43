import assert from "node:assert/strict";
import { importOsmExtract } from "../../lib/osm/import_region.ts";
import { loadLayerIndex } from "../../lib/osm/layer_index.ts";
import { type LayerLimits, type LayerRequest, queryLayer } from "../../lib/osm/layer_query.ts";
import { LAYER_NAMES } from "../../lib/osm/osm_store.ts";
import { openStore } from "../../lib/store/store.ts";

const PBF = new URL(
  "../../data/geo/liechtenstein/osm/liechtenstein-2024-03-04.osm.pbf",
  import.meta.url,
).pathname;

Deno.test("loadLayerIndex(): the same answers as the store query, or none when too large", async (t) => {
  const store = await openStore(":memory:");
  try {
    await importOsmExtract(store, PBF, { regionPath: "Europe/Liechtenstein" });
    // A second region with the power features only, to tell regions apart.
    await importOsmExtract(
      store,
      new URL("../../data/geo/liechtenstein/osm/liechtenstein_power.osm", import.meta.url)
        .pathname,
      { regionPath: "Europe/Test_Power" },
    );
    const requests: LayerRequest[] = [
      { region: "Europe/Liechtenstein" },
      { region: "europe/test_power" },
      { region: "Europe" },
      { region: "Europe/Liechtenstei" },
      { bbox: [9.47, 47.04, 9.64, 47.28] },
      { bbox: [9.5, 47.08, 9.56, 47.13] },
      { bbox: [9.5, 47.08, 9.56, 47.13], region: "Europe/Test_Power" },
      { bbox: [0, 0, 1, 1] },
    ];
    for (const layer of LAYER_NAMES) {
      await t.step(layer, async () => {
        const index = await loadLayerIndex(store, layer);
        assert.ok(index);
        // Cut at a count, at a size, and not at all: both sides cut at the same feature.
        const limits: (LayerLimits | undefined)[] = [
          undefined,
          { maxFeatures: 3, maxBytes: 1024 ** 3 },
          { maxFeatures: 1000, maxBytes: 1024 + 6000 },
          { maxFeatures: 1000, maxBytes: 1024 },
        ];
        for (const request of requests) {
          for (const limit of limits) {
            const what = JSON.stringify({ request, limit });
            const fromIndex = index.query(request, limit);
            const fromStore = await queryLayer(store, layer, request, limit);
            assert.equal(fromIndex.count, fromStore.count, what);
            assert.equal(fromIndex.total, fromStore.total, what);
            assert.equal(fromIndex.truncated, fromStore.truncated, what);
            assert.equal(fromIndex.text, fromStore.text, what);
            if (limit) assert.ok(fromIndex.bytes.length <= limit.maxBytes, what);
            JSON.parse(fromIndex.text);
          }
        }
        JSON.parse(index.query({ region: "Europe" }).text);
      });
    }
    assert.equal(await loadLayerIndex(store, "power_plants", 1000), undefined);
  } finally {
    await store.close();
  }
});
