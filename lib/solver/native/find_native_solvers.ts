/**
 * Which command-line solvers are on PATH here, with the version each prints: looked up in
 * parallel, each version query with a timeout, so that /health answers quickly.
 */
import type { CommandLineSolver } from "../solver_names.ts";
import { type FoundSolver, NATIVE_SOLVERS, type NativeSolverSpec } from "./native_solvers.ts";

/** A version query that takes longer (a licence server, a hung binary) gives "unknown". */
const VERSION_TIMEOUT_MS = 3000;

/** The first executable `binary` in the directories of `path` (PATH's syntax), or undefined. */
export async function whichBinary(binary: string, path: string): Promise<string | undefined> {
  for (const dir of path.split(":")) {
    if (dir === "") continue;
    const candidate = `${dir.replace(/\/+$/, "")}/${binary}`;
    try {
      const info = await Deno.stat(candidate);
      if (info.isFile && info.mode !== null && (info.mode & 0o111) !== 0) return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return undefined;
}

/** The first version number (e.g. `2.10.8`, `5.0`) in `text`, or undefined. */
export function versionIn(text: string): string | undefined {
  return /(?:version|v|GLPK[^0-9\n]*)[^0-9\n]*?(\d+\.\d+(?:\.\d+)?)/i.exec(text)?.[1] ??
    /\b(\d+\.\d+(?:\.\d+)?)\b/.exec(text)?.[1];
}

async function versionOf(spec: NativeSolverSpec, binary: string): Promise<string> {
  const child = new Deno.Command(binary, {
    args: [...spec.versionArgs],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      try {
        Deno.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
      resolve(undefined);
    }, VERSION_TIMEOUT_MS);
  });
  try {
    const output = await Promise.race([child.output(), timeout]);
    if (output === undefined) return "unknown";
    const decoder = new TextDecoder();
    const text = decoder.decode(output.stdout) + "\n" + decoder.decode(output.stderr);
    return versionIn(text) ?? "unknown";
  } catch {
    return "unknown";
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The command-line solvers on `options.path` (default: the PATH variable), in NATIVE_SOLVERS'
 * order, each with its binary's path and version.
 */
export async function findNativeSolvers(
  options: { path?: string } = {},
): Promise<FoundSolver[]> {
  const path = options.path ?? Deno.env.get("PATH") ?? "";
  const specs = Object.values(NATIVE_SOLVERS);
  const found = await Promise.all(specs.map(async (spec): Promise<FoundSolver | undefined> => {
    const binary = await whichBinary(spec.binary, path);
    if (binary === undefined) return undefined;
    const version = await versionOf(spec, binary);
    return {
      name: spec.name,
      path: binary,
      version,
      description: `${spec.label} ${version} (native)`,
    };
  }));
  return found.filter((f): f is FoundSolver => f !== undefined);
}

let cached: Promise<FoundSolver[]> | undefined;

/** findNativeSolvers on PATH, looked up once per process. */
export function findNativeSolversOnce(): Promise<FoundSolver[]> {
  cached ??= findNativeSolvers();
  return cached;
}

/** The found solver called `name`, looked up once per process. */
export async function findNativeSolver(
  name: CommandLineSolver,
): Promise<FoundSolver | undefined> {
  return (await findNativeSolversOnce()).find((f) => f.name === name);
}
