import assert from "node:assert/strict";
import Papa from "papaparse";
import {
  fieldMetadata,
  fieldMetadataSchema,
  isIgnoredColumn,
  parameterByColumn,
  parameterByKey,
  PARAMETERS,
  toTabulaData,
  type VariantRow,
  variantRowSchema,
} from "../../../lib/heat/parameters/parameters.ts";

const DATA = new URL("../../../data/tabula/city2tabula/", import.meta.url);

/** Every real country file as raw records (the export escapes quotes with an apostrophe). */
function readCountryFiles(): {
  name: string;
  fields: string[];
  records: Record<string, string>[];
}[] {
  const files = [];
  for (const e of Deno.readDirSync(DATA)) {
    const text = Deno.readTextFileSync(new URL(e.name, DATA));
    const result = Papa.parse<Record<string, string>>(text, {
      header: true,
      skipEmptyLines: true,
      escapeChar: "'",
    });
    assert.deepEqual(result.errors, [], e.name);
    files.push({ name: e.name, fields: result.meta.fields ?? [], records: result.data });
  }
  return files.sort((a, b) => a.name.localeCompare(b.name));
}

const FILES = readCountryFiles();
const GERMANY = FILES.find((f) => f.name === "germany.csv")!;

function parsedRow(record: Record<string, string>): VariantRow {
  const result = variantRowSchema.safeParse(record);
  assert.ok(result.success, JSON.stringify(result.error?.issues));
  return result.data;
}

/** Issues of a parse as [column, message] pairs. */
function issues(record: Record<string, string>): [string, string][] {
  const result = variantRowSchema.safeParse(record);
  assert.equal(result.success, false);
  return result.error!.issues.map((i) => [String(i.path[0] ?? ""), i.message]);
}

Deno.test("PARAMETERS covers exactly the data columns of every country file", () => {
  assert.equal(FILES.length, 20);
  const columns = new Set(PARAMETERS.map((p) => p.column));
  assert.equal(columns.size, PARAMETERS.length, "duplicate raw column");
  for (const f of FILES) {
    const kept = f.fields.filter((c) => !isIgnoredColumn(c));
    assert.deepEqual(new Set(kept), columns, f.name);
    assert.equal(f.fields.length, 217, f.name);
  }
  assert.equal(PARAMETERS.length, 199);
});

Deno.test("PARAMETERS entries are complete and consistent", async (t) => {
  await t.step("keys are unique, also ignoring case", () => {
    const keys = PARAMETERS.map((p) => p.key.toLowerCase());
    assert.equal(new Set(keys).size, keys.length);
  });
  await t.step("path is parent.group.key", () => {
    for (const p of PARAMETERS) assert.equal(p.path, `${p.parent}.${p.group}.${p.key}`);
  });
  await t.step("every field has a unit, a label and both descriptions", () => {
    for (const p of PARAMETERS) {
      assert.ok(p.unit.trim().length > 0, `${p.column} unit`);
      assert.ok(p.label.trim().length > 0, `${p.column} label`);
      assert.ok(p.simple_description.length > 20, `${p.column} simple_description`);
      assert.ok(p.expert_description.length > 20, `${p.column} expert_description`);
      assert.notEqual(p.simple_description, p.expert_description, p.column);
    }
  });
  await t.step("ranges make sense", () => {
    for (const p of PARAMETERS) {
      if (p.type === "string") assert.equal(p.min ?? p.max, undefined, p.column);
      if (p.min !== undefined && p.max !== undefined) assert.ok(p.min < p.max, p.column);
    }
  });
  await t.step("lookup by column and by key", () => {
    assert.equal(parameterByColumn("theta_i")?.key, "Theta_i");
    assert.equal(parameterByKey("I_Sol_Horizontal")?.column, "I_Sol_Hor");
    assert.equal(parameterByColumn("id"), undefined);
  });
});

