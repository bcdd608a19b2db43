import assert from "node:assert/strict";
import {
  countryTypology,
  defaultPeriod,
  type MatchFacts,
  matchTabula,
  resolveHeatCountry,
  tabulaBuildingType,
  typicalWindowToWallRatio,
} from "../../lib/extraction/tabula_match.ts";
import { typologyFromRows } from "../../lib/heat/typology/typology.ts";
import { testTypology } from "../heat/_typology.ts";

/** A building's match facts: a detached 2-storey house of 100 m2 unless told otherwise. */
function facts(over: Partial<MatchFacts> = {}): MatchFacts {
  return {
    storeys: 2,
    footprint_area: 100,
    attached_neighbours: 0,
    building_type: "yes",
    year: null,
    ...over,
  };
}

Deno.test("tabulaBuildingType() follows the stated rules", async (t) => {
  const cases: [string, Partial<MatchFacts>, string][] = [
    ["detached 2 storeys, 100 m2: SFH", {}, "SFH"],
    ["detached 1 storey, 299 m2: SFH", { storeys: 1, footprint_area: 299 }, "SFH"],
    ["detached 2 storeys, 300 m2: MFH", { footprint_area: 300 }, "MFH"],
    ["detached 3 storeys, 110 m2: SFH", { storeys: 3, footprint_area: 110 }, "SFH"],
    ["detached 3 storeys, 130 m2: MFH", { storeys: 3, footprint_area: 130 }, "MFH"],
    ["detached 4 storeys, 200 m2: MFH", { storeys: 4, footprint_area: 200 }, "MFH"],
    ["1 neighbour, 2 storeys: TH", { attached_neighbours: 1 }, "TH"],
    ["2 neighbours, 3 storeys, 200 m2: TH", {
      attached_neighbours: 2,
      storeys: 3,
      footprint_area: 200,
    }, "TH"],
    ["attached, 3 storeys, 260 m2: MFH", {
      attached_neighbours: 1,
      storeys: 3,
      footprint_area: 260,
    }, "MFH"],
    ["attached, 4 storeys: MFH", { attached_neighbours: 1, storeys: 4 }, "MFH"],
    ["5 storeys: AB", { storeys: 5 }, "AB"],
    ["attached, 8 storeys: AB", { storeys: 8, attached_neighbours: 2 }, "AB"],
    ["3 storeys on 500 m2: AB", { storeys: 3, footprint_area: 500 }, "AB"],
    ["2 storeys on 800 m2: MFH", { footprint_area: 800 }, "MFH"],
    ["building=terrace alone: TH", { building_type: "terrace" }, "TH"],
    ["building=apartments, small: MFH", { building_type: "apartments" }, "MFH"],
    [
      "building=apartments attached: MFH",
      { building_type: "apartments", attached_neighbours: 1 },
      "MFH",
    ],
  ];
  for (const [name, over, type] of cases) {
    await t.step(name, () => assert.equal(tabulaBuildingType(facts(over)).type, type));
  }
  await t.step("the reason names the facts", () => {
    assert.equal(
      tabulaBuildingType(facts({ attached_neighbours: 1, footprint_area: 80.4 })).reason,
      "type TH (attached, up to 3 storeys): 2 storeys, footprint 80 m2, 1 attached neighbour(s)",
    );
  });
});

Deno.test("typicalWindowToWallRatio() gives TABULA's typical values", () => {
  assert.deepEqual(
    (["SFH", "TH", "MFH", "AB"] as const).map(typicalWindowToWallRatio),
    [0.16, 0.2, 0.22, 0.23],
  );
});

Deno.test("resolveHeatCountry() takes the country's own typology, else heat_country", async (t) => {
  const has = (iso2: string) => ["AT", "DE"].includes(iso2);
  await t.step("own typology wins", () => {
    assert.deepEqual(resolveHeatCountry("de", "AT", has), { iso2: "DE", reason: "typology DE" });
  });
  await t.step("LI has none: AT", () => {
    assert.deepEqual(resolveHeatCountry("LI", "at", has), {
      iso2: "AT",
      reason: "typology AT (LI has none)",
    });
  });
  await t.step("LI without heat_country: error", () => {
    assert.match(
      (resolveHeatCountry("LI", undefined, has) as { error: string }).error,
      /heat_country/,
    );
  });
  await t.step("heat_country without typology: error", () => {
    assert.match((resolveHeatCountry("LI", "CH", has) as { error: string }).error, /CH/);
  });
  await t.step(
    "the error names the neighbours with a typology and lists them all (issue 18)",
    () => {
      const available = ["SI", "AT", "DE"];
      assert.equal(
        (resolveHeatCountry("LI", undefined, has, available) as { error: string }).error,
        "LI has no TABULA typology: name one with heat_country, e.g. AT (a neighbour's); " +
          "typologies: AT, DE, SI",
      );
      assert.equal(
        (resolveHeatCountry("ch", undefined, has, available) as { error: string }).error,
        "CH has no TABULA typology: name one with heat_country, e.g. AT or DE (neighbours'); " +
          "typologies: AT, DE, SI",
      );
      // No neighbour known: the list only; without a list, the predicate judges the neighbours.
      assert.equal(
        (resolveHeatCountry("US", undefined, has, available) as { error: string }).error,
        "US has no TABULA typology: name one with heat_country; typologies: AT, DE, SI",
      );
      assert.equal(
        (resolveHeatCountry("LU", undefined, has) as { error: string }).error,
        "LU has no TABULA typology: name one with heat_country, e.g. DE (a neighbour's)",
      );
      assert.equal(
        (resolveHeatCountry("LI", "XX", has, available) as { error: string }).error,
        "Neither LI nor heat_country XX has a TABULA typology; typologies: AT, DE, SI",
      );
    },
  );
});

