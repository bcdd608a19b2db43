/**
 * Real `TimeData` for the time-function tests: Calliope's national- and urban-scale examples
 * cut to January 2005 (as Calliope's TestMasks cuts them), and its test model with the
 * 15-minute series (as TestMasks and TestResampling build it).
 */
import { importCalliopeModel } from "../../../lib/model/calliope/calliope_import.ts";
import { resolveModel } from "../../../lib/model/preprocess/resolve_model.ts";
import { timeDataOf } from "../../../lib/model/time/model_time_data.ts";
import { timestampMs } from "../../../lib/model/preprocess/time_window.ts";
import type { TimeData } from "../../../lib/model/time/time_data.ts";

const MODELS = new URL("../../../data/models/", import.meta.url).pathname;
const TEST_MODEL = new URL("../../fixtures/calliope_test_model/model.yaml", import.meta.url)
  .pathname;

/** An example (`national` or `urban`) with `model.subset_time` as given. */
export async function exampleTimeData(
  name: "national" | "urban",
  subsetTime: string | readonly string[] = ["2005-01-01", "2005-01-31"],
): Promise<TimeData> {
  const config = await importCalliopeModel(`${MODELS}calliope_${name}_scale`, {
    overrides: { "model.subset_time": subsetTime },
  });
  return timeDataOf(resolveModel(config));
}

/**
 * Calliope's test model, `scenario="simple_supply,one_day"`, its demand from `file` and
 * `model.subset_time: None` (three days).
 */
export async function testModelTimeData(file: string): Promise<TimeData> {
  const config = await importCalliopeModel(TEST_MODEL, {
    scenario: "simple_supply,one_day",
    overrides: {
      "techs.test_demand_elec.constraints.resource": `file=${file}`,
      "model.subset_time": null,
    },
  });
  return timeDataOf(resolveModel(config));
}

/** `2005-01-01 22:00` -> UTC ms. */
export function ms(text: string): number {
  return timestampMs(text.replace(" ", "T") + (text.length === 16 ? ":00" : ""));
}

/** UTC ms -> `2005-01-01 22:00:00`, as Calliope's tests write timestamps. */
export function stamp(t: number): string {
  return new Date(t).toISOString().slice(0, 19).replace("T", " ");
}

/** Every `step` minutes from `from` (inclusive) to `to` (exclusive), as stamps. */
export function stamps(from: string, to: string, stepMinutes: number): string[] {
  const out: string[] = [];
  for (let t = ms(from); t < ms(to); t += stepMinutes * 60_000) out.push(stamp(t));
  return out;
}