Deno.test("PARAMETERS has the paths and units the interface names", () => {
  const expected: [string, string][] = [
    ["BasicParameters.Envelope.A_C_Ref_Input", "m2"],
    ["AdvancedParameters.ClimateConditions.HeatingDays", "d/a"],
    ["AdvancedParameters.ClimateConditions.Theta_e", "deg C"],
    ["AdvancedParameters.ClimateConditions.Theta_i", "deg C"],
    ["AdvancedParameters.SolarGains.I_Sol_South", "kWh/(m2.a)"],
    ["AdvancedParameters.SolarGains.I_Sol_East", "kWh/(m2.a)"],
    ["AdvancedParameters.SolarGains.I_Sol_West", "kWh/(m2.a)"],
    ["AdvancedParameters.SolarGains.I_Sol_North", "kWh/(m2.a)"],
    ["AdvancedParameters.SolarGains.I_Sol_Horizontal", "kWh/(m2.a)"],
    ["AdvancedParameters.ThermalBridges.Delta_U_ThermalBridging_Original", "W/(m2.K)"],
    ["AdvancedParameters.ThermalBridges.Delta_U_ThermalBridging_Refurbished", "W/(m2.K)"],
    ["BasicParameters.BuildingAppearance.H_room", "m"],
    ["BasicParameters.BuildingAppearance.N_Storey", "-"],
    ["AdvancedParameters.AirInfiltration.N_air_infiltration", "1/h"],
    ["AdvancedParameters.AirInfiltration.N_air_use", "1/h"],
    ["AdvancedParameters.HeatTransfer.C_m", "Wh/(m2.K)"],
  ];
  const byPath = new Map(fieldMetadata().map((f) => [f.path, f]));
  for (const [path, unit] of expected) {
    assert.equal(byPath.get(path)?.unit, unit, path);
  }
});

Deno.test("variantRowSchema accepts every real row of all 20 files", () => {
  let rows = 0;
  for (const f of FILES) {
    f.records.forEach((record, i) => {
      const result = variantRowSchema.safeParse(record);
      assert.ok(result.success, `${f.name}:${i + 1}: ${JSON.stringify(result.error?.issues)}`);
      rows++;
    });
  }
  assert.equal(rows, 2147);
});

Deno.test("variantRowSchema types the values of a real row", () => {
  const row = parsedRow(GERMANY.records[1]!);
  assert.equal(row["Code_BuildingVariant"], "DE.N.AB.02.Gen.ReEx.001.002");
  assert.equal(row["R_PredefinedMeasure_Roof_1"], 2.4365482);
  assert.equal(row["HeatingDays"], 216);
  assert.equal(row["Year1_Building"], 1860);
  assert.equal(row["Remark_BuildingVariant_1"], "0", "text columns keep their text");
  assert.equal(row["Date_Change"], null, "an empty text cell is null");
  assert.equal(row["id"], undefined, "the row id is not a parameter");
  assert.equal(row["Code_RoofType_val_data"], undefined, "helper columns are dropped");
});

Deno.test("variantRowSchema names the column of each bad value", async (t) => {
  const good = GERMANY.records[0]!;
  const cases: [string, Record<string, string>, string, RegExp][] = [
    ["negative area", { A_Wall_1: "-12.5" }, "A_Wall_1", />= 0 m2/],
    ["HeatingDays 400", { HeatingDays: "400" }, "HeatingDays", /<= 366/],
    ["non-numeric U-value", { U_Roof_1: "abc" }, "U_Roof_1", /expected a number, got "abc"/],
    ["decimal comma", { U_Wall_1: "1,2" }, "U_Wall_1", /expected a number/],
    ["empty number", { c_m: "" }, "c_m", /the cell is empty/],
    ["c_m of zero", { c_m: "0" }, "c_m", /> 0/],
    ["fractional year", { Year2_Building: "1918.5" }, "Year2_Building", /whole number/],
    ["b above 1", { b_Transmission_Floor_1: "1.2" }, "b_Transmission_Floor_1", /<= 1/],
    ["cold room", { theta_i: "5" }, "theta_i", />= 10/],
    ["malformed code", { Code_BuildingVariant: "DE_N_AB" }, "Code_BuildingVariant", /match/],
    ["unknown size class", { Code_BuildingSizeClass: "XXL" }, "Code_BuildingSizeClass", /one of/],
    ["country not the code's", { Code_Country: "AT" }, "Code_Country", /first two/],
    [
      "building not the code's",
      { Code_Building: "DE.N.AB.03.Gen.ReEx.001" },
      "Code_Building",
      /start/,
    ],
    ["years reversed", { Year1_Building: "1950" }, "Year2_Building", /before Year1/],
  ];
  for (const [name, change, column, message] of cases) {
    await t.step(name, () => {
      const found = issues({ ...good, ...change });
      assert.equal(found.length, 1, JSON.stringify(found));
      assert.equal(found[0]![0], column);
      assert.match(found[0]![1], message);
    });
  }
  await t.step("several bad cells give one issue each", () => {
    const found = issues({ ...good, A_Roof_1: "-1", HeatingDays: "400", U_Door_1: "x" });
    assert.deepEqual(found.map(([c]) => c).sort(), ["A_Roof_1", "HeatingDays", "U_Door_1"]);
  });
  await t.step("a missing column is named", () => {
    const { U_Window_1: _dropped, ...rest } = good;
    assert.deepEqual(issues(rest).map(([c]) => c), ["U_Window_1"]);
  });
});

