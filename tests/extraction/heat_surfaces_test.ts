import assert from "node:assert/strict";
import type { ExtractedSurface } from "../../lib/extraction/building_record.ts";
import { heatTilt, tabulaDoorArea, toHeatSurfaces } from "../../lib/extraction/heat_surfaces.ts";
import { surfaceSchema } from "../../lib/heat/calculation/overrides.ts";

const U = { roof: 0.2, wall: 0.3, floor: 0.4, window: 1.4, door: 1.7 };

/** A 10 m x 6 m box, 6 m high: N and S walls 60 m2, E and W 36 m2, W a party wall. */
function box(roof: "flat" | "gabled"): ExtractedSurface[] {
  const b = "way/1";
  const surfaces: ExtractedSurface[] = [
    { id: `${b}/wall/0`, type: "wall", area: 60, azimuth: 0, tilt: 0 },
    { id: `${b}/wall/1`, type: "wall", area: 36, azimuth: 90, tilt: 0 },
    { id: `${b}/wall/2`, type: "wall", area: 60, azimuth: 180, tilt: 0 },
    { id: `${b}/wall/3`, type: "wall", area: 36, azimuth: 270, tilt: 0, adiabatic: true },
    {
      id: `${b}/wall/0/window`,
      type: "window",
      area: 9,
      azimuth: 0,
      tilt: 0,
      parent: `${b}/wall/0`,
    },
    {
      id: `${b}/wall/2/window`,
      type: "window",
      area: 12,
      azimuth: 180,
      tilt: 0,
      parent: `${b}/wall/2`,
    },
    { id: `${b}/floor`, type: "floor", area: 60, azimuth: null, tilt: 90 },
  ];
  if (roof === "flat") {
    surfaces.push({ id: `${b}/roof/0`, type: "roof", area: 60, azimuth: null, tilt: 90 });
  } else {
    // Ridge along x: two planes pitched 35 deg facing N and S, each 30 / cos(35) m2.
    const plane = 30 / Math.cos(35 * Math.PI / 180);
    surfaces.push(
      { id: `${b}/roof/0`, type: "roof", area: plane, azimuth: 0, tilt: 55 },
      { id: `${b}/roof/1`, type: "roof", area: plane, azimuth: 180, tilt: 55 },
    );
  }
  return surfaces;
}

const byId = (surfaces: ReturnType<typeof toHeatSurfaces>) =>
  new Map(surfaces.map((s) => [s.id, s]));

Deno.test("heatTilt() turns the extraction tilt (0 = vertical) into the heat tilt (0 = horizontal)", async (t) => {
  for (
    const [what, extraction, heat] of [
      ["wall or window", 0, 90],
      ["flat roof or floor", 90, 0],
      ["plane pitched 35 deg", 55, 35],
      ["plane pitched 15 deg", 75, 15],
    ] as const
  ) {
    await t.step(what, () => assert.equal(heatTilt(extraction), heat));
  }
});

Deno.test("toHeatSurfaces() converts walls, windows, flat roof and floor", async (t) => {
  const heat = byId(toHeatSurfaces(box("flat"), U));
  await t.step("walls are vertical (90) with their azimuth, net of their windows", () => {
    assert.deepEqual(heat.get("way/1/wall/0"), {
      id: "way/1/wall/0",
      type: "wall",
      area: 51,
      u_value: 0.3,
      azimuth: 0,
      tilt: 90,
    });
    assert.equal(heat.get("way/1/wall/1")?.area, 36);
    assert.equal(heat.get("way/1/wall/1")?.tilt, 90);
    assert.equal(heat.get("way/1/wall/2")?.area, 48);
  });
  await t.step("windows are vertical with their wall's azimuth", () => {
    assert.deepEqual(heat.get("way/1/wall/2/window"), {
      id: "way/1/wall/2/window",
      type: "window",
      area: 12,
      u_value: 1.4,
      azimuth: 180,
      tilt: 90,
    });
  });
  await t.step("flat roof and floor are horizontal (0) without azimuth", () => {
    assert.deepEqual(heat.get("way/1/roof/0"), {
      id: "way/1/roof/0",
      type: "roof",
      area: 60,
      u_value: 0.2,
      tilt: 0,
    });
    assert.deepEqual(heat.get("way/1/floor"), {
      id: "way/1/floor",
      type: "floor",
      area: 60,
      u_value: 0.4,
      tilt: 0,
    });
  });
  await t.step("party walls are left out", () => {
    assert.equal(heat.has("way/1/wall/3"), false);
    assert.equal(heat.size, 7); // 3 walls, 2 windows, roof, floor
  });
  await t.step("no door unless asked for", () => {
    assert.equal([...heat.values()].some((s) => s.type === "door"), false);
  });
  await t.step("every surface passes the heat service's own schema", () => {
    for (const s of heat.values()) surfaceSchema.parse(s);
  });
});

