import assert from "node:assert/strict";
import { join } from "node:path";
import {
  keysNested,
  parseCalliopeYaml,
  readCalliopeYaml,
  setKey,
  union,
} from "../../../lib/model/calliope/calliope_yaml.ts";

Deno.test("parseCalliopeYaml() reads YAML 1.2 as Calliope's ruamel does", async (t) => {
  await t.step("1e6 is a number, bare inf stays text, .inf is Infinity", () => {
    const d = parseCalliopeYaml("a: 1e6\nb: inf\nc: .inf\nd: 2005-01-01\n");
    assert.deepEqual(d, { a: 1e6, b: "inf", c: Infinity, d: "2005-01-01" });
  });
  await t.step("dotted keys nest and merge with sibling mappings", () => {
    const d = parseCalliopeYaml(
      "techs:\n  pv:\n    costs.monetary.energy_cap: 1\n    costs.monetary:\n      om_prod: 2\n",
    );
    assert.deepEqual(d, { techs: { pv: { costs: { monetary: { energy_cap: 1, om_prod: 2 } } } } });
  });
  await t.step("a syntax error is a SyntaxError naming the source and line", () => {
    assert.throws(
      () => parseCalliopeYaml("a: 1\nb: [1, 2\nc: 3\n", "broken.yaml"),
      (e: unknown) =>
        e instanceof SyntaxError && /^broken\.yaml:\d+:\d+: YAML syntax/.test(e.message),
    );
  });
  await t.step("a top level that is not a mapping is rejected", () => {
    assert.throws(() => parseCalliopeYaml("- 1\n- 2\n", "list.yaml"), SyntaxError);
  });
});

Deno.test("union() keeps a sub-dict when the newer value is null, and refuses duplicates", () => {
  const base = { techs: { battery: { constraints: { energy_cap_max: 1000 } } } };
  union(base, { techs: { battery: null, pv: null } }, { allowOverride: true });
  assert.deepEqual(base, {
    techs: { battery: { constraints: { energy_cap_max: 1000 } }, pv: null },
  });
  assert.throws(() => union(base, { techs: { pv: 1 } }), /Key defined twice: techs\.pv/);
  union(base, { techs: { pv: { _REPLACE_: { a: 1 } } } }, {
    allowOverride: true,
    allowReplacement: true,
  });
  assert.deepEqual(base.techs.pv, { a: 1 });
});

Deno.test("setKey() and keysNested() follow AttrDict", () => {
  const d = {};
  setKey(d, "a.b.c", 1);
  setKey(d, "a", { b: { d: 2 } });
  setKey(d, "e", {});
  assert.deepEqual(d, { a: { b: { c: 1, d: 2 } }, e: {} });
  assert.deepEqual(keysNested(d), ["a.b.c", "a.b.d", "e"]);
});

Deno.test("readCalliopeYaml() merges imports under the importing file, relative paths", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(join(dir, "sub"));
    await Deno.writeTextFile(
      join(dir, "model.yaml"),
      "import: ['sub/techs.yaml']\nmodel.name: m\ntechs.pv.constraints.lifetime: 25\n",
    );
    await Deno.writeTextFile(
      join(dir, "sub", "techs.yaml"),
      "import: ['more.yaml']\ntechs:\n  pv:\n    essentials.parent: supply\n",
    );
    await Deno.writeTextFile(join(dir, "sub", "more.yaml"), "run:\n  bigM: 1e6\n");
    const d = await readCalliopeYaml(join(dir, "model.yaml"));
    assert.deepEqual(d, {
      run: { bigM: 1e6 },
      techs: { pv: { essentials: { parent: "supply" }, constraints: { lifetime: 25 } } },
      model: { name: "m" },
    });
    await Deno.writeTextFile(join(dir, "twice.yaml"), "import: ['sub/more.yaml']\nrun.bigM: 5\n");
    await assert.rejects(readCalliopeYaml(join(dir, "twice.yaml")), /Key defined twice: run\.bigM/);
    await assert.rejects(readCalliopeYaml(join(dir, "missing.yaml")), /missing\.yaml/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
