import assert from "node:assert/strict";
import { PARAMETERS, REFERENCE_COLUMNS } from "../../lib/heat/parameters/parameters.ts";
import { generatedSchemas, schemaDrift } from "../../pipelines/export_schemas.ts";

type JsonSchema = {
  title?: string;
  description?: string;
  type?: string | string[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  pattern?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

const [variant, reference] = generatedSchemas().map((f) => ({
  name: f.name,
  schema: JSON.parse(f.content) as JsonSchema,
}));

Deno.test("the variant JSON Schema documents every parameter column", () => {
  assert.equal(variant!.name, "tabula_variant.schema.json");
  const { properties = {}, required = [] } = variant!.schema;
  assert.deepEqual(Object.keys(properties).sort(), PARAMETERS.map((p) => p.column).sort());
  assert.equal(required.length, PARAMETERS.length);
  for (const p of PARAMETERS) {
    const s = properties[p.column]!;
    assert.equal(s.title, p.label);
    assert.ok(s.description?.endsWith(`Unit: ${p.unit}.`), p.column);
  }
  assert.deepEqual(properties["HeatingDays"], {
    ...properties["HeatingDays"],
    type: "number",
    minimum: 0,
    maximum: 366,
  });
  assert.equal(properties["c_m"]!.exclusiveMinimum, 0);
  assert.deepEqual(properties["Date_Change"]!.type, ["string", "null"]);
  assert.equal(properties["Year1_Building"]!.type, "integer");
  assert.ok(properties["Code_BuildingVariant"]!.pattern);
});

Deno.test("the reference JSON Schema lists every reference column", () => {
  assert.equal(reference!.name, "tabula_reference.schema.json");
  const properties = reference!.schema.properties ?? {};
  assert.deepEqual(Object.keys(properties), [...REFERENCE_COLUMNS]);
  assert.equal(properties["q_h_nd"]!.type, "number");
});

Deno.test("the committed schemas in data/schemas are current", async () => {
  assert.deepEqual(await schemaDrift(), []);
});