Deno.test("toHeatSurfaces() keeps pitched planes at their pitch", async (t) => {
  const surfaces = box("gabled");
  const plane = 30 / Math.cos(35 * Math.PI / 180);
  await t.step("planes: tilt 35, azimuth and sloped area kept", () => {
    const heat = byId(toHeatSurfaces(surfaces, U));
    for (const [id, azimuth] of [["way/1/roof/0", 0], ["way/1/roof/1", 180]] as const) {
      const roof = heat.get(id)!;
      assert.equal(roof.tilt, 35);
      assert.equal(roof.azimuth, azimuth);
      assert.ok(Math.abs(roof.area - plane) < 1e-12);
    }
  });
  await t.step("ceiling: one horizontal surface of the footprint", () => {
    const roofs = toHeatSurfaces(surfaces, U, { roof: "ceiling" }).filter((s) => s.type === "roof");
    assert.equal(roofs.length, 1);
    assert.equal(roofs[0]!.id, "way/1/ceiling");
    assert.equal(roofs[0]!.tilt, 0);
    assert.equal(roofs[0]!.azimuth, undefined);
    assert.ok(Math.abs(roofs[0]!.area - 60) < 1e-9);
  });
});

Deno.test("toHeatSurfaces() puts the door on the largest exposed wall", () => {
  const surfaces = box("flat");
  // Make the East wall the largest exposed one; the larger party wall is not a candidate.
  surfaces[1] = { ...surfaces[1]!, area: 70 };
  surfaces[3] = { ...surfaces[3]!, area: 90 };
  const door = tabulaDoorArea(100);
  assert.equal(door, 2.5);
  const heat = byId(toHeatSurfaces(surfaces, U, { doorArea: door }));
  assert.deepEqual(heat.get("way/1/wall/1/door"), {
    id: "way/1/wall/1/door",
    type: "door",
    area: 2.5,
    u_value: 1.7,
    azimuth: 90,
    tilt: 90,
  });
  assert.equal(heat.get("way/1/wall/1")?.area, 67.5);
  assert.equal(heat.get("way/1/wall/0")?.area, 51);
});

Deno.test("toHeatSurfaces() drops windows of party walls and surfaces left without area", () => {
  const surfaces: ExtractedSurface[] = [
    { id: "w/0", type: "wall", area: 10, azimuth: 45, tilt: 0, adiabatic: true },
    { id: "w/0/window", type: "window", area: 2, azimuth: 45, tilt: 0, parent: "w/0" },
    { id: "w/1", type: "wall", area: 4, azimuth: 225, tilt: 0 },
    { id: "w/1/window", type: "window", area: 4, azimuth: 225, tilt: 0, parent: "w/1" },
  ];
  assert.deepEqual(toHeatSurfaces(surfaces, U).map((s) => s.id), ["w/1/window"]);
});

Deno.test("toHeatSurfaces() keeps the areas: net walls + windows + door = exposed gross walls", () => {
  const surfaces = box("flat");
  const heat = toHeatSurfaces(surfaces, U, { doorArea: 3 });
  const sum = (type: string) =>
    heat.filter((s) => s.type === type).reduce((total, s) => total + s.area, 0);
  assert.equal(sum("wall") + sum("window") + sum("door"), 60 + 36 + 60);
  assert.equal(sum("roof"), 60);
  assert.equal(sum("floor"), 60);
});
