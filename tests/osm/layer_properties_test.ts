import assert from "node:assert/strict";
import { layerProperties, layerPropertyRow } from "../../lib/osm/layer_properties.ts";

Deno.test("layerProperties(): one rule per layer; the row is in column order, lists as JSON", () => {
  const line = { power: "line", voltage: "220000;110000", circuits: "2", cables: "6" };
  assert.deepEqual(layerProperties("power_lines", line, null), {
    power: "line",
    voltage_kv: [220, 110],
    circuits: 2,
    cables: 6,
  });
  assert.deepEqual(layerPropertyRow("power_lines", line, null), ["line", "[220,110]", 2, 6]);
  const plant = { power: "plant", "plant:source": "hydro", "plant:output:electricity": "15 MW" };
  assert.deepEqual(layerPropertyRow("power_plants", plant, 1200), ["plant", "hydro", 15, 1200]);
  assert.deepEqual(layerPropertyRow("substations", { power: "substation" }, null), [
    "substation",
    "[]",
    null,
  ]);
  assert.deepEqual(layerPropertyRow("communes", { name: "Vaduz" }, 17.3e6), [8, 17.3e6]);
  assert.deepEqual(layerPropertyRow("districts", {}, 1), [6, 1]);
});
