/**
 * The national example with the `operate` scenario's model keys as overrides (its run.mode and
 * run.operation are given to the operate functions directly), over Calliope's test's three days.
 */
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { importCalliopeModel } from "../../../lib/model/calliope/calliope_import.ts";
import { prepareModelBody } from "../../../lib/model/prepare_model_body.ts";
import type { ResolvedModel } from "../../../lib/model/preprocess/resolved_model.ts";

export const MODELS = fileURLToPath(new URL("../../../data/models/", import.meta.url));

/** The national `operate` scenario's keys other than run.*. */
export const NATIONAL_OPERATE: Readonly<Record<string, unknown>> = {
  "model.subset_time": ["2005-01-01", "2005-01-03"],
  "locations.region1.techs.ccgt.constraints.energy_cap_equals": 30000,
  "locations.region2.techs.battery.constraints.energy_cap_equals": 1000,
  "locations.region2.techs.battery.constraints.storage_cap_equals": 5240,
  "locations.region1-1.techs.csp.constraints.energy_cap_equals": 10000,
  "locations.region1-1.techs.csp.constraints.storage_cap_equals": 244301,
  "locations.region1-1.techs.csp.constraints.resource_area_equals": 130385,
  "locations.region1-2.techs.csp.constraints.energy_cap_equals": 0,
  "locations.region1-2.techs.csp.constraints.storage_cap_equals": 0,
  "locations.region1-2.techs.csp.constraints.resource_area_equals": 0,
  "locations.region1-3.techs.csp.constraints.energy_cap_equals": 2534,
  "locations.region1-3.techs.csp.constraints.storage_cap_equals": 25301,
  "locations.region1-3.techs.csp.constraints.resource_area_equals": 8487,
  "links.region1,region2.techs.ac_transmission.constraints.energy_cap_equals": 3231,
  "links.region1,region1-1.techs.free_transmission.constraints.energy_cap_equals": 9000,
  "links.region1,region1-2.techs.free_transmission.constraints.energy_cap_equals": 0,
  "links.region1,region1-3.techs.free_transmission.constraints.energy_cap_equals": 2281,
};

/** The prepared plan-mode model of the scenario, with `extra` overrides. */
export async function nationalOperateModel(
  extra: Record<string, unknown> = {},
): Promise<ResolvedModel> {
  const config = await importCalliopeModel(join(MODELS, "calliope_national_scale"), {
    overrides: { ...NATIONAL_OPERATE, ...extra },
  });
  const prepared = prepareModelBody(config);
  if (!prepared.ok) throw new Error(JSON.stringify(prepared.problems));
  return prepared.model;
}
