/**
 * Runs one simulation payload without a server and writes its result document, as the
 * services would answer it: `deno task simulate h2|ccs payload.json [--out result.json]`
 * (the result goes to stdout without `--out`). A progress bar goes to stderr. Exits 1 for an
 * invalid payload (every wrong field listed) and 2 for wrong usage.
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { runToEnd, type SimulationModel } from "../lib/simulation/simulation_model.ts";

/** Loads a model by name; lazily, so a run loads only the model it needs. */
export type ModelLoader = () => Promise<SimulationModel>;

/** The models of the task, by every name they answer to. */
export const SIMULATION_MODELS: Readonly<Record<string, ModelLoader>> = {
  h2: async () =>
    (await import("../lib/simulation/hydrogen/hydrogen_model.ts")).hydrogenModel as SimulationModel,
  hydrogen: () => SIMULATION_MODELS["h2"]!(),
  ccs: async () => (await import("../lib/simulation/ccs/ccs_model.ts")).ccsModel as SimulationModel,
};

/** What the task writes to and reads from (tests pass their own). */
export interface SimulateIo {
  readText(path: string): Promise<string>;
  writeText(path: string, text: string): Promise<void>;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether stderr is a terminal (a redrawn bar) or not (a line per 10 %). */
  interactive: boolean;
}

const USAGE = "usage: simulate h2|ccs payload.json [--out result.json]";

/** A progress bar of `width` cells for a fraction 0..1. */
export function progressBar(fraction: number, width = 30): string {
  const cells = Math.round(Math.min(1, Math.max(0, fraction)) * width);
  return `[${"#".repeat(cells)}${".".repeat(width - cells)}] ${
    Math.floor(fraction * 100).toString().padStart(3)
  } %`;
}

/** Runs the task; answers the exit code. */
export async function simulate(
  args: readonly string[],
  io: SimulateIo,
  models: Readonly<Record<string, ModelLoader>> = SIMULATION_MODELS,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { out: { type: "string", short: "o" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    io.stderr(`${error instanceof Error ? error.message : error}\n${USAGE}\n`);
    return 2;
  }
  const [name, payloadPath] = parsed.positionals;
  const load = name === undefined ? undefined : models[name];
  if (!load || payloadPath === undefined || parsed.positionals.length > 2) {
    io.stderr(`${USAGE}\nmodels: ${Object.keys(models).join(", ")}\n`);
    return 2;
  }
  let payload: unknown;
  try {
    payload = JSON.parse(await io.readText(payloadPath));
  } catch (error) {
    io.stderr(`Cannot read "${payloadPath}": ${error instanceof Error ? error.message : error}\n`);
    return 1;
  }
  const model = await load();
  let lastShown = -1;
  const started = performance.now();
  let result: Record<string, unknown>;
  try {
    result = runToEnd(model, payload, (fraction) => {
      const pct = Math.floor(fraction * 100);
      if (
        io.interactive ? pct !== lastShown : Math.floor(pct / 10) !== Math.floor(lastShown / 10)
      ) {
        io.stderr(io.interactive ? `\r${progressBar(fraction)}` : `${progressBar(fraction)}\n`);
        lastShown = pct;
      }
    });
  } catch (error) {
    if (io.interactive && lastShown >= 0) io.stderr("\n");
    if (error instanceof z.ZodError) {
      for (const issue of error.issues) {
        io.stderr(`"${payloadPath}": ${issue.path.join(".") || "(payload)"}: ${issue.message}\n`);
      }
      io.stderr(`${error.issues.length} problem(s); nothing run\n`);
    } else {
      io.stderr(`"${payloadPath}": ${error instanceof Error ? error.message : error}\n`);
    }
    return 1;
  }
  if (io.interactive) io.stderr("\n");
  const text = JSON.stringify(result);
  if (parsed.values.out === undefined) io.stdout(`${text}\n`);
  else await io.writeText(parsed.values.out, text);
  io.stderr(
    `${model.name}: done in ${Math.round(performance.now() - started)} ms` +
      (parsed.values.out === undefined ? "\n" : `, result in ${parsed.values.out}\n`),
  );
  return 0;
}

if (import.meta.main) {
  const encoder = new TextEncoder();
  const code = await simulate(Deno.args, {
    readText: (path) => Deno.readTextFile(path),
    writeText: (path, text) => Deno.writeTextFile(path, text),
    stdout: (text) => Deno.stdout.writeSync(encoder.encode(text)),
    stderr: (text) => Deno.stderr.writeSync(encoder.encode(text)),
    interactive: Deno.stderr.isTerminal(),
  });
  Deno.exit(code);
}