const typology = await testTypology();

Deno.test("the real typology: LI has none, AT has one", () => {
  assert.equal(typology.variantCodes("LI").length, 0);
  assert.equal(typology.country("CH"), undefined);
  assert.ok(typology.variantCodes("AT").length > 100);
});

Deno.test("countryTypology() of AT: national set, 8 periods per type, generic variants", () => {
  const at = countryTypology(typology, "at")!;
  assert.equal(at.iso2, "AT");
  assert.equal(at.set, "N");
  for (const type of ["SFH", "TH", "MFH", "AB"] as const) {
    assert.deepEqual(at.periods[type].map((p) => p.period), [
      "01",
      "02",
      "03",
      "04",
      "05",
      "06",
      "07",
      "08",
    ]);
  }
  assert.deepEqual(at.periods.SFH[3], { period: "04", year_from: 1961, year_to: 1980 });
  assert.equal(at.variant("MFH", "07"), "AT.N.MFH.07.Gen.ReEx.001.001");
  assert.equal(defaultPeriod(at.periods.SFH)?.period, "04");
  assert.equal(countryTypology(typology, "LI"), undefined);
});

Deno.test("matchTabula() picks type, period and the generic existing-state variant", async (t) => {
  const at = countryTypology(typology, "AT")!;
  await t.step("tagged year", () => {
    const m = matchTabula(facts({ year: 1975 }), {}, at, "typology AT (LI has none)");
    assert.deepEqual(m, {
      variant: "AT.N.SFH.04.Gen.ReEx.001.001",
      country: "AT",
      building_type: "SFH",
      period: "04",
      match_reason: "type SFH (detached, small): 2 storeys, footprint 100 m2, detached; " +
        "period 04 (1961-1980): year 1975 (tagged); typology AT (LI has none)",
    });
  });
  await t.step("a tagged year wins over the run's year", () => {
    const m = matchTabula(facts({ year: 2015, storeys: 6 }), { year: 1900 }, at);
    assert.equal("error" in m ? m.error : m.variant, "AT.N.AB.08.Gen.ReEx.001.001");
  });
  await t.step("the run's year where none is tagged", () => {
    const m = matchTabula(facts({ attached_neighbours: 2 }), { year: 1900 }, at);
    assert.ok(!("error" in m));
    assert.equal(m.variant, "AT.N.TH.01.Gen.ReEx.001.001");
    assert.match(m.match_reason, /period 01 \(-1918\): year 1900 \(the run's year option\)/);
  });
  await t.step("no year: the typology's middle period", () => {
    const m = matchTabula(facts({ storeys: 4 }), {}, at);
    assert.ok(!("error" in m));
    assert.equal(m.variant, "AT.N.MFH.04.Gen.ReEx.001.001");
    assert.match(m.match_reason, /no year, the typology's middle period/);
  });
  await t.step("boundary years belong to their band", () => {
    for (
      const [year, period] of [[1960, "03"], [1961, "04"], [2011, "08"], [2100, "08"]] as const
    ) {
      const m = matchTabula(facts({ year }), {}, at);
      assert.equal("error" in m ? m.error : m.period, period);
    }
  });
});

/** A row with only what the match reads. */
const row = (code: string, from: number, to: number) => ({
  Code_BuildingVariant: code,
  Year1_Building: from,
  Year2_Building: to,
});

Deno.test("matchTabula() falls back to a neighbouring type and the nearest period", () => {
  // A typology with SFH and MFH only, and periods from 1900.
  const small = countryTypology(
    typologyFromRows([
      row("DK.N.SFH.01.Gen.ReEx.001.001", 1900, 1950),
      row("DK.N.SFH.01.Gen.ReEx.001.002", 1900, 1950),
      row("DK.N.SFH.02.Gen.ReEx.001.001", 1951, 9999),
      row("DK.N.MFH.01.Gen.ReEx.001.001", 1900, 9999),
      row("DK.Zone.SFH.01.Gen.ReEx.001.001", 1900, 9999),
    ]),
    "DK",
  )!;
  assert.equal(small.set, "N");
  assert.deepEqual(small.periods.TH, []);
  const th = matchTabula(facts({ attached_neighbours: 1, year: 1850 }), {}, small);
  assert.ok(!("error" in th));
  assert.equal(th.variant, "DK.N.SFH.01.Gen.ReEx.001.001");
  assert.match(
    th.match_reason,
    /DK has no TH, SFH used; nearest period 01 \(1900-1950\): year 1850/,
  );
  const ab = matchTabula(facts({ storeys: 7 }), {}, small);
  assert.equal("error" in ab ? ab.error : ab.variant, "DK.N.MFH.01.Gen.ReEx.001.001");
});
