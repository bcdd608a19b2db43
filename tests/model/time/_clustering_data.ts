/**
 * Real TimeData for the clustering tests: Calliope's national-scale example and its test model
 * (tests/fixtures/calliope_test_model), imported, resolved and read as the time functions see
 * them.
 */
import { importCalliopeModel } from "../../../lib/model/calliope/calliope_import.ts";
import { readSeriesFile } from "../../../lib/model/calliope/calliope_series.ts";
import { resolveModel } from "../../../lib/model/preprocess/resolve_model.ts";
import type { ClusterTable } from "../../../lib/model/time/cluster_series.ts";
import { timeDataOf } from "../../../lib/model/time/model_time_data.ts";
import type { TimeData } from "../../../lib/model/time/time_data.ts";

const NATIONAL = new URL("../../../data/models/calliope_national_scale", import.meta.url).pathname;
const TEST_MODEL = new URL("../../fixtures/calliope_test_model", import.meta.url).pathname;

/** The national-scale example's time series from `start` to `end` (days, inclusive). */
export async function nationalTimeData(start: string, end: string): Promise<TimeData> {
  const config = await importCalliopeModel(NATIONAL, {
    overrides: { "model.subset_time": [start, end] },
  });
  return timeDataOf(resolveModel(config));
}

/** The test model's time series, built as Calliope's `build_test_model(override, scenario)`. */
export async function testModelTimeData(
  scenario: string,
  overrides: Record<string, unknown>,
): Promise<TimeData> {
  const config = await importCalliopeModel(`${TEST_MODEL}/model.yaml`, { scenario, overrides });
  return timeDataOf(resolveModel(config));
}

/** A CSV of the test model's timeseries_data as a table (e.g. `clusters.csv`). */
export function testModelTable(file: string): Promise<ClusterTable> {
  return readSeriesFile(`${TEST_MODEL}/timeseries_data/${file}`, file.replace(/\.csv$/, ""));
}
