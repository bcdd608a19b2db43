/**
 * The `clusterSeries` of a ClusteringContext over the model's time-series tables: picks the
 * column Calliope 0.6 would (`file=NAME.csv:column`; the column may be left out only when the
 * table has one), with Calliope's messages when it cannot.
 */
import { timestampMs } from "../preprocess/time_window.ts";
import type { ClusteringContext } from "./apply_clustering.ts";

/** A time-series table as the ModelConfig holds one (`id` = the file name without `.csv`). */
export interface ClusterTable {
  readonly id: string;
  readonly timestamps: readonly string[];
  readonly columns: Readonly<Record<string, readonly number[]>>;
}

/** A `clusterSeries` that reads `file=NAME.csv[:column]` from `tables`. */
export function clusterSeriesFrom(
  tables: readonly ClusterTable[],
): NonNullable<ClusteringContext["clusterSeries"]> {
  return (file, column) => {
    const id = file.replace(/\.csv$/i, "");
    const table = tables.find((t) => t.id === id);
    if (table === undefined) {
      return { problem: `no time series ${file} to read the clusters from` };
    }
    const names = Object.keys(table.columns);
    let name = column;
    if (name === undefined) {
      if (names.length !== 1) {
        return {
          problem: `No time clustering column given, but multiple columns found in ${file}. ` +
            `Choose one column and add it to file=${file} as file=${file}:name_of_column.`,
        };
      }
      name = names[0]!;
    }
    const values = Object.hasOwn(table.columns, name) ? table.columns[name] : undefined;
    if (values === undefined) {
      return {
        problem: `time clustering column ${name} not found in ${file} (its columns: ` +
          `${names.join(", ")}).`,
      };
    }
    return { timestamps: table.timestamps.map(timestampMs), values };
  };
}