Deno.test("toTabulaData nests a real row by PARAMETERS", async (t) => {
  const row = parsedRow(GERMANY.records[0]!);
  const data = toTabulaData(row);
  const fields = fieldMetadata();

  await t.step("every field path resolves to the row's value", () => {
    for (const f of fields) {
      const [parent, group, key] = f.path.split(".") as [string, string, string];
      const groups = (data as Record<string, Record<string, Record<string, unknown>>>)[parent];
      assert.ok(groups?.[group] && key in groups[group], f.path);
      const p = parameterByKey(f.key)!;
      assert.equal(groups[group][key], row[p.column], f.path);
    }
  });
  await t.step("every member of tabula_data has exactly one field entry", () => {
    const paths = fields.map((f) => f.path);
    assert.equal(new Set(paths).size, paths.length);
    const members: string[] = [];
    for (const [parent, groups] of Object.entries(data)) {
      for (const [group, values] of Object.entries(groups)) {
        for (const key of Object.keys(values)) members.push(`${parent}.${group}.${key}`);
      }
    }
    assert.deepEqual(members.sort(), [...paths].sort());
  });
  await t.step("the interface's members hold the raw columns", () => {
    assert.equal(data.AdvancedParameters["ClimateConditions"]?.["Theta_i"], 20);
    assert.equal(data.AdvancedParameters["SolarGains"]?.["I_Sol_Horizontal"], 368);
    assert.equal(data.BasicParameters["BuildingAppearance"]?.["H_room"], 2.5);
    assert.equal(data.AdvancedParameters["HeatTransfer"]?.["C_m"], 45);
    assert.equal(data.BasicParameters["Envelope"]?.["A_C_Ref_Input"], 0);
  });
});

Deno.test("fieldMetadata items satisfy fieldMetadataSchema", () => {
  const fields = fieldMetadata();
  assert.equal(fields.length, PARAMETERS.length);
  for (const f of fields) {
    assert.deepEqual(fieldMetadataSchema.parse(f), f);
    const optional = ["minimum", "exclusive_minimum", "maximum", "override"];
    assert.deepEqual(Object.keys(f).filter((k) => !optional.includes(k)), [
      "key",
      "group",
      "path",
      "unit",
      "label",
      "simple_description",
      "expert_description",
    ]);
  }
  const heating = fields.find((f) => f.key === "HeatingDays")!;
  assert.equal(heating.group, "ClimateConditions");
  assert.deepEqual(
    [heating.minimum, heating.maximum, heating.override],
    [0, 366, { member: "HeatingDays", minimum: 0, maximum: 366 }],
  );
  const storeys = fields.find((f) => f.key === "N_Storey")!;
  assert.deepEqual(
    [storeys.minimum, storeys.exclusive_minimum, storeys.maximum, storeys.override?.minimum],
    [0, true, 100, 1],
  );
  const code = fields.find((f) => f.key === "Code_BuildingVariant")!;
  assert.deepEqual([code.minimum, code.maximum, code.override], [undefined, undefined, undefined]);
  fields.pop();
  assert.equal(fieldMetadata().length, PARAMETERS.length, "callers get a copy");
});
