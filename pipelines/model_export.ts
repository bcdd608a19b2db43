/**
 * `deno task model-export model.json --out DIR`: a ModelConfig JSON file written as a Calliope
 * 0.6 model directory (model.yaml and timeseries_data/*.csv). The JSON is validated first;
 * every problem is printed with its JSON path.
 */
import { writeCalliopeModel } from "../lib/model/calliope/calliope_export.ts";
import { modelConfigSchema } from "../lib/model/model_config.ts";
import { formatPath } from "../lib/model/model_problem.ts";

const USAGE = "usage: deno task model-export model.json --out DIR";

/** Runs model-export; returns the exit code (0 written, 1 failed, 2 bad usage). */
export async function main(args: readonly string[]): Promise<number> {
  let input: string | undefined;
  let out: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--out") out = args[++i];
    else if (arg.startsWith("--out=")) out = arg.slice(6);
    else if (!arg.startsWith("-") && input === undefined) input = arg;
    else {
      console.error(`unexpected argument "${arg}"\n${USAGE}`);
      return 2;
    }
  }
  if (input === undefined || out === undefined) {
    console.error(USAGE);
    return 2;
  }
  let json: unknown;
  try {
    json = JSON.parse(await Deno.readTextFile(input));
  } catch (error) {
    console.error(`Cannot read "${input}": ${(error as Error).message}`);
    return 1;
  }
  const parsed = modelConfigSchema.safeParse(json);
  if (!parsed.success) {
    console.error(`"${input}" is not a valid ModelConfig:`);
    for (const issue of parsed.error.issues) {
      console.error(`  ${formatPath(issue.path) || "(model)"}: ${issue.message}`);
    }
    return 1;
  }
  try {
    const written = await writeCalliopeModel(parsed.data, out);
    console.log(`${out}: ${written.length} files written`);
    return 0;
  } catch (error) {
    console.error(`Cannot write "${out}": ${(error as Error).message}`);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
