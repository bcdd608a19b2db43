/**
 * `deno task model-import DIR [--scenario S] [-o key=value ...] --out model.json`: a Calliope
 * 0.6 model directory as ModelConfig JSON. `-o` values are read as YAML (`-o run.bigM=1e5`,
 * `-o model.subset_time=[2005-01-01,2005-01-02]`) and applied as Calliope overrides.
 */
import { parse as parseYaml } from "yaml";
import { importCalliopeModel } from "../lib/model/calliope/calliope_import.ts";
import { ModelValidationError } from "../lib/model/model_problem.ts";

const USAGE =
  "usage: deno task model-import DIR [--scenario S] [-o key=value ...] --out model.json";

/** Parsed command line of model-import. */
export interface ModelImportArgs {
  readonly dir: string;
  readonly out: string;
  readonly scenario?: string;
  readonly overrides: Record<string, unknown>;
}

/** Reads the command line; throws TypeError with the usage on a bad one. */
export function parseModelImportArgs(args: readonly string[]): ModelImportArgs {
  let dir: string | undefined;
  let out: string | undefined;
  let scenario: string | undefined;
  const overrides: Record<string, unknown> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = (): string => {
      const v = args[++i];
      if (v === undefined) throw new TypeError(`${arg} needs a value\n${USAGE}`);
      return v;
    };
    if (arg === "--out") out = next();
    else if (arg.startsWith("--out=")) out = arg.slice(6);
    else if (arg === "--scenario") scenario = next();
    else if (arg.startsWith("--scenario=")) scenario = arg.slice(11);
    else if (arg === "-o" || arg === "--override") {
      const pair = next();
      const eq = pair.indexOf("=");
      if (eq <= 0) throw new TypeError(`-o takes key=value, got "${pair}"\n${USAGE}`);
      overrides[pair.slice(0, eq)] = parseYaml(pair.slice(eq + 1), {
        version: "1.2",
        schema: "core",
      });
    } else if (arg.startsWith("-")) throw new TypeError(`unknown option ${arg}\n${USAGE}`);
    else if (dir === undefined) dir = arg;
    else throw new TypeError(`unexpected argument "${arg}"\n${USAGE}`);
  }
  if (dir === undefined || out === undefined) throw new TypeError(USAGE);
  return { dir, out, overrides, ...(scenario !== undefined ? { scenario } : {}) };
}

/** Runs model-import; returns the exit code (0 written, 1 failed, 2 bad usage). */
export async function main(args: readonly string[]): Promise<number> {
  let parsed: ModelImportArgs;
  try {
    parsed = parseModelImportArgs(args);
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  try {
    const model = await importCalliopeModel(parsed.dir, {
      ...(parsed.scenario !== undefined ? { scenario: parsed.scenario } : {}),
      overrides: parsed.overrides,
    });
    await Deno.writeTextFile(parsed.out, `${JSON.stringify(model, null, 2)}\n`);
    console.log(
      `${parsed.out}: ${model.technologies.length} technologies, ${model.locations.length} ` +
        `locations, ${model.links.length} links, ${model.timeSeries.length} time series`,
    );
    return 0;
  } catch (error) {
    if (error instanceof ModelValidationError) {
      console.error(`Cannot import "${parsed.dir}":`);
      for (const p of error.problems) console.error(`  ${p.path || "(model)"}: ${p.message}`);
    } else {
      console.error(`Cannot import "${parsed.dir}": ${(error as Error).message}`);
    }
    return 1;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
