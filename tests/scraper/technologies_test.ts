import assert from "node:assert/strict";
import {
  matchTechnologies,
  mentionsTechnology,
  TECHNOLOGY_TERMS,
  technologyTerms,
} from "../../lib/scraper/technologies.ts";

Deno.test("matchTechnologies() maps titles and abstracts to technology ids", async (t) => {
  const cases: [string, string[]][] = [
    ["Techno-economic assessment of PEM electrolysis", ["pem_electrolyzer"]],
    ["Proton exchange membrane water electrolysers at scale", ["pem_electrolyzer"]],
    ["Alkaline electrolyzer stacks", ["alkaline_electrolyzer"]],
    ["Cost of utility-scale lithium-ion battery storage", ["lithium_ion_bess"]],
    ["Utility-scale solar with co-located Li-ion batteries", [
      "solar_pv_utility_scale",
      "lithium_ion_bess",
    ]],
    ["Floating offshore wind in deep water", [
      "offshore_wind_fixed_bottom",
      "offshore_wind_floating",
    ]],
    ["NGCC plants in flexible operation", ["combined_cycle_gas_turbine_ccgt"]],
    ["CO₂ pipeline networks", ["co2_pipeline"]],
    ["Nasal spray and NASA missions", []],
    ["A survey of CSPs and CSP plants", ["concentrated_solar_power_csp"]],
    ["Economic growth in 2030", []],
  ];
  for (const [text, expected] of cases) {
    await t.step(text, () => assert.deepEqual(matchTechnologies(text), expected));
  }
});

Deno.test("mentionsTechnology() matches acronyms only as whole words, in capitals", () => {
  assert.equal(
    mentionsTechnology("sodium-sulphur (NaS) batteries", "sodium_sulfur_batteries"),
    true,
  );
  assert.equal(mentionsTechnology("nasal", "sodium_sulfur_batteries"), false);
  assert.equal(mentionsTechnology("the csp market", "concentrated_solar_power_csp"), false);
});

Deno.test("technologyTerms() searches unknown ids by their own words", () => {
  assert.deepEqual(technologyTerms("tidal_lagoon"), {
    query: "tidal lagoon",
    keywords: ["tidal lagoon"],
  });
  assert.equal(technologyTerms("pem_electrolyzer"), TECHNOLOGY_TERMS.pem_electrolyzer);
});

Deno.test("technologyTerms() reads own members only: `constructor` is searched by its words", () => {
  for (const id of ["constructor", "__proto__", "hasOwnProperty"]) {
    assert.deepEqual(technologyTerms(id), {
      query: id.replace(/_/g, " ").trim(),
      keywords: [
        id.replace(/_/g, " ").trim(),
      ],
    });
  }
  assert.equal(mentionsTechnology("A constructor of plants", "constructor"), true);
});

Deno.test("TECHNOLOGY_TERMS covers every technology of the catalogue files", async () => {
  const dir = new URL("../../catalogues/", import.meta.url);
  const ids: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile || !entry.name.endsWith(".json") || entry.name === "manifest.json") continue;
    const file = JSON.parse(await Deno.readTextFile(new URL(entry.name, dir))) as {
      technologies: { technology_id: string }[];
      metadata: { not_included?: { template_id: string }[] };
    };
    ids.push(...file.technologies.map((t) => t.technology_id));
    ids.push(...(file.metadata.not_included ?? []).map((t) => t.template_id));
  }
  assert.ok(ids.length > 0);
  assert.deepEqual(ids.filter((id) => !(id in TECHNOLOGY_TERMS)), []);
});
