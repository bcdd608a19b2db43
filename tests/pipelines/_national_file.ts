/** Calliope's national-scale example as a model file for the model-run tests. */
import { join } from "node:path";
import { importCalliopeModel } from "../../lib/model/calliope/calliope_import.ts";

const NATIONAL = new URL("../../data/models/calliope_national_scale", import.meta.url).pathname;

/** The national-scale example, one day, with override groups to sweep over, as a file. */
export async function nationalFile(dir: string, scenario?: string): Promise<string> {
  const model = await importCalliopeModel(NATIONAL, {
    overrides: { "model.subset_time": "2005-01-01" },
  });
  model.parameters.overrides = {
    ...model.parameters.overrides,
    cheap_gas: { "techs.ccgt.costs.monetary.energy_cap": 100 },
    dear_gas: { "techs.ccgt.costs.monetary.energy_cap": 2000 },
    no_supply: {
      "run.ensure_feasibility": false,
      "techs.ccgt.constraints.energy_cap_max": 1,
      "techs.csp.constraints.energy_cap_max": 1,
    },
  };
  // The flag's scenarios replace the model's own.
  if (scenario !== undefined) model.parameters.scenario = scenario;
  const file = join(dir, "national.json");
  await Deno.writeTextFile(file, JSON.stringify(model));
  return file;
}
